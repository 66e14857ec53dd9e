"""Scene reference problems: each answer re-derived from the metadata by the oracle, each
reference showing what the answer needs, and the contract (an edit, doing nothing and copying
a reference never pay)."""

from __future__ import annotations

import numpy as np
import pytest

from paintkit.conditions import CONDITIONS
from paintkit.references import REFERENCE_TASKS, reference_roles
from paintkit.renderers import render, render_mask
from paintkit.scene import Scene
from paintkit.sources import generate
from tests.references.oracle import expected_answer_scene, miou

ROLES = {"reference_copy": ("object",), "reference_remove": ("object",),
         "reference_move": ("layout",), "reference_recolor": ("palette",),
         "reference_move_recolor": ("layout", "palette")}
EDIT_CATEGORIES = {"reference_copy": "structural_manipulation",
                   "reference_remove": "structural_manipulation",
                   "reference_move": "geometric_transformation",
                   "reference_recolor": "color_change",
                   "reference_move_recolor": "geometric_transformation"}


def check_problem(problem) -> None:
    meta = problem.metadata
    task = meta["task"]
    refs = meta["reference_scenes"]
    # the answer scene is the rule applied to what the references show
    assert meta["answer_scene"] == expected_answer_scene(task, meta["scene"], refs)
    # the pixels are the scenes, rendered
    assert np.array_equal(render(Scene.from_dict(meta["scene"])), problem.input)
    assert np.array_equal(render(Scene.from_dict(meta["answer_scene"])), problem.answer)
    assert meta["references"] == [{"role": r} for r in ROLES[task]]
    assert [r.role for r in problem.references] == list(ROLES[task]) == list(reference_roles(task))
    assert meta["category"] == "reference_guided" and meta["edit_category"] == EDIT_CATEGORIES[task]
    source_bg = set(map(tuple, [meta["scene"]["background"]["color"]] + (
        [meta["scene"]["background"]["stripes"]["color"]]
        if meta["scene"]["background"]["stripes"] else [])))
    for ref, scene_dict in zip(problem.references, refs, strict=True):
        scene = Scene.from_dict(scene_dict)
        assert np.array_equal(render(scene), ref.image)
        # every shape the reference shows is there whole, in its colour, on another background
        assert scene.background.stripes is None
        assert scene.background.color not in source_bg
        for shape in scene.shapes:
            assert shape.fill != scene.background.color
            mask = render_mask(scene, shape.id)
            assert mask.any() and np.all(ref.image[mask] == shape.fill)
    if task == "reference_copy":  # pixels alone: the reference's shape pasted onto the source
        ref = problem.references[0].image
        shape = (ref != np.asarray(refs[0]["background"]["color"], np.uint8)).any(axis=-1)
        pasted = problem.input.copy()
        pasted[shape] = ref[shape]
        assert np.array_equal(pasted, problem.answer)
    if task == "reference_move":  # each moved shape's pixels in the answer are the layout's
        ref = problem.references[0].image
        for shown in Scene.from_dict(refs[0]).shapes:
            mask = render_mask(Scene.from_dict(refs[0]), shown.id)
            assert np.array_equal(problem.answer[mask], ref[mask])
    # the contract, by the oracle's metric: an edit; the source and each reference, returned
    # unchanged, score at most 0.05
    assert (problem.input != problem.answer).any(axis=-1).sum() == meta["edit_pixels"] >= 1
    assert miou(problem.input, problem.answer, problem.input) <= 0.05
    for ref in problem.references:
        assert miou(ref.image, problem.answer, problem.input) <= 0.05
    assert miou(problem.answer, problem.answer, problem.input) == 1.0


@pytest.mark.parametrize("condition", CONDITIONS)
@pytest.mark.parametrize("task", REFERENCE_TASKS)
def test_problem_follows_its_references(task, condition):
    check_problem(generate(task, 0, condition, source="references"))


@pytest.mark.slow
@pytest.mark.parametrize("condition", CONDITIONS)
@pytest.mark.parametrize("task", REFERENCE_TASKS)
def test_problem_follows_its_references_more_slots(task, condition):
    for slot in range(1, 4):
        check_problem(generate(task, slot, condition, source="references"))


def test_instruction_names_each_image_and_no_answer_value():
    for task in REFERENCE_TASKS:
        problem = generate(task, 1, "baseline", source="references")
        text = problem.instruction
        count = {1: "two", 2: "three"}[len(problem.references)]
        assert text.startswith(f"You are given {count} images: the first image is the source")
        assert "#" not in text  # no colour code: the colours are in the references
        assert not any(ch.isdigit() for ch in text)  # no place, size or displacement either
