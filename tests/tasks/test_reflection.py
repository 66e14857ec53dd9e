"""Reflection: the answer is the input target mirrored across the stated line, re-derived
from the instruction's words (bounding-box axes from the outline's vertices, named points
from the scene) with a plain NumPy mirror."""

import re

import numpy as np
import pytest
from geometric_checks import (
    box_point,
    check_answer_scene,
    check_control_points,
    check_target_mask,
    mirror,
    outline_box,
    resolve_point,
    scenes,
)

from paintkit.edits.geometric import affine_edit_problem, reflection_across
from paintkit.errors import RejectedSeed
from paintkit.scene import Background, BBox, Canvas, Scene, Shape
from paintkit.shapes import shape_area
from paintkit.sources import generate
from paintkit.tasks import task_module
from paintkit.tasks.base import geometric_min_edit, start
from paintkit.tasks.reflection import SPEC

SENTENCE = re.compile(r"Reflect (the .+?) across (.+?)\. ")
DIAGONAL = ("the diagonal of its bounding box from the {} to the {} (the straight line through "
            "those two corners)")
# The instruction's words for each bounding-box axis -> two box points on it.
LOCAL_AXES = {
    "the top edge of its bounding box": ("top-left corner", "top-right corner"),
    "the bottom edge of its bounding box": ("bottom-left corner", "bottom-right corner"),
    "the left edge of its bounding box": ("top-left corner", "bottom-left corner"),
    "the right edge of its bounding box": ("top-right corner", "bottom-right corner"),
    "the vertical center line of its bounding box": ("top edge midpoint", "bottom edge midpoint"),
    "the horizontal center line of its bounding box": ("left edge midpoint", "right edge midpoint"),
    DIAGONAL.format("top-left corner", "bottom-right corner"): ("top-left corner", "bottom-right corner"),
    DIAGONAL.format("top-right corner", "bottom-left corner"): ("top-right corner", "bottom-left corner"),
}


def _axis(p):
    m = SENTENCE.match(p.instruction)
    assert m, p.instruction
    scene, _, target, _ = scenes(p)
    if m[2] in LOCAL_AXES:
        box = outline_box(target)
        return tuple(box_point(box, name) for name in LOCAL_AXES[m[2]]), True
    line = re.fullmatch(r"the straight line through (.+) and (.+)", m[2])
    assert line, m[2]
    return (resolve_point(line[1], scene, target), resolve_point(line[2], scene, target)), False


def test_the_test_mirror_flips_across_the_line():
    pts = np.array([[1.0, 0.0], [3.0, 5.0]])
    assert np.allclose(mirror(pts, (0, 0), (0, 1)), [[-1.0, 0.0], [-3.0, 5.0]])
    assert np.allclose(mirror(pts, (0, 0), (1, 1)), [[0.0, 1.0], [5.0, 3.0]])


@pytest.mark.parametrize("mode", ["local", "external"])
@pytest.mark.parametrize("condition", ["baseline", "horizontal", "striped", "n_high"])
@pytest.mark.parametrize("slot", [0, 1])
def test_answer_is_the_stated_mirror_image(mode, condition, slot):
    p = generate("reflection", slot, condition, mode)
    check_answer_scene(p, "Reflect")
    (a, b), local = _axis(p)
    assert local == (mode == "local")
    assert np.hypot(b[0] - a[0], b[1] - a[1]) > 1
    assert np.allclose(p.metadata["params"]["axis_points"], [a, b], atol=1e-9)
    if "canvas point" in p.instruction:
        assert "Coordinates are (x, y) in pixels from the top-left corner" in p.instruction

    def mapping(pts):
        return mirror(pts, a, b)

    check_control_points(p, mapping)
    check_target_mask(p, mapping)
    _, _, target, _ = scenes(p)
    assert p.metadata["edit_pixels"] >= geometric_min_edit(shape_area(target))


def test_local_mode_uses_all_eight_axes():
    seen = set()
    for seed in range(60):
        try:
            p = task_module("reflection").generate(seed, "baseline", "local")
        except RejectedSeed:
            continue
        seen.add(SENTENCE.match(p.instruction)[2])
    assert seen == set(LOCAL_AXES)


def _upright(shape_type, w, h):
    return Shape("s0", shape_type, BBox(300, 300, w, h), (255, 0, 0))


@pytest.mark.parametrize(("shape", "axis"), [
    (_upright("star", 200 * 1.0514622242382672, 200), "vertical center line"),
    (_upright("triangle", 200, 200), "vertical center line"),
    (_upright("rectangle", 300, 120), "horizontal center line"),
    (_upright("circle", 200, 200), "main diagonal"),
])
def test_reflections_across_a_symmetry_axis_are_rejected(shape, axis):
    ctx = start(SPEC, 0, "baseline", "local")
    scene = Scene(Canvas(1024, 1024), Background((255, 255, 255)), (shape,))
    b = shape.bbox
    p, q = {"vertical center line": ((b.center[0], b.y), (b.center[0], b.bottom)),
            "horizontal center line": ((b.x, b.center[1]), (b.right, b.center[1])),
            "main diagonal": ((b.x, b.y), (b.right, b.bottom))}[axis]
    with pytest.raises(RejectedSeed, match="edit region"):
        affine_edit_problem(ctx, scene, shape, reflection_across(p, q), "Reflect.", {})
    # The same shape mirrored across its top edge moves, and is kept.
    problem = affine_edit_problem(ctx, scene, shape, reflection_across((b.x, b.y), (b.right, b.y)),
                                  "Reflect.", {})
    assert problem.metadata["edit_pixels"] >= geometric_min_edit(shape_area(shape))
