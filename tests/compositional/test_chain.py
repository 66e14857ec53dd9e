"""Multi-edit and conversational problems: replayed step by step from their own metadata."""

import hashlib
import json
import re
from dataclasses import replace

import numpy as np
import pytest

from paintkit.compositional import OPERATIONS
from paintkit.compositional.turns import TURN_FIELDS, answer_pixels
from paintkit.conditions import CONDITIONS
from paintkit.language.phrases import describe_shape
from paintkit.renderers import render
from paintkit.scene import Scene, compose
from paintkit.sources import generate
from paintkit.tasks.base import MAX_IDENTITY_MIOU, MIN_EDIT_PIXELS

PINNED = {  # SHA-256 of input, answer and canonical metadata JSON, slot 0 (generator-rules)
    ("multi_edit", 2, "baseline"): (
        "6942842ff0575a8dfecb020eb5f50492b2305ff8b4ac5c8ed4e6160929c9e252",
        "b1309751a82e7116e595396f6b5d53b78dcbeafc6c92b5b2c645db275ad2a3ba",
        "380f1ebedee5fbe41924b6099e6e1084c47492b9b98ab69e4c125d543e932f38"),
    ("multi_edit", 3, "striped"): (
        "827bc91698058f6c9e283c4303f14652daafec5ea06ab514e2d84cdf0234b062",
        "80082bb4600e184cd3c823b970bbc338350d6b2ff015a76181d8dc3148647ebd",
        "fcbd762dcced97599535fe5dafdb8f0a737f8a2fb7d2c92708dfe2e62ad07314"),
    ("conversational", 2, "nonstandard"): (
        "92ad3b2fd0b7c0a688d522a936bd83863e4fcd1f8626a5d10db4d12127a76c58",
        "345a6b2bad2bacbba17fe6d34e2c6bc3c61b4db9b7f969c8aa58bcf39313cfcb",
        "a314840980d1dcd40a065011794edfbde026f7215778978ed3090973ff176fc5"),
    ("conversational", 3, "n_high"): (
        "8312deeee3a1039d4b35bb7581f3ee6a5aedaaf827b9041e42e7e3ef2f76f295",
        "ca82577e3f0a068dc879fef36d3dca2d3a940601d15f2d6e3287e3289d02bb3f",
        "fce42caa5bc7a32e713e63e22019247e420eef9c34034f267fcc32db6d0b25ed"),
}
GRID = [(kind, steps, cond) for kind in ("multi_edit", "conversational") for steps in (2, 3)
        for cond in CONDITIONS]
QUICK = [("multi_edit", 2, "baseline"), ("multi_edit", 3, "striped"),
         ("conversational", 3, "n_xhigh"), ("conversational", 2, "vertical")]


def _hex(code: str) -> tuple[int, int, int]:
    return tuple(int(code[i:i + 2], 16) for i in (1, 3, 5))


def replay(scene: Scene, step: dict) -> Scene:
    """Apply one recorded step with the scene model only (not the operations module)."""
    target = scene.element(step["target"])
    if step["operation"] == "remove":
        return scene.without(target.id)
    if step["operation"] == "recolor":
        return scene.replace_element(target.id, replace(target, fill=_hex(step["color"])))
    moved = replace(target, transform=compose(tuple(step["affine"]), target.transform))
    return scene.without(target.id).with_elements(moved, on_top=step["on_top"])


def _free(before, after) -> float:
    from paintkit.tasks.base import identity_miou

    return identity_miou(before, after)


def check_problem(problem, steps: int) -> None:
    meta = problem.metadata
    recorded = meta["params"]["steps"]
    assert len(recorded) == steps == len(meta["targets"])
    assert len(set(meta["targets"])) == steps  # distinct targets: no step can undo another
    assert len({s["operation"] for s in recorded}) == steps
    assert {s["operation"] for s in recorded} <= set(OPERATIONS)
    scene = Scene.from_dict(meta["scene"])
    assert np.array_equal(render(scene), problem.input)
    before_pixels, position, shown = problem.input, 0, [problem.input]
    for k, step in enumerate(recorded, 1):
        target = scene.element(step["target"])
        phrase = describe_shape(target, scene.shapes)  # unique in the scene this step sees
        assert phrase in step["instruction"], (phrase, step["instruction"])
        at = problem.instruction.find(step["instruction"], position)
        assert at >= 0, f"step {k} is not stated after step {k - 1}"
        position = at + len(step["instruction"])
        for code in re.findall(r"#[0-9A-Fa-f]{6}\b", step["instruction"]):
            assert code == code.upper() and code == step.get("color")  # exact colour codes
        scene = replay(scene, step)
        after_pixels = render(scene)
        assert not np.array_equal(before_pixels, after_pixels), f"step {k} changes nothing"
        assert _free(before_pixels, after_pixels) <= MAX_IDENTITY_MIOU
        if meta["task"] == "conversational":
            turn = meta["turns"][k - 1]
            assert tuple(turn) == TURN_FIELDS and turn["turn"] == k
            assert turn["instruction"].startswith(step["instruction"])
            assert np.array_equal(answer_pixels(turn), after_pixels)
        before_pixels = after_pixels
        shown.append(after_pixels)
    assert np.array_equal(after_pixels, problem.answer)  # the one exact final answer
    for k in range(len(shown) - 1):  # no later step hides an earlier one
        changed = np.any(shown[k] != shown[k + 1], axis=-1)
        kept = changed & np.all(shown[k + 1] == problem.answer, axis=-1)
        assert kept.sum() >= MIN_EDIT_PIXELS, f"step {k + 1} is hidden by later steps"
    assert _free(problem.input, problem.answer) <= MAX_IDENTITY_MIOU
    assert Scene.from_dict(meta["answer_scene"]) == scene


@pytest.mark.parametrize("kind,steps,condition", QUICK)
def test_replayed_steps_give_every_answer(kind, steps, condition):
    check_problem(generate(kind, 1, condition, f"steps{steps}", source="compositional"), steps)


@pytest.mark.slow
@pytest.mark.parametrize("kind,steps,condition", GRID)
def test_replayed_steps_give_every_answer_full_grid(kind, steps, condition):
    for slot in range(3):
        check_problem(generate(kind, slot, condition, f"steps{steps}", source="compositional"), steps)


def test_both_kinds_share_the_chain_and_differ_in_wording():
    one = generate("multi_edit", 2, "baseline", "steps3", source="compositional")
    two = generate("conversational", 2, "baseline", "steps3", source="compositional")
    assert np.array_equal(one.input, two.input) and np.array_equal(one.answer, two.answer)
    assert one.instruction.startswith("Make these 3 edits in order")
    assert two.instruction.startswith("A conversation of 3 turns")
    assert "turns" not in one.metadata and len(two.metadata["turns"]) == 3


def test_same_seed_same_bytes_and_slots_differ():
    a = generate("multi_edit", 4, "n_med", "steps2", source="compositional", namespace="train")
    b = generate("multi_edit", 4, "n_med", "steps2", source="compositional", namespace="train")
    c = generate("multi_edit", 5, "n_med", "steps2", source="compositional", namespace="train")
    assert a.metadata == b.metadata and np.array_equal(a.answer, b.answer)
    assert not np.array_equal(a.input, c.input)
    assert a.metadata["namespace"] == "train"


@pytest.mark.parametrize("cell", sorted(PINNED))
def test_pinned_bytes(cell):
    kind, steps, condition = cell
    problem = generate(kind, 0, condition, f"steps{steps}", source="compositional")
    meta = json.dumps(problem.metadata, sort_keys=True, separators=(",", ":")).encode()
    got = tuple(hashlib.sha256(b).hexdigest()
                for b in (problem.input.tobytes(), problem.answer.tobytes(), meta))
    assert got == PINNED[cell], "compositional bytes changed: bump the version (generator-rules)"


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="has no mode 'steps4'; allowed: steps2, steps3"):
        generate("multi_edit", 0, "baseline", "steps4", source="compositional")
    with pytest.raises(ValueError, match="unknown compositional kind 'chain'"):
        generate("chain", 0, "baseline", "steps2", source="compositional")
    with pytest.raises(ValueError, match="has no 'answer_scene'"):
        answer_pixels({"turn": 1})
