"""problem_from_key regenerates exactly the problem a suite wrote under that key."""

from __future__ import annotations

import numpy as np
import pytest

from paintkit.suites import build_problem
from paintkit.suites.problem_keys import ProblemKey, ProblemKeyError, problem_from_key
from paintkit.suites.suite import Suite


def _same(suite, indices=None):
    for index in indices if indices is not None else range(len(suite)):
        spec = suite.spec(index)
        made = build_problem(suite, spec)
        again = problem_from_key(spec.problem_id)
        assert again.metadata["problem_id"] == spec.problem_id
        assert np.array_equal(made.input, again.input), spec.problem_id
        assert np.array_equal(made.answer, again.answer), spec.problem_id


def test_paintbench_variants_and_preservation_regenerate_byte_for_byte():
    # other sizes (horizontal keeps its aspect), other counts, and the preservation split
    suite = Suite(tasks=["translation", "counting", "removal"], conditions=["baseline", "horizontal"],
                  per_cell=1, size=(256, 256), counts={"counting": (3, 5, 7, 9)})
    keys = [suite.spec(i).problem_id for i in range(len(suite))]
    assert "paintbench-counting-horizontal@256x144@n3-shape-000000" in keys
    assert "paintbench-preservation-baseline@256x256-attribute-000000" in keys
    _same(suite)


def test_training_namespace_and_plain_condition():
    _same(Suite(tasks=["recolor"], conditions=["vertical"], per_cell=2, namespace="train"))


def test_compositional_and_guidance_keys():
    from paintkit.suites.compositional import CompositionalSuite
    from paintkit.suites.guidance import GuidanceSuite

    _same(CompositionalSuite(conditions=["baseline"], per_cell=1), [0])
    _same(GuidanceSuite(tasks=["rotation"], conditions=["striped"], per_cell=1))


def test_tinygrafix_key():
    from paintkit.tinygrafix.environment import CHART_MATPLOTLIB, installed_matplotlib
    from paintkit.tinygrafix.suite import TinyGrafixSuite

    if installed_matplotlib() != CHART_MATPLOTLIB:
        pytest.skip(f"chart bytes need matplotlib {CHART_MATPLOTLIB}")
    _same(TinyGrafixSuite(tasks=["heatmap_add_cell"], per_cell=1))


@pytest.mark.parametrize("key, words", [
    ("paintbench-translation-baseline-amount", "expected <namespace>-<folder>"),
    ("paintbench-translation-baseline-amount-12", "expected <namespace>-<folder>"),
    ("paintbench-nothing-baseline-amount-000000", "unknown folder 'nothing'"),
    ("paintbench-translation-sepia-amount-000000", "unknown condition 'sepia'"),
    ("paintbench-translation-baseline-sideways-000000", "sideways"),
    ("paintbench-translation-baseline@99999x5-amount-000000", "sides must be ints in"),
    ("compositional-multi_edit_steps2-baseline-steps3-000000", "needs mode steps2"),
])
def test_bad_keys_are_named(key, words):
    with pytest.raises(ProblemKeyError) as info:
        problem_from_key(key)
    assert key in str(info.value) and words in str(info.value)


def test_a_key_asking_for_a_huge_canvas_is_refused_before_drawing():
    with pytest.raises(ProblemKeyError, match="exceeds the limit of 1000000 pixels"):
        problem_from_key("paintbench-translation-baseline@8192x8192-amount-000000",
                         max_pixels=1000 * 1000)


def test_parse_fields():
    key = ProblemKey.parse("train-flood_fill-n_med@512x512@n9-background-000042")
    assert key == ProblemKey("train", "flood_fill", "n_med@512x512@n9", "background", 42)
