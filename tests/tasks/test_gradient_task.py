"""Gradient, re-derived in exact integer arithmetic from the stated points and colors:
t = clamp(((x - x0)(x1 - x0) + (y - y0)(y1 - y0)) / |P1 - P0|^2, 0, 1) at pixel centers,
channel = round(c0 + t (c1 - c0)) with halves up, on the background (or shape) pixels inside
the parallelogram outline; the stated geometry (sides or corners) holds."""

import numpy as np
import pytest
from color_region_oracle import assert_only_region_changed, scoped_region

from paintkit.colors import rgb_to_hex
from paintkit.sources import generate

CASES = [(mode, cond, slot) for mode in ("background", "foreground")
         for cond in ("baseline", "horizontal", "striped", "n_high") for slot in range(2)]


def exact_gradient(region, p0, p1, c0, c1):
    """uint8 (N, 3) colors of the region's pixels (row-major), in integers: with
    N2 = 2 * ((x - x0) dx + (y - y0) dy) and D2 = 2 * (dx^2 + dy^2), t = clamp(N2, 0, D2) / D2
    and round-half-up(c0 + t (c1 - c0)) = floor((2 (c0 D2 + Nc (c1 - c0)) + D2) / (2 D2))."""
    rows, cols = np.nonzero(region)
    (x0, y0), (x1, y1) = p0, p1
    dx, dy = x1 - x0, y1 - y0
    n2 = (2 * cols + 1 - 2 * x0) * dx + (2 * rows + 1 - 2 * y0) * dy
    d2 = 2 * (dx * dx + dy * dy)
    nc = np.clip(n2, 0, d2).astype(np.int64)[:, None]
    a, b = np.array(c0, np.int64), np.array(c1, np.int64)
    return ((2 * (a * d2 + nc * (b - a)) + d2) // (2 * d2)).astype(np.uint8)


@pytest.mark.parametrize(("mode", "condition", "slot"), CASES)
def test_answer_is_the_stated_gradient(mode, condition, slot):
    p = generate("gradient", slot, condition, mode)
    params = p.metadata["params"]
    assert params["scope"] == {"background": "background", "foreground": "shapes"}[mode]
    region = scoped_region(p)
    expected = p.input.copy()
    expected[region] = exact_gradient(region, params["p0"], params["p1"], params["c0"], params["c1"])
    assert np.array_equal(p.answer, expected)
    assert_only_region_changed(p, region)
    (x0, y0), (x1, y1) = params["p0"], params["p1"]
    for text in (f"({x0}, {y0})", f"({x1}, {y1})", rgb_to_hex(params["c0"]), rgb_to_hex(params["c1"]),
                 str((x1 - x0) ** 2 + (y1 - y0) ** 2), params["outline_color"]):
        assert text in p.instruction


def _cross(u, v):
    return u[0] * v[1] - u[1] * v[0]


@pytest.mark.parametrize("mode", ["background", "foreground"])
def test_points_sit_where_the_instruction_says(mode):
    seen = set()
    for slot in range(8):
        p = generate("gradient", slot, "baseline", mode)
        params = p.metadata["params"]
        corners = np.array(params["outline_points"], float)
        assert len(corners) == 4
        assert np.allclose(corners[0] + corners[2], corners[1] + corners[3])  # a parallelogram
        p0, p1 = np.array(params["p0"], float), np.array(params["p1"], float)
        axis = p1 - p0
        seen.add(params["direction"])
        if params["direction"] == "corner_to_corner":
            i = [k for k in range(4) if np.allclose(corners[k], p0)]
            assert i and np.allclose(corners[(i[0] + 2) % 4], p1), "P0, P1 are opposite corners"
            assert "opposite corner" in p.instruction
        else:
            # P0 and P1 each lie on a side; both sides are perpendicular to the axis.
            sides = [(corners[k], corners[(k + 1) % 4]) for k in range(4)]
            for point in (p0, p1):
                on = [s for s in sides if abs(_cross(s[1] - s[0], point - s[0])) /
                      np.linalg.norm(s[1] - s[0]) < 1e-6]
                assert len(on) == 1
                edge = on[0][1] - on[0][0]
                assert abs(np.dot(edge, axis)) < 1e-6 * np.linalg.norm(edge) * np.linalg.norm(axis)
            assert "opposite side" in p.instruction
    assert seen == {"side_to_side", "corner_to_corner"}
