"""Shearing: the answer is the input target sheared as stated; the fixed edge (or center
line) of its bounding box stays put and the far edge moves by the stated percentage of the
perpendicular bounding-box side, in the stated direction."""

import re

import numpy as np
import pytest
from geometric_checks import (
    check_answer_scene,
    check_control_points,
    check_target_mask,
    outline_box,
    scenes,
)

from paintkit.errors import RejectedSeed
from paintkit.shapes import shape_area, shape_outline
from paintkit.sources import generate
from paintkit.tasks import task_module
from paintkit.tasks.base import geometric_min_edit

SENTENCE = re.compile(r"Shear (the .+?) (horizontally|vertically), keeping the (.+?) of its bounding "
                      r"box fixed: (.+?)\. It goes")
EDGE_BODY = re.compile(r"every point moves (right|left|down|up) by (\d+)% of its distance (below|above|"
                       r"to the right of|to the left of) that edge, so the (.+?) of its bounding box "
                       r"shifts \1 by \2% of the bounding-box (height|width)")
CENTER_BODY = re.compile(r"every point (below|above|to the right of|to the left of) that line moves "
                         r"(right|left|down|up), and every point (below|above|to the right of|to the "
                         r"left of) it moves (right|left|down|up), by (\d+)% of its distance from the "
                         r"line, so the (.+?) of its bounding box shifts \2 and the (.+?) shifts \4, "
                         r"each by ([\d.]+)% of the bounding-box (height|width)")
# Horizontal shears fix a horizontal line (y = fraction of the box height), vertical ones a
# vertical line; each side of the line and the edge lying on it.
FIXED = {"horizontal": {"top edge": 0.0, "bottom edge": 1.0, "horizontal center line": 0.5},
         "vertical": {"left edge": 0.0, "right edge": 1.0, "vertical center line": 0.5}}
SIDE_SIGN = {"below": 1, "above": -1, "to the right of": 1, "to the left of": -1}
DIRECTION_SIGN = {"right": 1, "left": -1, "down": 1, "up": -1}
FAR_EDGE = {"below": "bottom edge", "above": "top edge", "to the right of": "right edge",
            "to the left of": "left edge"}


def _stated(p):
    """(axis, fixed coordinate, signed factor) read from the instruction and the input box."""
    m = SENTENCE.match(p.instruction)
    assert m, p.instruction
    axis = "horizontal" if m[2] == "horizontally" else "vertical"
    _, _, target, _ = scenes(p)
    x0, y0, x1, y1 = outline_box(target)
    lo, hi = (y0, y1) if axis == "horizontal" else (x0, x1)
    fixed_at = lo + FIXED[axis][m[3]] * (hi - lo)
    side_words = ("below", "above") if axis == "horizontal" else ("to the right of", "to the left of")
    directions = ("right", "left") if axis == "horizontal" else ("down", "up")
    perpendicular = "height" if axis == "horizontal" else "width"
    if "center line" in m[3]:
        b = CENTER_BODY.fullmatch(m[4])
        assert b, m[4]
        side, direction, other_side, back, pct = b[1], b[2], b[3], b[4], int(b[5])
        assert {side, other_side} == set(side_words) and {direction, back} == set(directions)
        assert b[6] == FAR_EDGE[side] and b[7] == FAR_EDGE[other_side]
        assert float(b[8]) == pct / 2 and b[9] == perpendicular
    else:
        b = EDGE_BODY.fullmatch(m[4])
        assert b, m[4]
        direction, pct, side = b[1], int(b[2]), b[3]
        assert side in side_words and direction in directions
        # the moving side is the one away from the fixed edge, and its far edge is named
        assert (side in ("below", "to the right of")) == (FIXED[axis][m[3]] == 0.0)
        assert b[4] == FAR_EDGE[side] and b[5] == perpendicular
    assert 20 <= pct <= 80
    factor = SIDE_SIGN[side] * DIRECTION_SIGN[direction] * pct / 100
    return axis, fixed_at, factor


def _shear(axis, fixed_at, factor):
    def mapping(pts):
        out = pts.copy()
        if axis == "horizontal":
            out[:, 0] += factor * (pts[:, 1] - fixed_at)
        else:
            out[:, 1] += factor * (pts[:, 0] - fixed_at)
        return out
    return mapping


def _on_line(shape, axis, coordinate):
    """Along-line coordinates of the outline vertices lying on the box edge ``coordinate``."""
    pts = np.concatenate(shape_outline(shape))
    k = 1 if axis == "horizontal" else 0
    return pts[np.abs(pts[:, k] - coordinate) < 1e-7, 1 - k]


@pytest.mark.parametrize("condition", ["baseline", "horizontal", "vertical", "striped", "nonstandard",
                                       "n_med", "n_high", "n_xhigh"])
@pytest.mark.parametrize("slot", [0, 1, 2])
def test_answer_is_the_stated_shear(condition, slot):
    p = generate("shearing", slot, condition, "default")
    check_answer_scene(p, "Shear")
    axis, fixed_at, factor = _stated(p)
    params = p.metadata["params"]
    assert (params["axis"], params["factor"]) == (axis, factor)
    assert abs(params["fixed_at"] - fixed_at) < 1e-9
    mapping = _shear(axis, fixed_at, factor)
    _, _, target, edited = scenes(p)
    # The box keeps its extent across the shear; each edge line moves by factor * distance.
    x0, y0, x1, y1 = outline_box(target)
    ex0, ey0, ex1, ey1 = outline_box(edited)
    lo, hi = (y0, y1) if axis == "horizontal" else (x0, x1)
    if axis == "horizontal":
        assert abs(ey0 - y0) < 0.01 and abs(ey1 - y1) < 0.01
    else:
        assert abs(ex0 - x0) < 0.01 and abs(ex1 - x1) < 0.01
    for edge in (lo, hi):
        before, after = _on_line(target, axis, edge), _on_line(edited, axis, edge)
        if len(before) and len(after):
            shift = factor * (edge - fixed_at)  # 0 on the fixed edge
            assert abs(after.min() - (before.min() + shift)) < 0.01
            assert abs(after.max() - (before.max() + shift)) < 0.01
    check_control_points(p, mapping)
    check_target_mask(p, mapping)
    assert p.metadata["edit_pixels"] >= geometric_min_edit(shape_area(target))


def test_every_fixed_line_and_direction_occurs():
    seen = set()
    for seed in range(80):
        try:
            p = task_module("shearing").generate(seed, "baseline")
        except RejectedSeed:
            continue
        m = SENTENCE.match(p.instruction)
        seen.add((m[3], p.metadata["params"]["direction"]))
    assert len(seen) == 12
