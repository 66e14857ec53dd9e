"""The task contract, checked on every available (task, mode, condition)."""

import hashlib
import json
import multiprocessing
import re

import numpy as np
import pytest

from paintkit.colors import rgb_to_hex
from paintkit.conditions import CONDITIONS, get_condition
from paintkit.errors import RejectedSeed
from paintkit.kernels.pixels import distinct_colors
from paintkit.scene import Scene
from paintkit.sources import generate
from paintkit.tasks import CATEGORIES, TASKS, task_module, task_spec

REQUIRED = ("instruction", "task", "mode", "visual_condition", "category", "seed", "W", "H",
            "bg_colors", "targets", "params", "scene")


def test_problem_follows_the_contract(task, mode, condition):
    p = generate(task, 0, condition, mode)
    cond = get_condition(condition)
    assert p.input.dtype == np.uint8 and p.input.shape == (cond.height, cond.width, 3)
    assert p.answer.dtype == np.uint8 and p.answer.shape == p.input.shape
    assert p.edit_mask.any(), "answer must differ from input"
    meta = p.metadata
    for key in REQUIRED:
        assert key in meta, key
    assert (meta["task"], meta["mode"], meta["visual_condition"]) == (task, mode, condition)
    assert meta["category"] in CATEGORIES and meta["instruction"] == p.instruction
    assert len(p.instruction) > 20
    scene = Scene.from_dict(meta["scene"])
    assert meta["bg_colors"] == [rgb_to_hex(c) for c in scene.background.colors]
    json.dumps(meta)  # JSON-serialisable
    # Exact rendering: a re-rendered scene paints only the colors it names.
    assert distinct_colors(p.input) <= set(scene.colors), "input has colors its scene does not name"
    if "answer_scene" in meta:
        answer_scene = Scene.from_dict(meta["answer_scene"])
        assert distinct_colors(p.answer) <= set(answer_scene.colors), \
            "answer has colors its scene does not name"


def _digest(args):
    task, mode, condition, slot = args
    p = generate(task, slot, condition, mode)
    h = hashlib.sha256()
    for part in (p.input.tobytes(), p.answer.tobytes(), p.instruction.encode(),
                 json.dumps(p.metadata, sort_keys=True).encode()):
        h.update(part)
    return h.hexdigest()


@pytest.fixture(scope="module")
def spawn_pool():
    """One pool of fresh interpreters for every determinism check (start-up is paid once)."""
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        yield pool


def test_bytes_are_identical_across_processes(task, mode, spawn_pool):
    jobs = [(task, mode, c, 1) for c in ("baseline", "striped", "n_high")]
    here = [_digest(j) for j in jobs]
    there = spawn_pool.map(_digest, jobs)
    assert here == there


def test_unknown_names_list_allowed_values():
    with pytest.raises(ValueError, match="allowed: translation"):
        task_module("teleport").generate(0)
    spec = task_spec("translation")
    with pytest.raises(ValueError, match="allowed: amount, align"):
        task_module("translation").generate(0, "baseline", "sideways")
    with pytest.raises(ValueError, match="allowed: baseline"):
        task_module("translation").generate(0, "foggy", "amount")
    with pytest.raises(ValueError, match="non-negative"):
        task_module("translation").generate(-1)
    assert spec.name == "translation" and len(TASKS) == 20 and len(CONDITIONS) == 8


TRANSLATION_REASONS = (
    r"the edited shape would mostly leave the canvas", r"displacement under one pixel",
    r"edit region has \d+ px \(< \d+\)", r"the unchanged input would score mIoU .*",
)


def test_rejections_are_specific():
    """A rejected seed says which problem and why, in the words of one known reason."""
    messages = {}
    for seed in range(40):
        try:
            task_module("translation").generate(seed, "n_xhigh", "align")
        except RejectedSeed as exc:
            messages[seed] = str(exc)
    assert 0 < len(messages) < 40  # some rejected (so messages were read), most accepted
    reason = "|".join(TRANSLATION_REASONS)
    for seed, message in messages.items():
        assert re.fullmatch(rf"translation/align/n_xhigh seed {seed}: ({reason})", message), message
