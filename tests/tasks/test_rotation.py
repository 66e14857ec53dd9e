"""Rotation: the answer is the input target rotated by the stated angle about the stated
pivot, re-derived from the instruction's words with plain NumPy trigonometry."""

import re
from collections import Counter

import numpy as np
import pytest
from geometric_checks import (
    check_answer_scene,
    check_control_points,
    check_target_mask,
    resolve_point,
    rotate,
    scenes,
)

from paintkit.edits.geometric import affine_edit_problem, rotation_about
from paintkit.errors import RejectedSeed
from paintkit.scene import IDENTITY, Background, BBox, Canvas, Scene, Shape
from paintkit.shapes import ORIENTATION_FREE_POINTS, shape_area
from paintkit.sources import generate
from paintkit.tasks import task_module
from paintkit.tasks.base import geometric_min_edit, start
from paintkit.tasks.rotation import FIFTEENS, OTHER_ANGLES, RIGHT_ANGLES, SPEC

SENTENCE = re.compile(r"Rotate (the .+?) (\d+) degrees (clockwise|counter-clockwise) about (.+?)\. ")


def _parse(p):
    m = SENTENCE.match(p.instruction)
    assert m, p.instruction
    scene, _, target, _ = scenes(p)
    pivot = resolve_point(m[4], scene, target)
    return int(m[2]), m[3] == "clockwise", pivot, m[4]


def test_the_test_rotation_turns_clockwise_on_screen():
    # +x (right) turned 90 degrees clockwise on a y-down screen points down (+y).
    assert np.allclose(rotate(np.array([[1.0, 0.0]]), (0, 0), 90, True), [[0.0, 1.0]])
    assert np.allclose(rotate(np.array([[1.0, 0.0]]), (0, 0), 90, False), [[0.0, -1.0]])


@pytest.mark.parametrize("mode", ["local", "external"])
@pytest.mark.parametrize("condition", ["baseline", "vertical", "striped", "n_high"])
@pytest.mark.parametrize("slot", [0, 1])
def test_answer_is_the_stated_rotation(mode, condition, slot):
    p = generate("rotation", slot, condition, mode)
    check_answer_scene(p, "Rotate")
    angle, clockwise, pivot, pivot_text = _parse(p)
    params = p.metadata["params"]
    assert params["angle"] == angle and params["direction"] == ("clockwise" if clockwise
                                                                 else "counter-clockwise")
    assert np.allclose(params["pivot"], pivot, atol=1e-9)
    scene, _, target, _ = scenes(p)
    if mode == "local":
        assert pivot_text.startswith("its ") or pivot_text.endswith(" of its bounding box")
        if pivot_text.startswith("its ") and (target.rotation % 360 or target.transform != IDENTITY):
            assert pivot_text[4:] in ORIENTATION_FREE_POINTS[target.type]
    else:
        assert "its " not in pivot_text
    if "canvas point" in pivot_text:
        assert "Coordinates are (x, y) in pixels from the top-left corner" in p.instruction

    def mapping(pts):
        return rotate(pts, pivot, angle, clockwise)

    check_control_points(p, mapping)
    check_target_mask(p, mapping)
    assert p.metadata["edit_pixels"] >= geometric_min_edit(shape_area(target))


def test_angles_come_from_three_classes_and_both_directions():
    classes, directions = Counter(), Counter()
    for seed in range(60):
        try:
            p = task_module("rotation").generate(seed, "baseline", "local")
        except RejectedSeed:
            continue
        angle, clockwise, _, _ = _parse(p)
        assert 1 <= angle <= 359
        classes["right" if angle in RIGHT_ANGLES else "fifteen" if angle in FIFTEENS else "other"] += 1
        directions[clockwise] += 1
    assert set(classes) == {"right", "fifteen", "other"} and min(classes.values()) >= 8
    assert set(directions) == {True, False}
    assert set(OTHER_ANGLES).isdisjoint(FIFTEENS) and not any(a % 15 for a in FIFTEENS)


def _ctx_scene():
    ctx = start(SPEC, 0, "baseline", "local")
    circle = Shape("s0", "circle", BBox(100, 100, 200, 200), (255, 0, 0))
    hexagon = Shape("s1", "hexagon", BBox(500, 500, 200 * 0.8660254037844386, 200), (0, 0, 255))
    return ctx, Scene(Canvas(1024, 1024), Background((255, 255, 255)), (circle, hexagon))


@pytest.mark.parametrize(("index", "degrees"), [(0, 37), (1, 60), (1, -120), (1, 180)])
def test_symmetries_of_the_shape_are_rejected(index, degrees):
    ctx, scene = _ctx_scene()
    shape = scene.shapes[index]
    with pytest.raises(RejectedSeed, match="edit region"):
        affine_edit_problem(ctx, scene, shape, rotation_about(shape.bbox.center, degrees), "Rotate.", {})


def test_a_real_rotation_of_a_hexagon_is_kept():
    ctx, scene = _ctx_scene()
    hexagon = scene.shapes[1]
    p = affine_edit_problem(ctx, scene, hexagon, rotation_about(hexagon.bbox.center, 30), "Rotate.", {})
    assert p.metadata["edit_pixels"] >= geometric_min_edit(shape_area(hexagon))
