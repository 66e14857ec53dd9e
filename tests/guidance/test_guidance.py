"""Visual guidance: the target marked by a ring or an arrow, checked against the task's own
problem for the same seed."""

import hashlib
import json
import math

import numpy as np
import pytest

from paintkit.conditions import CONDITIONS
from paintkit.guidance import GUIDED_TASKS
from paintkit.guidance.generate import CUE_PHRASES, MIN_CUE_DELTA_E
from paintkit.renderers import render, render_mask
from paintkit.scene import Scene
from paintkit.shapes import shape_bounds
from paintkit.sources import generate
from paintkit.suites.guidance import GuidanceSuite
from paintkit.tasks import task_module
from paintkit.tasks.base import MAX_IDENTITY_MIOU, identity_miou

PINNED = {
    ("translation", "baseline"): (
        "c34faf018df7d0fc7f0895d2c286a9d2d808cf264d4f7404e473974dc8a97aea",
        "a5fea5598dc8082e9dff1da685b59658d28207610d8d8887b82086b0d7cc229a",
        "6e88e119394a59c4bc9a84a3bca9e588bed882012a3c99c5c865ed106642116d"),
    ("shearing", "striped"): (
        "e0144d9510acf7af378ea4e79aad9f73a000fcc6ca3ec7a92feeedd6e707ce62",
        "0fb1c0ad58abf381b5a5cf7a381045a19955853b53bd4ad19c82c9540c2c7160",
        "931a532dcb73a7965a381871913973103a35a02b55a7b82df423392399acc20b"),
}
QUICK = [("translation", "n_high"), ("rotation", "striped"), ("reflection", "baseline"),
         ("scaling", "horizontal"), ("shearing", "n_xhigh")]


def _cie76(a, b) -> float:
    """CIE76 by scikit-image (an implementation the generator does not use)."""
    from skimage.color import deltaE_cie76, rgb2lab

    lab = rgb2lab(np.array([[a, b]], dtype=np.uint8))
    return float(deltaE_cie76(lab[0, 0], lab[0, 1]))


def test_cue_colour_rule_is_perceptual():
    # two colours 64 apart in their largest channel yet close to the eye: the old rule let
    # a #C88069 ring sit next to a #8B4513 shape (CIE76 28.7); the rule is CIE76 now
    from paintkit.guidance.generate import cue_delta_e

    assert abs(cue_delta_e((0xC8, 0x80, 0x69), (0x8B, 0x45, 0x13)) - 28.7) < 0.1
    assert abs(cue_delta_e((0xC8, 0x80, 0x69), (0x8B, 0x45, 0x13))
               - _cie76((0xC8, 0x80, 0x69), (0x8B, 0x45, 0x13))) < 0.05
    assert cue_delta_e((0xC8, 0x80, 0x69), (0x8B, 0x45, 0x13)) < MIN_CUE_DELTA_E


def _point_to_box(p, shape) -> float:
    x0, y0, x1, y1 = shape_bounds(shape)
    return math.hypot(max(x0 - p[0], 0, p[0] - x1), max(y0 - p[1], 0, p[1] - y1))


def check_guided(problem, task: str) -> None:
    meta, guide = problem.metadata, problem.metadata["guidance"]
    plain = task_module(task).generate(meta["seed"], meta["visual_condition"], meta["mode"])
    assert np.array_equal(problem.answer, plain.answer)  # the answer has no cue
    cue_phrase = CUE_PHRASES[guide["cue"]].format(code=guide["color"])
    assert problem.instruction == plain.instruction.replace(guide["replaces"], cue_phrase) + \
        f" The {guide['color']} {guide['cue']} is only a marker: the answer does not show it."
    assert plain.instruction.count(guide["replaces"]) == 1
    assert guide["replaces"] not in problem.instruction
    scene = Scene.from_dict(meta["scene"])
    assert np.array_equal(render(scene), problem.input)
    cue_ids = guide["elements"]
    assert [e.id for e in scene.elements[-len(cue_ids):]] == cue_ids  # drawn on top
    bare = scene.without(*cue_ids)
    assert bare == Scene.from_dict(plain.metadata["scene"])
    cue = np.zeros(problem.input.shape[:2], bool)
    for cid in cue_ids:
        cue |= render_mask(scene, cid)
    differs = np.any(render(bare) != problem.input, axis=-1)
    assert np.array_equal(differs, cue)  # the cue is all the input adds
    code = tuple(int(guide["color"][i:i + 2], 16) for i in (1, 3, 5))
    assert np.all(problem.input[cue] == code)
    others = set(bare.colors) | set(Scene.from_dict(meta["answer_scene"]).colors)
    assert min(_cie76(code, c) for c in others) >= MIN_CUE_DELTA_E
    assert not np.all(problem.answer == code, axis=-1).any()
    for shape in bare.shapes:
        assert not (render_mask(bare, shape.id) & cue).any(), "the cue touches a shape"
    target = bare.element(meta["targets"][0])
    if guide["cue"] == "ring":
        ring = scene.element(cue_ids[0])
        centre = np.mean(np.asarray(ring.points), axis=0)
        radius = np.linalg.norm(np.asarray(ring.points[0]) - centre)
        inside = [s.id for s in bare.shapes if math.hypot(
            *(np.asarray(_centre(s)) - centre)) < radius]
        assert inside == [target.id]
    else:
        tip = scene.element(cue_ids[1]).points[0]
        nearest = min(bare.shapes, key=lambda s: _point_to_box(tip, s))
        assert nearest.id == target.id
    assert identity_miou(problem.input, problem.answer) <= MAX_IDENTITY_MIOU


def _centre(shape):
    x0, y0, x1, y1 = shape_bounds(shape)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


@pytest.mark.parametrize("task,condition", QUICK)
def test_guided_problem_is_the_task_with_a_cue(task, condition):
    check_guided(generate(task, 1, condition, source="guidance"), task)


@pytest.mark.slow
@pytest.mark.parametrize("task", GUIDED_TASKS)
@pytest.mark.parametrize("condition", CONDITIONS)
def test_guided_problem_is_the_task_with_a_cue_full_grid(task, condition):
    cues = set()
    for slot in range(4):
        problem = generate(task, slot, condition, source="guidance")
        check_guided(problem, task)
        cues.add(problem.metadata["guidance"]["cue"])


@pytest.mark.parametrize("cell", sorted(PINNED))
def test_pinned_bytes(cell):
    task, condition = cell
    problem = generate(task, 0, condition, source="guidance")
    meta = json.dumps(problem.metadata, sort_keys=True, separators=(",", ":")).encode()
    got = tuple(hashlib.sha256(b).hexdigest()
                for b in (problem.input.tobytes(), problem.answer.tobytes(), meta))
    assert got == PINNED[cell], "guidance bytes changed: bump the version (generator-rules)"


def test_both_cues_occur_and_suite_layout():
    cues = {generate("translation", s, "baseline", source="guidance").metadata["guidance"]["cue"]
            for s in range(6)}
    assert cues == {"ring", "arrow"}
    suite = GuidanceSuite(tasks=("rotation",), conditions=("baseline", "n_med"), per_cell=2)
    assert [(s.folder, s.stem, s.condition, s.slot) for s in suite.specs()] == [
        ("rotation", "000", "baseline", 0), ("rotation", "001", "baseline", 1),
        ("rotation", "002", "n_med", 0), ("rotation", "003", "n_med", 1)]
    assert GuidanceSuite.from_dict(suite.to_dict()) == suite


def test_bad_task_is_named():
    with pytest.raises(ValueError, match="task 'removal' has no guided variant"):
        generate("removal", 0, "baseline", source="guidance")
