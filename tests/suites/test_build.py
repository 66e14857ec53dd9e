"""Building problems: benchmark bytes (against the pinned table), variants, preservation."""

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from paintkit.conditions import get_condition
from paintkit.suites import Suite, build_problem, parse_counts, parse_size, variant_condition
from paintkit.suites.variants import VariantCondition, condition_key
from paintkit.tasks import task_module, task_spec
from paintkit.tasks.base import start
from paintkit.tasks.translation import SPEC as TRANSLATION

# Written by tests/tasks/pinned.py from slot-0 problems; an independent record of the bytes.
PINNED = json.loads((Path(__file__).parents[1] / "tasks" / "pinned_hashes.json").read_text())["problems"]


def _digest(problem) -> str:
    return hashlib.sha256(problem.input.tobytes() + problem.answer.tobytes()).hexdigest()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("task", ["translation", "flood_fill"])
def test_benchmark_problems_have_the_pinned_bytes_and_ids(task):
    """Slot-0 problems of a PaintBench suite are the pinned ones, stamped with their id."""
    modes = task_spec(task).modes
    suite = Suite(tasks=(task,), per_cell=len(modes), conditions=("baseline", "vertical"))
    for spec in suite.specs():
        assert spec.slot == 0
        built = build_problem(suite, spec)
        pinned = PINNED[f"{task}/{spec.mode}/{spec.condition}/0"]
        assert _sha(built.input.tobytes()) == pinned["input"]
        assert _sha(built.answer.tobytes()) == pinned["answer"]
        meta = dict(built.metadata)
        assert (meta.pop("problem_id"), meta.pop("idx")) == (spec.problem_id, spec.idx)
        assert _sha(json.dumps(meta, sort_keys=True, separators=(",", ":")).encode()) == \
            pinned["metadata"]
        assert list(built.metadata)[:2] == ["problem_id", "idx"]


def test_namespace_gives_other_problems():
    a = Suite(tasks=("translation",), per_cell=1, conditions=("baseline",))
    b = Suite(tasks=("translation",), per_cell=1, conditions=("baseline",), namespace="fresh")
    assert _digest(next(a.problems())) != _digest(next(b.problems()))


def test_start_accepts_a_condition_object():
    ctx = start(TRANSLATION, 3, variant_condition("vertical", (512, 512)), None)
    assert (ctx.condition.width, ctx.condition.height) == (288, 512)
    assert start(TRANSLATION, 3, "vertical", None).condition == get_condition("vertical")


def test_size_variant_canvas_and_seed_key():
    suite = Suite(tasks=("translation",), per_cell=1, size=(512, 512),
                  conditions=("baseline", "horizontal", "vertical"))
    shapes = [p.input.shape for p in suite.problems()]
    assert shapes == [(512, 512, 3), (288, 512, 3), (512, 288, 3)]
    assert [s.seed_condition for s in suite.specs()] == \
        ["baseline@512x512", "horizontal@512x288", "vertical@288x512"]
    problem = next(suite.problems())
    assert (problem.metadata["W"], problem.metadata["H"]) == (512, 512)
    assert problem.metadata["condition_key"] == "baseline@512x512"


def test_count_variant_sets_the_number_of_shapes():
    suite = Suite(tasks=("translation",), per_cell=1, conditions=("baseline", "n_med"),
                  counts=parse_counts(["4,6,8,9"]))
    counts = [len(p.metadata["scene"]["elements"]) for p in suite.problems()]
    assert counts == [4, 6]
    # A variant that changes nothing this task depends on keeps the benchmark's problems.
    same = Suite(tasks=("translation",), per_cell=1, conditions=("baseline",),
                 counts={"counting": (6, 12, 30, 70)})
    plain = Suite(tasks=("translation",), per_cell=1, conditions=("baseline",))
    assert same.spec(0).seed_condition == "baseline"
    assert _digest(next(same.problems())) == _digest(next(plain.problems()))


def test_variant_parsing():
    assert parse_size("640x480") == (640, 480)
    assert parse_counts(["5"]) == {"default": (5, 5, 5, 5)}
    assert parse_counts(["counting=6,12,30,70"]) == {"counting": (6, 12, 30, 70)}
    for bad in ("640", "10x10", "axb"):
        with pytest.raises(ValueError, match="size"):
            parse_size(bad)
    with pytest.raises(ValueError, match="unknown count table 'nope'; allowed: default"):
        parse_counts(["nope=1,2,3,4"])
    with pytest.raises(ValueError, match="B,M,H,X"):
        parse_counts(["1,2"])
    cond = variant_condition("n_high", counts={"default": (1, 2, 3, 4)})
    assert isinstance(cond, VariantCondition) and cond.object_count() == 3
    assert cond.object_count("counting") == get_condition("n_high").object_count("counting")
    assert condition_key(cond) == "n_high@n3" and condition_key(cond, "counting") == "n_high"
    assert variant_condition("striped") == get_condition("striped")


def test_preservation_problem_is_the_removal_answer_unchanged():
    suite = Suite(tasks=("removal",), per_cell=2, conditions=("baseline", "striped"))
    for k in range(suite.block):
        removal_spec, pres_spec = suite.spec(k), suite.spec(suite.block + k)
        removal = build_problem(suite, removal_spec)
        pres = build_problem(suite, pres_spec)
        assert np.array_equal(pres.input, removal.answer) and np.array_equal(pres.answer, removal.answer)
        assert not pres.edit_mask.any()
        assert pres.instruction == removal.instruction
        meta = pres.metadata
        assert (meta["task"], meta["category"], meta["mode"], meta["scored"]) == \
            ("preservation", "preservation", "default", False)
        assert meta["source_task"] == "removal" and meta["source_mode"] == removal.metadata["mode"]
        assert meta["source_problem_id"] == removal.metadata["problem_id"]
        assert meta["edit_pixels"] == 0 and meta["targets"] == []
        if "answer_scene" in removal.metadata:
            assert meta["scene"] == removal.metadata["answer_scene"]
        assert meta["problem_id"].startswith("paintbench-preservation-")


def test_generate_api_unchanged_for_names():
    problem = task_module("translation").generate(5, "baseline", "amount")
    assert problem.input.shape == (1024, 1024, 3)
