"""Areas and bounds of placed shapes."""

from __future__ import annotations

import math

import pytest

from paintkit.scene import SHAPE_TYPES, BBox, Shape
from paintkit.shapes import DEFAULT_TOLERANCE, shape_area, shape_bounds
from paintkit.shapes.designs import RING_INNER_RATIO


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
def test_areas_are_positive_and_below_the_bbox(shape_type):
    for rotation in (0.0, 45.0, 200.0):
        shape = Shape("s", shape_type, BBox(30.0, 40.0, 90.0, 60.0), (1, 2, 3), rotation=rotation)
        assert 0 < shape_area(shape) <= 90.0 * 60.0 + 1e-9


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
def test_area_scales_with_the_transform_determinant(shape_type):
    box = BBox(30.0, 40.0, 90.0, 60.0)
    plain = Shape("s", shape_type, box, (1, 2, 3))
    m = (0.0, -2.0, 500.0, 1.5, 0.5, 0.0)  # det = 3, orientation preserved
    flip = (-1.0, 0.0, 300.0, 0.0, 1.0, 0.0)  # reflection
    warped = Shape("s", shape_type, box, (1, 2, 3), transform=m)
    mirrored = Shape("s", shape_type, box, (1, 2, 3), transform=flip)
    # curved outlines are re-flattened for the new size: agree to the flattening error
    assert shape_area(warped) == pytest.approx(3 * shape_area(plain), rel=1e-3)
    assert shape_area(mirrored) == pytest.approx(shape_area(plain), rel=1e-9)


def test_exact_areas():
    box = BBox(0.0, 0.0, 120.0, 80.0)
    assert shape_area(Shape("r", "rectangle", box, (1, 2, 3))) == pytest.approx(9600.0)
    assert shape_area(Shape("d", "diamond", box, (1, 2, 3))) == pytest.approx(4800.0)
    triangle = Shape("t", "triangle", BBox(0, 0, 50, 50), (1, 2, 3))
    assert shape_area(triangle) == pytest.approx(1250.0)
    assert shape_area(Shape("c", "cross", box, (1, 2, 3))) == pytest.approx(9600.0 * 5 / 9)


@pytest.mark.parametrize("radius", [16.0, 100.0, 400.0])
def test_circle_and_ring_areas_within_flattening_error(radius):
    box = BBox(5.0, 5.0, 2 * radius, 2 * radius)
    perimeter = 2 * math.pi * radius
    circle = shape_area(Shape("c", "circle", box, (1, 2, 3)))
    # inscribed polygon: smaller than the disc by less than perimeter x chord error
    assert 0 < math.pi * radius**2 - circle < perimeter * DEFAULT_TOLERANCE
    ring = shape_area(Shape("r", "ring", box, (1, 2, 3)))
    exact = math.pi * radius**2 * (1 - RING_INNER_RATIO**2)
    assert abs(ring - exact) < perimeter * (1 + RING_INNER_RATIO) * DEFAULT_TOLERANCE


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
def test_bounds_of_unrotated_shape_are_its_bbox(shape_type):
    box = BBox(12.5, 7.25, 64.0, 48.0)
    assert shape_bounds(Shape("s", shape_type, box, (1, 2, 3))) == pytest.approx(
        (box.x, box.y, box.right, box.bottom), abs=1e-9)


def test_rotated_diamond_bounds():
    # a diamond in a 100 x 100 box, turned 45 degrees, is an axis-aligned square
    shape = Shape("s", "diamond", BBox(0.0, 0.0, 100.0, 100.0), (1, 2, 3), rotation=45.0)
    x0, y0, x1, y1 = shape_bounds(shape)
    side = 50 * math.sqrt(2)
    assert (x1 - x0, y1 - y0) == pytest.approx((side, side))
    assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx((50.0, 50.0))


@pytest.mark.parametrize("shape_type", SHAPE_TYPES)
def test_areas_use_no_blas(shape_type, monkeypatch):
    """Areas go into the benchmark's metadata, so they must not depend on the CPU's BLAS
    kernel (a dot product's summation order and fused multiply-adds do): no np.dot / matmul,
    and a correctly rounded sum of the shoelace terms."""
    import numpy as np

    from paintkit.shapes.geometry import polygon_signed_area
    from paintkit.shapes.outlines import shape_outline

    shape = Shape("s", shape_type, BBox(10.3, 20.7, 81.1, 47.9), (10, 20, 30), rotation=33.0)
    expected = shape_area(shape)

    def refuse(*args, **kwargs):
        raise AssertionError("a BLAS call in the area")

    for name in ("dot", "matmul", "inner", "vdot", "einsum", "tensordot"):
        monkeypatch.setattr(np, name, refuse)
    assert shape_area(shape) == expected
    for contour in shape_outline(shape):
        x, y = contour[:, 0].tolist(), contour[:, 1].tolist()
        n = len(x)
        terms = [x[i] * y[(i + 1) % n] - x[(i + 1) % n] * y[i] for i in range(n)]
        assert polygon_signed_area(contour) == 0.5 * math.fsum(terms)
