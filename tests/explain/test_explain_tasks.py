"""Explanations of real generated problems: perfect answers are all correct, doing nothing
is explained by the task's edit, and the result is deterministic."""

from __future__ import annotations

import json

import pytest

from paintkit.explainer import explain
from paintkit.sources import generate
from paintkit.tasks import TASKS, task_spec

# Tasks whose answer is computed in pixel space: their metadata stores no answer scene.
PIXEL_SPACE = {"border", "cropping", "flood_fill", "blending", "gradient", "point_operations"}


def _check(task, mode, condition="baseline"):
    problem = generate(task, 0, condition, mode)
    args = (problem.answer, problem.input, problem.metadata)
    perfect = explain(problem.answer, *args)
    expected = "input_scene" if task in PIXEL_SPACE else "full"
    assert perfect["explained"] == expected, perfect["notes"]
    assert perfect["error_pixels"] == 0
    assert set(perfect["tags"]) <= {"correct", "unexplained"}
    lazy = explain(problem.input, *args)
    assert lazy["error_pixels"] > 0
    if expected == "full":
        assert set(lazy["tags"]) - {"correct"}, lazy["tags"]  # something is blamed
    again = explain(problem.input, *args)
    assert json.dumps(again, sort_keys=True) == json.dumps(lazy, sort_keys=True)
    return problem, lazy


def test_translation_left_undone_is_misplaced_by_minus_the_move():
    problem, lazy = _check("translation", "amount", "n_med")
    target = problem.metadata["targets"][0]
    entry = next(o for o in lazy["objects"] if o["id"] == target)
    assert entry["tag"] == "misplaced" and entry["left_in_place"] is True
    params = problem.metadata["params"]
    assert abs(entry["offset"][0] + params["dx"]) <= 1 and abs(entry["offset"][1] + params["dy"]) <= 1


def test_recolor_left_undone_is_wrong_colour():
    problem, lazy = _check("recolor", "color_code")
    for target in problem.metadata["targets"]:
        assert next(o for o in lazy["objects"] if o["id"] == target)["tag"] == "wrong_colour"


@pytest.mark.slow
@pytest.mark.parametrize("task", TASKS)
def test_every_task_mode_is_explained(task):
    for mode in task_spec(task).modes:
        _check(task, mode)
