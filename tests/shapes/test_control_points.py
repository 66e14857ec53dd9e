"""Named control points: intrinsic, bounding-box and canvas."""

from __future__ import annotations

import math

import numpy as np
import pytest

from paintkit.scene import SHAPE_TYPES, BBox, Canvas, Shape
from paintkit.shapes import (
    BBOX_POINT_NAMES,
    CANONICAL_ASPECT,
    CANVAS_POINT_NAMES,
    CONTROL_POINT_NAMES,
    ORIENTATION_FREE_POINTS,
    bbox_points,
    box_points,
    canvas_points,
    control_points,
    shape_bounds,
    shape_outline,
)

BOX = BBox(200.0, 150.0, 160.0, 120.0)
INSIDE_POINTS = {"center", "centroid"}  # the rest lie on the outline


def rotate_about(point, center, degrees):
    t = math.radians(degrees)
    x, y = point[0] - center[0], point[1] - center[1]
    return (center[0] + x * math.cos(t) - y * math.sin(t),
            center[1] + x * math.sin(t) + y * math.cos(t))


def test_point_names_are_unique_across_families():
    assert len(BBOX_POINT_NAMES) == len(set(BBOX_POINT_NAMES)) == 9
    assert len(CANVAS_POINT_NAMES) == len(set(CANVAS_POINT_NAMES)) == 9
    assert "bounding-box center" in BBOX_POINT_NAMES
    assert "center of the canvas" in CANVAS_POINT_NAMES
    for shape_type, names in CONTROL_POINT_NAMES.items():
        assert names and len(set(names)) == len(names)
        assert not set(names) & set(BBOX_POINT_NAMES)
        assert not set(names) & set(CANVAS_POINT_NAMES)
        assert ORIENTATION_FREE_POINTS[shape_type] <= set(names)
    assert set(CONTROL_POINT_NAMES) == set(SHAPE_TYPES) == set(ORIENTATION_FREE_POINTS)


def test_example_names_from_the_paper_exist():
    assert "30-degree vertex" in CONTROL_POINT_NAMES["hexagon"]
    assert "tip" in CONTROL_POINT_NAMES["arrow"]
    assert "arc midpoint" in CONTROL_POINT_NAMES["semicircle"]
    assert "center" in CONTROL_POINT_NAMES["circle"]


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
def test_control_points_follow_rotation(shape_type):
    plain = Shape("s", shape_type, BOX, (1, 2, 3))
    for angle in (17.0, 90.0, 233.5):
        turned = Shape("s", shape_type, BOX, (1, 2, 3), rotation=angle)
        expected = {k: rotate_about(p, BOX.center, angle) for k, p in control_points(plain).items()}
        got = control_points(turned)
        assert got.keys() == expected.keys()
        for k in got:
            assert got[k] == pytest.approx(expected[k], abs=1e-9), k


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
def test_control_points_follow_the_transform(shape_type):
    m = (-1.0, 0.3, 900.0, 0.2, 1.0, -10.0)  # reflection with shear
    plain = Shape("s", shape_type, BOX, (1, 2, 3), rotation=30.0)
    warped = Shape("s", shape_type, BOX, (1, 2, 3), rotation=30.0, transform=m)
    for k, (x, y) in control_points(plain).items():
        expected = (m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5])
        assert control_points(warped)[k] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
def test_bbox_points_of_an_unrotated_shape_are_its_bbox(shape_type):
    pts = bbox_points(Shape("s", shape_type, BOX, (1, 2, 3)))
    assert tuple(pts) == BBOX_POINT_NAMES
    expect = {"top-left corner": (BOX.x, BOX.y), "top-right corner": (BOX.right, BOX.y),
              "bottom-left corner": (BOX.x, BOX.bottom),
              "bottom-right corner": (BOX.right, BOX.bottom),
              "top edge midpoint": (BOX.center[0], BOX.y),
              "bottom edge midpoint": (BOX.center[0], BOX.bottom),
              "left edge midpoint": (BOX.x, BOX.center[1]),
              "right edge midpoint": (BOX.right, BOX.center[1]),
              "bounding-box center": BOX.center}
    for k, v in expect.items():
        assert pts[k] == pytest.approx(v, abs=1e-9), k


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
def test_bbox_points_of_a_rotated_shape_span_its_placed_outline(shape_type):
    shape = Shape("s", shape_type, BOX, (1, 2, 3), rotation=37.0)
    pts = np.concatenate(shape_outline(shape))
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    assert shape_bounds(shape) == pytest.approx((x0, y0, x1, y1))
    got = bbox_points(shape)
    assert got["top-left corner"] == pytest.approx((x0, y0))
    assert got["bottom-right corner"] == pytest.approx((x1, y1))
    assert got["bounding-box center"] == pytest.approx(((x0 + x1) / 2, (y0 + y1) / 2))


def test_canvas_points():
    pts = canvas_points(Canvas(1024, 576))
    assert tuple(pts) == CANVAS_POINT_NAMES
    assert pts["top-left corner of the canvas"] == (0.0, 0.0)
    assert pts["bottom-right corner of the canvas"] == (1024.0, 576.0)
    assert pts["center of the canvas"] == (512.0, 288.0)
    assert pts["right edge midpoint of the canvas"] == (1024.0, 288.0)
    assert pts["top edge midpoint of the canvas"] == (512.0, 0.0)


def test_box_points_rejects_inverted_boxes():
    with pytest.raises(ValueError, match="x0 <= x1"):
        box_points((10.0, 0.0, 5.0, 3.0))


def _distance_to_outline(point, contours):
    p = np.array(point)
    best = math.inf
    for c in contours:
        a, b = c, np.roll(c, -1, axis=0)
        d = b - a
        t = np.clip(((p - a) * d).sum(1) / (d * d).sum(1), 0, 1)
        best = min(best, np.hypot(*(p - (a + t[:, None] * d)).T).min())
    return best


def _inside(point, contours):
    x, y = point
    winding = 0
    for c in contours:
        for (ax, ay), (bx, by) in zip(c, np.roll(c, -1, axis=0), strict=True):
            if (ay <= y < by or by <= y < ay) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                winding += 1 if by > ay else -1
    return winding != 0


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
def test_named_points_lie_on_the_outline_or_inside(shape_type):
    shape = Shape("s", shape_type, BOX, (1, 2, 3), rotation=25.0)
    outline = shape_outline(shape)
    for name, p in control_points(shape).items():
        if name in INSIDE_POINTS:
            # the ring's center is the middle of its hole
            assert _inside(p, outline) == (shape_type != "ring"), name
        else:
            assert _distance_to_outline(p, outline) < 1e-6, name


def test_canonical_orientation_of_points():
    def pts(t, box=BOX):
        return control_points(Shape("s", t, box, (1, 2, 3)))
    cx, cy = BOX.center
    assert pts("star")["top tip"] == pytest.approx((cx, BOX.y))
    assert pts("triangle")["apex"] == pytest.approx((cx, BOX.y))
    assert pts("arrow")["tip"] == pytest.approx((BOX.right, cy))
    assert pts("heart")["tip"] == pytest.approx((cx, BOX.bottom))
    assert pts("semicircle")["arc midpoint"] == pytest.approx((cx, BOX.y))
    hexagon = pts("hexagon")
    assert hexagon["90-degree vertex"] == pytest.approx((cx, BOX.y))
    x30, y30 = hexagon["30-degree vertex"]
    assert x30 == pytest.approx(BOX.right) and y30 < cy
    x210, y210 = hexagon["210-degree vertex"]
    assert x210 == pytest.approx(BOX.x) and y210 > cy
    # the star's center is its circumcenter, below the bbox center
    star_box = BBox(0.0, 0.0, 100.0 * CANONICAL_ASPECT["star"], 100.0)
    star = pts("star", star_box)
    r = [math.dist(star["center"], star[k]) for k in star if k.endswith("tip")]
    assert max(r) - min(r) < 1e-9 and star["center"][1] > star_box.center[1]
