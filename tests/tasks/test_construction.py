"""Construction: the new element's pixels, re-derived from the stated positions with plain
NumPy geometry, have the stated color; nothing else changes; the positions resolve to the
named points and the instruction states every number."""

import math

import numpy as np
import pytest
from structural_checks import color_mask, pixel_centers, problems

from paintkit.colors import rgb_to_hex
from paintkit.language.phrases import color_code_phrase
from paintkit.shapes import BBOX_POINT_NAMES, bbox_points, canvas_points, control_points
from paintkit.tasks import task_module

MARGIN = 0.05  # px: pixel centers this close to the element's edge may go either way


def _segment_distance(xs, ys, a, b):
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    t = np.clip(((xs - ax) * dx + (ys - ay) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    return np.hypot(xs - (ax + t * dx), ys - (ay + t * dy))


def _inside_polygon(xs, ys, pts):
    inside = np.zeros(xs.shape, bool)
    n = len(pts)
    for i in range(n):
        (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % n]
        crosses = (y0 > ys) != (y1 > ys)
        with np.errstate(divide="ignore", invalid="ignore"):
            x_at = x0 + (ys - y0) * (x1 - x0) / (y1 - y0)
        inside ^= crosses & (xs < x_at)
    return inside


def _segments_cross(p, q, r, s):
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return orient(p, q, r) * orient(p, q, s) < 0 and orient(r, s, p) * orient(r, s, q) < 0


def _regions(prm, mode, xs, ys):
    """(surely inside, surely outside) bool masks of the new element."""
    pts = [tuple(p) for p in prm["points"]]
    if mode == "line":
        d = _segment_distance(xs, ys, pts[0], pts[1])
        r = prm["width"] / 2
        return d <= r - MARGIN, d > r + MARGIN
    if mode == "circle":
        cx, cy = prm["center"]
        d = np.hypot(xs - cx, ys - cy)
        return d <= prm["radius"] - MARGIN, d > prm["radius"] + MARGIN
    inside = _inside_polygon(xs, ys, pts)
    edge = np.min([_segment_distance(xs, ys, pts[i], pts[(i + 1) % len(pts)])
                   for i in range(len(pts))], axis=0)
    return inside & (edge > MARGIN), ~inside & (edge > MARGIN)


def _resolve(ref, scene):
    if ref["shape"] is None:
        return canvas_points(scene.canvas)[ref["point"]]
    shape = scene.element(ref["shape"])
    if ref["point"] in BBOX_POINT_NAMES:
        return bbox_points(shape)[ref["point"]]
    return control_points(shape)[ref["point"]]


def _check_statement(p, scene, mode):
    prm = p.metadata["params"]
    color = tuple(prm["color"])
    assert color not in scene.background.colors
    assert prm["color_text"] in (color_code_phrase(color), rgb_to_hex(color))
    assert prm["color_text"] in p.instruction
    assert ("on top of" in p.instruction) == prm["on_top"]
    for xy, ref in zip(prm["points"], prm["point_refs"], strict=True):
        if prm["positions"] == "coordinates":
            assert ref is None and xy == [int(xy[0]), int(xy[1])]
            assert f"({int(xy[0])}, {int(xy[1])})" in p.instruction
        else:
            assert math.dist(_resolve(ref, scene), xy) < 1e-9
            assert ref["point"].removeprefix("bounding-box ") in p.instruction
    pts = prm["points"]
    if mode == "line":
        assert f"{prm['width']} pixels in diameter" in p.instruction
    elif mode == "circle":
        given = prm["given"]
        if given == "center_radius":
            assert prm["center"] == pts[0] and f"radius {prm['radius']} pixels" in p.instruction
        elif given == "center_point":
            assert prm["center"] == pts[0]
            assert math.isclose(prm["radius"], math.dist(pts[0], pts[1]))
        else:
            mid = [(pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2]
            assert np.allclose(prm["center"], mid)
            assert math.isclose(prm["radius"], math.dist(pts[0], pts[1]) / 2)
    else:
        n = len(pts)
        assert 3 <= n <= 5 and f"{n} vertices" in p.instruction
        for i in range(n):
            for j in range(i + 2, n):
                if (j + 1) % n != i:
                    assert not _segments_cross(pts[i], pts[i + 1], pts[j], pts[(j + 1) % n])


def _check_pixels(p, scene, mode):
    prm = p.metadata["params"]
    xs, ys = pixel_centers(*p.input.shape[:2])
    inside, outside = _regions(prm, mode, xs, ys)
    assert inside.any()
    color = tuple(prm["color"])
    painted = color_mask(p.answer, [color])
    if prm["on_top"]:
        assert painted[inside].all()
    else:
        free = inside & color_mask(p.input, scene.background.colors)
        assert painted[free].all()
        covered = inside & ~color_mask(p.input, scene.background.colors)
        assert np.array_equal(p.answer[covered], p.input[covered])
    assert np.array_equal(p.answer[outside], p.input[outside])


@pytest.mark.parametrize("mode", ["circle", "line", "polygon"])
def test_new_element_has_the_stated_color_and_place(mode):
    kinds = set()
    for p, scene in problems("construction", mode, slots=(0, 1, 2)):
        _check_statement(p, scene, mode)
        _check_pixels(p, scene, mode)
        kinds.add(p.metadata["params"]["positions"])
    assert kinds == {"named", "coordinates"}


def test_circle_givens_all_occur():
    givens = {p.metadata["params"]["given"]
              for p, _ in problems("construction", "circle", ("baseline", "n_med"), range(6))}
    assert givens == {"center_point", "diameter", "center_radius"}


def test_modes_follow_the_paper_table():
    with pytest.raises(ValueError, match="allowed: circle, line, polygon"):
        task_module("construction").generate(0, "baseline", "spiral")
