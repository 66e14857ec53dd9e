"""Shape outlines: unit-box designs, adaptive flattening, placement, strokes and capsules."""

from __future__ import annotations

import math

import numpy as np
import pytest

from paintkit.scene import SHAPE_TYPES, BBox, Shape
from paintkit.shapes import (
    ASPECT_FREE,
    CANONICAL_ASPECT,
    DEFAULT_TOLERANCE,
    capsule_outline,
    shape_outline,
    stroke_outline,
    unit_outline,
)
from paintkit.shapes.designs import DESIGNS
from paintkit.shapes.flatten import Arc, arc_segment_counts, flatten_contour
from paintkit.shapes.geometry import polygon_signed_area
from paintkit.shapes.lobed import CLOUD_LOBES, cloud_design

CURVED = ("circle", "cloud", "ring", "heart", "semicircle")


def segment_distances(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Distance from each of ``points`` (M, 2) to the closed polygon's edges."""
    a = polygon
    b = np.roll(polygon, -1, axis=0)
    d = b - a
    t = ((points[:, None, :] - a[None]) * d[None]).sum(-1) / (d * d).sum(-1)[None]
    t = np.clip(t, 0.0, 1.0)
    nearest = a[None] + t[..., None] * d[None]
    return np.hypot(*(points[:, None, :] - nearest).transpose(2, 0, 1)).min(axis=1)


def random_linear(rng: np.random.Generator, size: float) -> tuple[float, float, float, float]:
    """A linear map with shear and possibly a reflection, about ``size`` px across."""
    a, e = rng.uniform(0.3, 1.0, 2) * size
    b, d = rng.uniform(-0.4, 0.4, 2) * size
    if rng.random() < 0.5:
        a, b = -a, -b
    return (float(a), float(b), float(d), float(e))


def test_canonical_aspect_covers_exactly_the_fixed_ratio_shapes():
    assert set(CANONICAL_ASPECT) == set(SHAPE_TYPES) - ASPECT_FREE
    assert CANONICAL_ASPECT["circle"] == 1.0
    assert CANONICAL_ASPECT["semicircle"] == 2.0
    assert CANONICAL_ASPECT["hexagon"] == pytest.approx(math.sqrt(3) / 2)
    assert all(v > 0 for v in CANONICAL_ASPECT.values())


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
@pytest.mark.parametrize("linear", [(1.0, 0.0, 0.0, 1.0), (300.0, 0.0, 0.0, 120.0),
                                    (80.0, 60.0, -60.0, 80.0)])
def test_unit_outline_bounds_are_exactly_the_unit_box(shape_type, linear):
    contours = unit_outline(shape_type, linear)
    assert contours and all(c.dtype == np.float64 and c.ndim == 2 and c.shape[1] == 2
                            for c in contours)
    pts = np.concatenate(contours)
    assert pts.min(axis=0).tolist() == [0.0, 0.0]
    assert pts.max(axis=0).tolist() == [1.0, 1.0]


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
def test_contours_run_clockwise_and_holes_counterclockwise(shape_type):
    areas = [polygon_signed_area(c) for c in unit_outline(shape_type, (200.0, 0.0, 0.0, 200.0))]
    assert areas[0] > 0
    if shape_type == "ring":
        assert len(areas) == 2 and areas[1] < 0 and abs(areas[1]) < areas[0]
    else:
        assert len(areas) == 1


def dense_truth(shape_type: str) -> list[np.ndarray]:
    """The design's curves sampled with a fixed 256 steps per quarter turn."""
    out = []
    for contour in DESIGNS[shape_type].contours:
        counts = [(256,) * len(arc_segment_counts(p, (1.0, 0.0, 0.0, 1.0), 0.5))
                  if isinstance(p, Arc) else () for p in contour]
        out.append(flatten_contour(contour, counts))
    return out


@pytest.mark.parametrize("shape_type", CURVED)
@pytest.mark.parametrize("seed", range(3))
def test_chord_error_is_below_tolerance_at_the_placed_size(shape_type, seed):
    rng = np.random.default_rng(seed)
    linear = random_linear(rng, rng.uniform(40, 900))
    a, b, d, e = linear
    m = np.array([[a, b], [d, e]])
    outline = unit_outline(shape_type, linear)
    for poly, truth in zip(outline, dense_truth(shape_type), strict=True):
        # the true curve, placed, against the placed polygon: every point within tolerance
        err = segment_distances(truth @ m.T, poly @ m.T)
        assert err.max() < DEFAULT_TOLERANCE


def test_flattening_adapts_to_size():
    small = len(unit_outline("circle", (20.0, 0.0, 0.0, 20.0))[0])
    large = len(unit_outline("circle", (800.0, 0.0, 0.0, 800.0))[0])
    finer = len(unit_outline("circle", (800.0, 0.0, 0.0, 800.0), tolerance=1 / 1024)[0])
    assert small < large < finer
    # sagitta of the large circle's polygon, analytically
    r = 400.0
    assert r * (1 - math.cos(math.pi / large)) < DEFAULT_TOLERANCE


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
def test_unrotated_outline_fills_its_bbox_exactly(shape_type):
    box = BBox(10.25, 33.5, 123.0, 77.75)
    shape = Shape("s", shape_type, box, (1, 2, 3))
    pts = np.concatenate(shape_outline(shape))
    assert pts.min(axis=0) == pytest.approx([box.x, box.y], abs=1e-9)
    assert pts.max(axis=0) == pytest.approx([box.right, box.bottom], abs=1e-9)
    assert (pts >= [box.x - 1e-9, box.y - 1e-9]).all()
    assert (pts <= [box.right + 1e-9, box.bottom + 1e-9]).all()


def test_shape_outline_applies_rotation_and_transform():
    box = BBox(100.0, 50.0, 80.0, 40.0)
    plain = Shape("s", "arrow", box, (1, 2, 3))
    turned = Shape("s", "arrow", box, (1, 2, 3), rotation=90.0,
                   transform=(1.0, 0.5, 3.0, 0.0, -1.0, 400.0))
    p = plain.placement
    q = turned.placement
    # same unit outline (polygonal shape): compare via the placements
    unit = unit_outline("arrow")[0]
    for shape, m in ((plain, p), (turned, q)):
        expected = np.stack([m[0] * unit[:, 0] + m[1] * unit[:, 1] + m[2],
                             m[3] * unit[:, 0] + m[4] * unit[:, 1] + m[5]], axis=1)
        np.testing.assert_allclose(shape_outline(shape)[0], expected, atol=1e-9)


def test_cloud_outline_is_the_union_of_its_lobes():
    contour, _ = cloud_design()
    poly = flatten_contour(contour, [(16,) * len(arc_segment_counts(p, (1.0, 0.0, 0.0, 1.0), 0.5))
                                     for p in contour])
    xs, ys = np.meshgrid(np.linspace(-5, 155, 161), np.linspace(-5, 105, 111))
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    in_union = np.zeros(len(pts), bool)
    for cx, cy, r in CLOUD_LOBES:
        in_union |= np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) <= r
    # even-odd crossing test of the traced outline (a simple closed curve)
    a, b = poly, np.roll(poly, -1, axis=0)
    crosses = ((a[None, :, 1] > pts[:, None, 1]) != (b[None, :, 1] > pts[:, None, 1])) & (
        pts[:, None, 0] < a[None, :, 0] + (pts[:, None, 1] - a[None, :, 1])
        * (b[None, :, 0] - a[None, :, 0]) / (b[None, :, 1] - a[None, :, 1] + 1e-300))
    in_outline = crosses.sum(axis=1) % 2 == 1
    near = segment_distances(pts, poly) < 0.1  # 16 steps per quarter: sagitta < 0.05
    assert (in_union == in_outline)[~near].all()


def test_bad_inputs_raise_value_error():
    with pytest.raises(ValueError, match="unknown shape type"):
        unit_outline("blob")
    with pytest.raises(ValueError, match="tolerance"):
        unit_outline("circle", tolerance=0.0)
    with pytest.raises(ValueError, match="4 numbers"):
        unit_outline("circle", (1.0, 0.0, 1.0))
    with pytest.raises(ValueError, match="width"):
        capsule_outline((0, 0), (1, 1), 0.0)
    with pytest.raises(ValueError, match="at least 1 point"):
        stroke_outline(np.zeros((0, 2)), 2.0)


@pytest.mark.parametrize("start,end,width", [((3.0, 4.0), (50.5, 20.25), 7.0),
                                             ((10.0, 10.0), (10.0, 10.0), 5.0),
                                             ((0.0, 0.0), (0.0, -30.0), 1.5)])
def test_capsule_vertices_lie_at_half_width_from_the_segment(start, end, width):
    poly = capsule_outline(start, end, width)
    a, b = np.array(start), np.array(end)
    d = b - a
    t = np.clip(((poly - a) @ d) / max(d @ d, 1e-300), 0, 1)
    dist = np.hypot(*(poly - (a + t[:, None] * d)).T)
    np.testing.assert_allclose(dist, width / 2, atol=1e-9)
    assert polygon_signed_area(poly) > 0


@pytest.mark.parametrize("closed", [True, False])
def test_stroke_pieces_all_run_clockwise(closed):
    pts = np.array([[0.0, 0.0], [40.0, 3.0], [42.0, 30.0], [5.0, 20.0], [20.0, 10.0]])
    for piece in stroke_outline(pts, 6.0, closed):
        batch = piece[None] if piece.ndim == 2 else piece
        assert all(polygon_signed_area(c) > 0 for c in batch)
