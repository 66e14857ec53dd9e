"""Rendered coverage against plain NumPy pixel-center oracles.

The contract: a pixel may disagree with the exact geometry (nonzero winding number of its
center) only when its center lies within ``RASTER_MARGIN = 1/64`` px of the outline.

Left to itself, Skia's aliased scan converter strays up to ~0.023 px from the exact edges
on a 192 px canvas and ~0.03 px on tall edges (1/64 px vertex grid, its first-row x floored
to 1/64 px, 16.16 slope stepping). The renderer therefore hands it the outline's crossings
with the pixel-center rows, rounded to 1/64 px, as edges it draws exactly
(``skia_paths.scanline_path``): the actual bound is ``ROUNDING = 1/128`` px along the row,
checked here too, and the fill equals the rounded-crossing rule pixel for pixel. Circles,
lines and strokes, compared with analytic truth, add their flattening error (< 1/256 px) and
still fit in 1/64 px.
"""

from __future__ import annotations

import numpy as np
import pytest
import skia
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from raster_oracle import (
    distance_to_segments,
    near_outline,
    rounded_crossing_mask,
    winding_mask,
)
from scene_factory import random_shape

from paintkit.renderers import draw_element, render_mask
from paintkit.renderers.skia_paths import scanline_path
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
from paintkit.shapes import DEFAULT_TOLERANCE, shape_outline, stroke_outline

RASTER_MARGIN = 1.0 / 64.0
ROUNDING = 1.0 / 128.0 + 1e-9  # crossings rounded to the nearest 1/64 px (+ float slack)
SIZE = 192


def test_rounding_plus_flattening_fits_the_margin():
    assert ROUNDING + DEFAULT_TOLERANCE < RASTER_MARGIN


def mask_of(element, width=SIZE, height=SIZE):
    scene = Scene(Canvas(width, height), Background((0, 0, 0)), (element,))
    return render_mask(scene, element.id)


def assert_matches(mask, oracle, ambiguous):
    wrong = (mask != oracle) & ~ambiguous
    assert not wrong.any(), f"{wrong.sum()} pixels differ, first at {np.argwhere(wrong)[:3]}"
    assert oracle.any()  # the case tested something


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
@pytest.mark.parametrize("seed", range(6))
def test_shape_fill_matches_winding_oracle(shape_type, seed):
    rng = np.random.default_rng([seed, SHAPE_TYPES.index(shape_type)])
    shape = random_shape(rng, "s", SIZE, SIZE, shape_type=shape_type, transform=seed > 0)
    shape = Shape("s", shape_type, shape.bbox, (9, 9, 9), rotation=shape.rotation,
                  transform=shape.transform)
    outline = shape_outline(shape)
    assert_matches(mask_of(shape), winding_mask(outline, SIZE, SIZE),
                   near_outline(outline, SIZE, SIZE, RASTER_MARGIN))


def spans_a_pixel(points) -> bool:
    """Whether the polygon's vertices spread at least a pixel along both axes."""
    pts = np.array(points, np.float64)
    return bool(np.ptp(pts[:, 0]) >= 1 and np.ptp(pts[:, 1]) >= 1)


def assert_polygon_fill(points, width=SIZE, height=SIZE, margin=RASTER_MARGIN):
    # A sliver under a pixel wide is not a case: generators discard it (Hypothesis with
    # ``assume``), so a test never passes by checking nothing.
    assert spans_a_pixel(points), f"degenerate polygon {points}"
    pts = np.array(points, np.float64)
    poly = Polygon("p", tuple(map(tuple, pts.tolist())), fill=(1, 2, 3))
    oracle = winding_mask([pts], height, width)
    ambiguous = near_outline([pts], height, width, margin)
    wrong = (mask_of(poly, width, height) != oracle) & ~ambiguous
    assert not wrong.any(), f"{wrong.sum()} pixels differ, first at {np.argwhere(wrong)[:3]}"


@pytest.mark.parametrize("seed", range(4))
def test_random_polygons_match_winding_oracle(seed):
    # Skia's own edges miss 1/64 px on ~1 in 10 of these (the first-row floor plus the
    # vertex grid); the renderer's never do
    rng = np.random.default_rng([19, seed])
    for _ in range(40):
        assert_polygon_fill(rng.uniform(-20, SIZE + 20, (int(rng.integers(3, 10)), 2)))


@settings(max_examples=120, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.floats(-20, SIZE + 20), st.floats(-20, SIZE + 20)),
                min_size=3, max_size=9))
def test_random_polygon_fill_matches_winding_oracle(points):
    assume(spans_a_pixel(points))
    assert_polygon_fill(points)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.floats(-4000, 4000), st.floats(-4000, 4000)),
                min_size=3, max_size=6))
def test_long_edges_far_off_the_canvas_match_winding_oracle(points):
    # edges thousands of pixels long, mostly off the canvas: no clipping or drift error
    assume(spans_a_pixel(points))
    assert_polygon_fill(points)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(-10, 2 * SIZE + 10), st.integers(-10, 2 * SIZE + 10)),
                min_size=3, max_size=9))
def test_half_pixel_vertices_match_winding_oracle(points):
    # vertices on pixel centers and pixel corners: ties at rows and centers everywhere
    points = [(x / 2, y / 2) for x, y in points]
    assume(spans_a_pixel(points))
    assert_polygon_fill(points)


@pytest.mark.parametrize("seed", range(4))
def test_tall_canvas_fills_match_winding_oracle(seed):
    # edges spanning ~1000 rows, where Skia's own 16.16 stepping drifts ~1/64 px
    rng = np.random.default_rng([21, seed])
    w, h = 1024, 1024
    for _ in range(3):
        assert_polygon_fill(rng.uniform(-50, [w + 50, h + 50], (int(rng.integers(4, 9)), 2)),
                            w, h)
    shape_type = SHAPE_TYPES[(3 * seed) % len(SHAPE_TYPES)]
    s = random_shape(rng, "s", w, h, shape_type=shape_type)
    shape = Shape("s", shape_type, BBox(s.bbox.x, s.bbox.y, s.bbox.width * 1.6,
                                        s.bbox.height * 1.6), (9, 9, 9),
                  rotation=s.rotation, transform=s.transform)
    outline = shape_outline(shape)
    assert_matches(mask_of(shape, w, h), winding_mask(outline, h, w),
                   near_outline(outline, h, w, RASTER_MARGIN))


@pytest.mark.parametrize("seed", range(6))
def test_fill_is_within_rounding_of_the_exact_rule(seed):
    # the tighter bound the renderer actually keeps: 1/128 px
    rng = np.random.default_rng([23, seed])
    for _ in range(10):
        assert_polygon_fill(rng.uniform(-30, SIZE + 30, (int(rng.integers(3, 10)), 2)),
                            margin=ROUNDING)
    for shape_type in SHAPE_TYPES:
        s = random_shape(rng, "s", SIZE, SIZE, shape_type=shape_type)
        shape = Shape("s", shape_type, s.bbox, (9, 9, 9), rotation=s.rotation,
                      transform=s.transform)
        outline = shape_outline(shape)
        assert_matches(mask_of(shape), winding_mask(outline, SIZE, SIZE),
                       near_outline(outline, SIZE, SIZE, ROUNDING))


@pytest.mark.parametrize("seed", range(4))
def test_fill_is_the_rounded_crossing_rule_pixel_for_pixel(seed):
    # Skia draws scanline_path without any error of its own: fills, strokes, big and tiny
    # coordinates, ties, all equal to the rounded-crossing rule computed in NumPy.
    rng = np.random.default_rng([29, seed])
    w, h = (SIZE, SIZE) if seed % 2 else (640, 360)
    cases = []
    for spread in (0.0, 30.0, 3000.0):
        for _ in range(4):
            pts = rng.uniform(-spread, [w + spread, h + spread], (int(rng.integers(3, 10)), 2))
            cases.append((Polygon("e", tuple(map(tuple, pts.tolist())), fill=(1, 2, 3)), [pts]))
    half = np.round(rng.uniform(-5, [w + 5, h + 5], (8, 2)) * 2) / 2
    cases.append((Polygon("e", tuple(map(tuple, half.tolist())), fill=(1, 2, 3)), [half]))
    tiny = rng.uniform(20, 21.5, (5, 2))
    cases.append((Polygon("e", tuple(map(tuple, tiny.tolist())), fill=(1, 2, 3)), [tiny]))
    for shape_type in SHAPE_TYPES:
        s = random_shape(rng, "e", w, h, shape_type=shape_type)
        width = float(rng.uniform(0.5, 9))
        fill = Shape("e", shape_type, s.bbox, (9, 9, 9), rotation=s.rotation,
                     transform=s.transform)
        outline = shape_outline(fill)
        stroke = Shape("e", shape_type, s.bbox, None, rotation=s.rotation,
                       transform=s.transform, stroke=Stroke((1, 1, 1), width))
        pieces = [p for c in outline for p in stroke_outline(c, width, closed=True)]
        cases += [(fill, outline), (stroke, pieces)]
    for element, contours in cases:
        np.testing.assert_array_equal(mask_of(element, w, h),
                                      rounded_crossing_mask(contours, h, w))


@pytest.mark.parametrize("seed", range(6))
def test_circles_match_the_analytic_disc(seed):
    rng = np.random.default_rng(seed)
    r = float(rng.uniform(3, 90))
    cx, cy = rng.uniform(0, SIZE, 2)
    circle = Shape("c", "circle", BBox(float(cx - r), float(cy - r), 2 * r, 2 * r), (1, 2, 3))
    j, i = np.meshgrid(np.arange(SIZE) + 0.5, np.arange(SIZE) + 0.5)
    dist = np.hypot(j - cx, i - cy)
    oracle = dist <= r
    ambiguous = np.abs(dist - r) <= RASTER_MARGIN
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
    ambiguous = np.abs(dist - width / 2) <= RASTER_MARGIN
    assert_matches(mask_of(line), oracle, ambiguous)


def stroke_oracle(contours, width, closed):
    dist = distance_to_segments(contours, SIZE, SIZE, width, closed=closed)
    band = np.abs(dist - width / 2) <= RASTER_MARGIN
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


def test_scanline_paths_stay_inside_the_clip():
    # far-off and huge coordinates: every point lands inside the clip, so Skia never cuts
    # an edge at a float intersection (and nothing overflows its fixed point)
    far = np.array([[-1e9, -1e9], [1e9, 5.25], [3.0, 1e12], [-7.0, 20.0]])
    bounds = scanline_path([far], (0, 0, 64, 48)).computeTightBounds()
    assert 0 <= bounds.left() and bounds.right() <= 64
    assert 0 <= bounds.top() and bounds.bottom() <= 48
    assert scanline_path([], (0, 0, 8, 8)).isEmpty()
    assert scanline_path([np.array([[1.0, 1.1], [5.0, 1.2], [3.0, 1.4]])], (0, 0, 8, 8)).isEmpty()
    with pytest.raises(ValueError, match="finite"):
        scanline_path([np.array([[0.0, 0.0], [np.nan, 1.0], [2.0, 2.0]])], (0, 0, 8, 8))


def test_draw_element_on_a_plain_canvas_is_the_mask():
    shape = Shape("s", "heart", BBox(17.3, 9.1, 90.0, 70.0), (1, 2, 3), rotation=31.0)
    buf = np.zeros((SIZE, SIZE), np.uint8)
    surface = skia.Surface(buf, colorType=skia.kAlpha_8_ColorType,
                           alphaType=skia.kPremul_AlphaType)
    draw_element(surface.getCanvas(), shape)
    np.testing.assert_array_equal(buf > 0, mask_of(shape))
