"""Rendered coverage against plain NumPy pixel-center oracles.

Skia's aliased scan converter keeps vertices on a 1/64 px grid (the renderer rounds them to
the nearest grid point, at most sqrt(2)/128 px away) and steps edges in 16.16 fixed point
(measured: under 1/64 px more). So a pixel may disagree with the exact geometry only when its
center lies within ``RASTER_MARGIN = 1/32`` px of an edge; measured worst case ~0.022 px.
Curves and round strokes add their flattening error (< 1/256 px) against analytic truth.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paintkit.renderers import render_mask
from raster_oracle import distance_to_segments, near_outline, winding_mask
from scene_factory import random_shape

from paintkit.scene import (
    SHAPE_TYPES,
    Background,
    BBox,
    Canvas,
    Line,
    Polygon,
    Scene,
    Shape,
    Stroke,
)
from paintkit.shapes import DEFAULT_TOLERANCE, shape_outline

RASTER_MARGIN = 1.0 / 32.0
SIZE = 192


def mask_of(element, width=SIZE, height=SIZE):
    scene = Scene(Canvas(width, height), Background((0, 0, 0)), (element,))
    return render_mask(scene, element.id)


def assert_matches(mask, oracle, ambiguous):
    wrong = (mask != oracle) & ~ambiguous
    assert not wrong.any(), f"{wrong.sum()} pixels differ, first at {np.argwhere(wrong)[:3]}"
    assert oracle.any()  # the case tested something


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
@pytest.mark.parametrize("seed", range(4))
def test_shape_fill_matches_winding_oracle(shape_type, seed):
    rng = np.random.default_rng([seed, SHAPE_TYPES.index(shape_type)])
    shape = random_shape(rng, "s", SIZE, SIZE, shape_type=shape_type, transform=seed > 0)
    shape = Shape("s", shape_type, shape.bbox, (9, 9, 9), rotation=shape.rotation,
                  transform=shape.transform)
    outline = shape_outline(shape)
    assert_matches(mask_of(shape), winding_mask(outline, SIZE, SIZE),
                   near_outline(outline, SIZE, SIZE, RASTER_MARGIN))


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.floats(-20, SIZE + 20), st.floats(-20, SIZE + 20)),
                min_size=3, max_size=9))
def test_random_polygon_fill_matches_winding_oracle(points):
    pts = np.array(points)
    if np.ptp(pts[:, 0]) < 1 or np.ptp(pts[:, 1]) < 1:
        return
    poly = Polygon("p", tuple(points), fill=(1, 2, 3))
    oracle = winding_mask([pts], SIZE, SIZE)
    ambiguous = near_outline([pts], SIZE, SIZE, RASTER_MARGIN)
    wrong = (mask_of(poly) != oracle) & ~ambiguous
    assert not wrong.any()


@pytest.mark.parametrize("seed", range(6))
def test_circles_match_the_analytic_disc(seed):
    rng = np.random.default_rng(seed)
    r = float(rng.uniform(3, 90))
    cx, cy = rng.uniform(0, SIZE, 2)
    circle = Shape("c", "circle", BBox(float(cx - r), float(cy - r), 2 * r, 2 * r), (1, 2, 3))
    j, i = np.meshgrid(np.arange(SIZE) + 0.5, np.arange(SIZE) + 0.5)
    dist = np.hypot(j - cx, i - cy)
    oracle = dist <= r
    ambiguous = np.abs(dist - r) <= RASTER_MARGIN + DEFAULT_TOLERANCE
    assert_matches(mask_of(circle), oracle, ambiguous)


@pytest.mark.parametrize("seed", range(6))
def test_lines_paint_every_center_within_half_width(seed):
    rng = np.random.default_rng(100 + seed)
    (x0, y0), (x1, y1) = rng.uniform(0, SIZE, (2, 2))
    if seed == 0:
        x1, y1 = x0, y0  # a dot
    width = float(rng.uniform(0.8, 20))
    line = Line("l", (float(x0), float(y0)), (float(x1), float(y1)), (1, 2, 3), width)
    dist = distance_to_segments([np.array([[x0, y0], [x1, y1]])], SIZE, SIZE, SIZE * 2,
                                closed=False)
    oracle = dist <= width / 2
    ambiguous = np.abs(dist - width / 2) <= RASTER_MARGIN + DEFAULT_TOLERANCE
    assert_matches(mask_of(line), oracle, ambiguous)


def stroke_oracle(contours, width, closed):
    dist = distance_to_segments(contours, SIZE, SIZE, width, closed=closed)
    band = np.abs(dist - width / 2) <= RASTER_MARGIN + DEFAULT_TOLERANCE
    return dist <= width / 2, band


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
def test_shape_strokes_cover_points_within_half_width(shape_type):
    rng = np.random.default_rng([7, SHAPE_TYPES.index(shape_type)])
    for _ in range(2):
        width = float(rng.uniform(0.7, 12))
        shape = random_shape(rng, "s", SIZE, SIZE, shape_type=shape_type,
                             stroke=Stroke((5, 5, 5), width))
        shape = Shape("s", shape_type, shape.bbox, None, rotation=shape.rotation,
                      stroke=shape.stroke, transform=shape.transform)
        oracle, band = stroke_oracle(shape_outline(shape), width, closed=True)
        assert_matches(mask_of(shape), oracle, band)


@pytest.mark.parametrize("closed", [True, False])
@pytest.mark.parametrize("seed", range(3))
def test_polygon_strokes_cover_points_within_half_width(closed, seed):
    rng = np.random.default_rng([11, seed, closed])
    pts = rng.uniform(10, SIZE - 10, (int(rng.integers(2, 7)), 2))
    width = float(rng.uniform(0.7, 14))
    poly = Polygon("p", tuple(map(tuple, pts)), stroke=Stroke((1, 1, 1), width), closed=closed)
    oracle, band = stroke_oracle([pts], width, closed)
    assert_matches(mask_of(poly), oracle, band)


def test_fill_plus_stroke_is_the_union():
    shape = Shape("s", "star", BBox(30.0, 20.0, 120.0, 114.0), (1, 1, 1), rotation=12.0,
                  stroke=Stroke((2, 2, 2), 5.0))
    outline = shape_outline(shape)
    filled = winding_mask(outline, SIZE, SIZE)
    stroked, band = stroke_oracle(outline, 5.0, closed=True)
    ambiguous = band | near_outline(outline, SIZE, SIZE, RASTER_MARGIN)
    assert_matches(mask_of(shape), filled | stroked, ambiguous)


def test_pixel_centers_decide_coverage():
    # edges well away from pixel centers: exactly the pixels whose centers are inside
    rect = Shape("r", "rectangle", BBox(10.3, 20.7, 5.4, 3.6), (1, 2, 3))
    mask = mask_of(rect)
    rows, cols = np.nonzero(mask)
    assert (rows.min(), rows.max(), cols.min(), cols.max()) == (21, 23, 10, 15)
    assert mask.sum() == 3 * 6


def test_transforms_with_reflection_keep_the_nonzero_fill():
    # a reflected, sheared ring keeps its hole: both contours flip orientation together
    box = BBox(40.0, 40.0, 100.0, 100.0)
    cx, cy = box.center
    ring = Shape("r", "ring", box, (1, 2, 3), transform=(-1.0, 0.2, 2 * cx - 0.2 * cy,
                                                         0.0, 1.0, 0.0))
    mask = mask_of(ring)
    assert not mask[int(cy), int(cx)]
    outline = shape_outline(ring)
    assert_matches(mask, winding_mask(outline, SIZE, SIZE),
                   near_outline(outline, SIZE, SIZE, RASTER_MARGIN))
