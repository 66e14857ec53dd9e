"""Scaling: the answer is the input target scaled by the stated factor(s) about the stated
fixed point or line of its bounding box; its new bounding box is the old one scaled about
that point, and in ``match`` mode its matched side equals the reference's."""

import math
import random
import re

import numpy as np
import pytest
from geometric_checks import (
    check_answer_scene,
    check_control_points,
    check_target_mask,
    outline_box,
    resolve_point,
    scale,
    scenes,
    the_shape,
)

from paintkit.shapes import shape_area
from paintkit.sources import generate
from paintkit.tasks.base import geometric_min_edit
from paintkit.tasks.scaling import sample_percent

AMOUNT_UNIFORM = re.compile(r"Scale (the .+?) uniformly to (\d+)% of its current size \(width and "
                            r"height alike\), keeping (.+?) fixed\. ")
AMOUNT_AXIS = re.compile(r"Scale (the .+?) (horizontally|vertically) to (\d+)% of its current "
                         r"bounding-box (width|height) \(its (height|width) unchanged\), keeping (.+?) "
                         r"fixed\. ")
MATCH_UNIFORM = re.compile(r"Scale (the .+?) uniformly \(keeping its aspect ratio\) so that the "
                           r"(width|height) of its bounding box equals the \2 of (the .+?)'s bounding "
                           r"box, keeping (.+?) fixed\. ")
MATCH_AXIS = re.compile(r"Scale (the .+?) along one axis so that the (width|height) of its bounding "
                        r"box equals the \2 of (the .+?)'s bounding box \(its (width|height) "
                        r"unchanged\), keeping (.+?) fixed\. ")
# Fixed lines of one-axis scalings: which coordinate they fix, at what fraction of the box.
LINES = {"left edge": (0, 0.0), "right edge": (0, 1.0), "vertical center line": (0, 0.5),
         "top edge": (1, 0.0), "bottom edge": (1, 1.0), "horizontal center line": (1, 0.5)}


def _side(box, dimension):
    return box[2] - box[0] if dimension == "width" else box[3] - box[1]


def _stated(p):
    """(sx, sy, pivot, matched) from the instruction and the input scene alone."""
    scene, _, target, _ = scenes(p)
    box = outline_box(target)
    if m := AMOUNT_UNIFORM.match(p.instruction):
        f = int(m[2]) / 100
        return f, f, resolve_point(m[3], scene, target), None
    if m := AMOUNT_AXIS.match(p.instruction):
        assert (m[2] == "horizontally") == (m[4] == "width") and m[4] != m[5]
        f = int(m[3]) / 100
        sx, sy = (f, 1.0) if m[4] == "width" else (1.0, f)
        return sx, sy, _line_pivot(m[6], box, 0 if m[4] == "width" else 1), None
    if m := MATCH_UNIFORM.match(p.instruction):
        ref = the_shape(m[3], scene)
        f = _side(outline_box(ref), m[2]) / _side(box, m[2])
        return f, f, resolve_point(m[4], scene, target), (ref, m[2])
    m = MATCH_AXIS.match(p.instruction)
    assert m, p.instruction
    assert m[2] != m[4]
    ref = the_shape(m[3], scene)
    f = _side(outline_box(ref), m[2]) / _side(box, m[2])
    sx, sy = (f, 1.0) if m[2] == "width" else (1.0, f)
    return sx, sy, _line_pivot(m[5], box, 0 if m[2] == "width" else 1), (ref, m[2])


def _line_pivot(text, box, axis):
    line = re.fullmatch(r"the (.+) of its bounding box", text)[1]
    k, frac = LINES[line]
    assert k == axis, f"a one-axis scaling fixes a line across that axis, got {line!r}"
    x = box[0] + frac * (box[2] - box[0])
    y = box[1] + frac * (box[3] - box[1])
    return (x, (box[1] + box[3]) / 2) if axis == 0 else ((box[0] + box[2]) / 2, y)


@pytest.mark.parametrize("mode", ["amount", "match"])
@pytest.mark.parametrize("condition", ["baseline", "vertical", "nonstandard", "n_high"])
@pytest.mark.parametrize("slot", [0, 1, 2])
def test_answer_is_the_stated_scaling(mode, condition, slot):
    p = generate("scaling", slot, condition, mode)
    check_answer_scene(p, "Scale")
    sx, sy, pivot, matched = _stated(p)
    assert (matched is not None) == (mode == "match")
    for f in (sx, sy):
        assert 0.4 - 1e-12 <= f <= 2.5 + 1e-12
    assert (sx, sy) != (1.0, 1.0)
    params = p.metadata["params"]
    assert np.allclose([params["sx"], params["sy"]], [sx, sy], rtol=1e-12)
    assert np.allclose(params["pivot"], pivot, atol=1e-9)
    _, answer_scene, target, edited = scenes(p)

    def mapping(pts):
        return scale(pts, pivot, sx, sy)

    # The new bounding box is the old one scaled about the fixed point.
    x0, y0, x1, y1 = outline_box(target)
    expected_box = mapping(np.array([[x0, y0], [x1, y1]])).ravel()
    assert np.allclose(outline_box(edited), expected_box, atol=0.02)
    if matched is not None:
        ref, dimension = matched
        assert abs(_side(outline_box(edited), dimension) - _side(outline_box(ref), dimension)) < 0.02
        assert max(abs(sx - 1), abs(sy - 1)) >= 0.1 - 1e-12
        assert params["reference_shape"] == ref.id and params["dimension"] == dimension
    else:
        assert f"{params['percent']}%" in p.instruction and params["percent"] != 100
    check_control_points(p, mapping, tol=1e-6)
    check_target_mask(p, mapping)
    assert p.metadata["edit_pixels"] >= geometric_min_edit(shape_area(target))


def test_amount_percent_is_log_uniform_and_never_100():
    rng = random.Random(5)
    values = [sample_percent(rng) for _ in range(4000)]
    assert min(values) >= 40 and max(values) <= 250 and 100 not in values
    below = sum(v < 100 for v in values) / len(values)
    # log-uniform on [0.4, 2.5]: P(factor < 1) = ln(2.5) / ln(6.25) = 0.5
    assert abs(below - math.log(2.5) / math.log(6.25)) < 0.03
    assert abs(sum(v > 158 for v in values) / len(values) - 0.25) < 0.03  # 2.5 ** 0.5 = 1.58
