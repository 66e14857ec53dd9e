"""Flattened outlines of the 12 shapes: in the unit box and placed on the canvas.

An outline is a list of closed contours, each a float64 ``(N, 2)`` array of ``(x, y)``
vertices (closing edge implicit), filled with the nonzero winding rule. Curved parts are
flattened for the size the shape is drawn at: the chord error of every arc, measured in
canvas pixels after placement, stays below ``tolerance`` (default 1/256 px).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from paintkit.scene import Affine, Shape
from paintkit.shapes.catalog import check_shape_type
from paintkit.shapes.designs import DESIGNS
from paintkit.shapes.flatten import (
    DEFAULT_TOLERANCE,
    IDENTITY2,
    Matrix2,
    contour_segment_counts,
    flatten_contour,
)


def _check_tolerance(tolerance: float) -> float:
    if not (isinstance(tolerance, (int, float)) and 0 < tolerance < 1):
        raise ValueError(f"tolerance must be a number of pixels in (0, 1), got {tolerance!r}")
    return float(tolerance)


@lru_cache(maxsize=1024)
def _unit_contours(shape_type: str, counts: tuple) -> tuple[np.ndarray, ...]:
    design = DESIGNS[shape_type]
    out = []
    for contour, n in zip(design.contours, counts, strict=True):
        pts = flatten_contour(contour, n)
        # Designs are normalised in floating point; snap extremes that are 1 ulp off the
        # unit box so unrotated bounds are exactly the bbox.
        for edge in (0.0, 1.0):
            pts[np.abs(pts - edge) < 1e-12] = edge
        pts.setflags(write=False)
        out.append(pts)
    return tuple(out)


def unit_outline(
    shape_type: str, linear: Matrix2 = IDENTITY2, tolerance: float = DEFAULT_TOLERANCE
) -> list[np.ndarray]:
    """Outline of ``shape_type`` in the unit box ``[0, 1]^2``.

    Args:
        shape_type: one of :data:`paintkit.scene.SHAPE_TYPES`.
        linear: linear part ``(a, b, d, e)`` of the map the outline will be drawn through
            (unit box -> pixels); it sets how finely arcs are flattened.
        tolerance: largest chord error allowed after ``linear``, in pixels.

    Returns:
        Contours as read-only float64 ``(N, 2)`` arrays in unit-box coordinates; their
        tight bounds are exactly ``[0, 1]^2``.
    """
    return list(_unit_contours(shape_type, _segment_counts(shape_type, linear, tolerance)))


def _segment_counts(shape_type: str, linear: Matrix2, tolerance: float) -> tuple:
    """The arcs' segment counts of ``shape_type`` drawn through ``linear`` (validated)."""
    check_shape_type(shape_type)
    tolerance = _check_tolerance(tolerance)
    linear = tuple(float(v) for v in linear)
    if len(linear) != 4:
        raise ValueError(f"linear must be 4 numbers (a, b, d, e), got {linear!r}")
    return tuple(
        contour_segment_counts(c, linear, tolerance) for c in DESIGNS[shape_type].contours
    )


@lru_cache(maxsize=1024)
def _unit_points(shape_type: str, counts: tuple) -> np.ndarray:
    points = np.concatenate(_unit_contours(shape_type, counts))
    points.setflags(write=False)
    return points


def placed_bounds(shape: Shape, tolerance: float = DEFAULT_TOLERANCE,
                  ) -> tuple[float, float, float, float]:
    """Tight ``(x0, y0, x1, y1)`` of the vertices of :func:`shape_outline`, in pixels.

    All contours are mapped at once (one cached array of their vertices): a placement
    sampler asks this of every candidate shape.
    """
    m = shape.placement
    counts = _segment_counts(shape.type, (m[0], m[1], m[3], m[4]), tolerance)
    placed = transform_points(m, _unit_points(shape.type, counts))
    (x0, y0), (x1, y1) = placed.min(axis=0), placed.max(axis=0)
    return (float(x0), float(y0), float(x1), float(y1))


def transform_points(m: Affine, points: np.ndarray) -> np.ndarray:
    """Map float ``(N, 2)`` points through the affine ``m = (a, b, c, d, e, f)``."""
    a, b, c, d, e, f = m
    x, y = points[:, 0], points[:, 1]
    return np.stack([a * x + b * y + c, d * x + e * y + f], axis=1)


def shape_outline(shape: Shape, tolerance: float = DEFAULT_TOLERANCE) -> list[np.ndarray]:
    """Outline of ``shape`` in canvas pixels (after bbox, rotation and transform).

    Returns a list of closed contours, float64 ``(N, 2)`` arrays of ``(x, y)`` pixel
    coordinates, to be filled with the nonzero winding rule. Arcs are flattened so that
    their chord error is below ``tolerance`` pixels at this shape's placed size.
    """
    m = shape.placement
    unit = unit_outline(shape.type, (m[0], m[1], m[3], m[4]), tolerance)
    return [transform_points(m, c) for c in unit]

