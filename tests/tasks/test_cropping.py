"""Cropping: every answer pixel equals the input pixel at its inverse-mapped position,
recomputed from the metadata's numbers with plain NumPy trigonometry; the rectangle lies
inside the canvas, is outlined, centered on the named point, and its numbers are stated."""

import math

import numpy as np
import pytest
from structural_checks import color_mask, problems

from paintkit.scene import Polygon
from paintkit.shapes import BBOX_POINT_NAMES, bbox_points, canvas_points, control_points
from paintkit.tasks import task_module

TIE = 1e-6  # a mapped coordinate this close to a pixel edge may land on either side


def _expected_sources(prm, w, h):
    """(cols, rows, tie_x, tie_y) int/bool (H, W): the input pixel each output pixel shows
    (``floor`` of the mapped point), and where that point is within TIE of a pixel edge."""
    cx, cy = prm["center"]
    a = math.radians(prm["angle"])
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    lx = (xs + 0.5 - w / 2) * prm["width"] / w
    ly = (ys + 0.5 - h / 2) * prm["height"] / h
    x_in = cx + lx * math.cos(a) - ly * math.sin(a)
    y_in = cy + lx * math.sin(a) + ly * math.cos(a)
    cols, rows = np.floor(x_in).astype(int), np.floor(y_in).astype(int)
    tie_x = np.abs(x_in - np.round(x_in)) < TIE
    tie_y = np.abs(y_in - np.round(y_in)) < TIE
    assert cols.min() >= 0 and rows.min() >= 0 and cols.max() < w and rows.max() < h
    return cols, rows, tie_x, tie_y


def _resolve(ref, scene):
    if ref["shape"] is None:
        return canvas_points(scene.canvas)[ref["point"]]
    shape = scene.element(ref["shape"])
    if ref["point"] in BBOX_POINT_NAMES:
        return bbox_points(shape)[ref["point"]]
    return control_points(shape)[ref["point"]]


@pytest.mark.parametrize("mode", ["straight", "tilted"])
def test_answer_is_the_inverse_mapped_input(mode):
    for p, _ in problems("cropping", mode, slots=(0, 1)):
        prm = p.metadata["params"]
        h, w = p.input.shape[:2]
        cols, rows, tie_x, tie_y = _expected_sources(prm, w, h)
        ys, xs = np.nonzero(np.any(p.answer != p.input[rows, cols], axis=-1))
        assert len(ys) <= 0.001 * h * w
        # Only where the mapped point sits on a pixel edge may the other side be taken.
        ty, tx = tie_y[ys, xs], tie_x[ys, xs]
        assert (ty | tx).all()
        ok = np.zeros(len(ys), bool)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r = np.clip(rows[ys, xs] + dr * ty, 0, h - 1)
                c = np.clip(cols[ys, xs] + dc * tx, 0, w - 1)
                ok |= np.all(p.answer[ys, xs] == p.input[r, c], axis=-1)
        assert ok.all()


@pytest.mark.parametrize("mode", ["straight", "tilted"])
def test_rectangle_is_stated_outlined_and_inside(mode):
    angles = set()
    for p, scene in problems("cropping", mode, ("baseline", "vertical", "n_xhigh"), range(3)):
        prm = p.metadata["params"]
        w, h = scene.canvas.width, scene.canvas.height
        assert 25 <= prm["percent"] <= 75 and f"{prm['percent']}%" in p.instruction
        assert math.isclose(prm["width"] / prm["height"], w / h)
        assert math.isclose(prm["width"], prm["percent"] * w / 100)
        assert "nearest-neighbour" in p.instruction
        angle = prm["angle"]
        assert (angle == 0) == (mode == "straight") and -44 <= angle <= 45 and angle == int(angle)
        if angle:
            turn = "clockwise" if angle > 0 else "counter-clockwise"
            assert f"{abs(angle)} degrees {turn}" in p.instruction
        angles.add(angle)
        assert math.dist(_resolve(prm["center_ref"], scene), prm["center"]) < 1e-9
        # The outline: a closed polygon in a color no shape uses, at the rectangle's corners.
        marks = [e for e in scene.elements if isinstance(e, Polygon)]
        assert len(marks) == 1
        outline = tuple(prm["outline_color"])
        assert marks[0].stroke.color == outline and marks[0].fill is None
        assert all(s.fill != outline for s in scene.shapes)
        assert color_mask(p.input, [outline]).any()
        corners = np.asarray(marks[0].points)
        assert corners.min() >= 0 and (corners[:, 0] <= w).all() and (corners[:, 1] <= h).all()
        sides = np.hypot(*(np.roll(corners, -1, axis=0) - corners).T)
        assert np.allclose(sides, [prm["width"], prm["height"]] * 2)
        assert np.allclose(corners.mean(axis=0), prm["center"])
    if mode == "tilted":
        assert len(angles) > 3


def test_bad_mode_lists_the_modes():
    with pytest.raises(ValueError, match="allowed: straight, tilted"):
        task_module("cropping").generate(0, "baseline", "round")
