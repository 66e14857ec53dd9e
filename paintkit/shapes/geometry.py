"""Measurements of placed shapes: tight bounds and area, in canvas pixels.

``CANONICAL_ASPECT`` (fixed-ratio width / height) is re-exported here for the sampler.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from paintkit.scene import Shape
from paintkit.shapes.designs import CANONICAL_ASPECT
from paintkit.shapes.outlines import placed_bounds, shape_outline

__all__ = [
    "CANONICAL_ASPECT", "outline_area", "outline_bounds", "polygon_signed_area",
    "shape_area", "shape_bounds",
]


def polygon_signed_area(points: np.ndarray) -> float:
    """Shoelace area of the closed polygon ``points`` (float ``(N, 2)``).

    Positive when the polygon runs clockwise on screen (y down), in squared input units.
    """
    x, y = points[:, 0], points[:, 1]
    # Elementwise products (IEEE, the same on every CPU) and a correctly rounded sum: no BLAS
    # dot product, whose summation order and fused multiply-adds depend on the CPU's kernel
    # (the benchmark's metadata, which records areas, must not).
    cross = x * np.roll(y, -1) - np.roll(x, -1) * y
    return 0.5 * math.fsum(cross.tolist())


def outline_area(contours: Sequence[np.ndarray]) -> float:
    """Area filled by ``contours`` under the nonzero rule, for outlines whose contours do
    not cross: disjoint or nested pieces, holes running opposite to their outer contour
    (true of every shape outline). Equals ``|sum of signed areas|``."""
    return abs(sum(polygon_signed_area(c) for c in contours))


def outline_bounds(contours: Sequence[np.ndarray]) -> tuple[float, float, float, float]:
    """Tight ``(x0, y0, x1, y1)`` of the vertices of ``contours``."""
    pts = np.concatenate(list(contours))
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    return (float(x0), float(y0), float(x1), float(y1))


def shape_bounds(shape: Shape) -> tuple[float, float, float, float]:
    """Tight axis-aligned bounds ``(x0, y0, x1, y1)`` of the placed outline, in pixels.

    For an unrotated, untransformed shape this is exactly its bbox.
    """
    return placed_bounds(shape)


def shape_area(shape: Shape) -> float:
    """Area of the placed outline (the polygon actually drawn), in square pixels."""
    return outline_area(shape_outline(shape))
