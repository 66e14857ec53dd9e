"""Outline pieces (vertices and elliptical arcs) and their adaptive flattening to polygons.

A contour is a sequence of pieces in the unit box ``[0, 1]^2`` (y down): plain vertices
``(x, y)`` and :class:`Arc` pieces. Flattening replaces each arc by a polyline whose chord
error (sagitta), measured *after* the linear part of the shape's placement, stays below a
tolerance in pixels: outlines are computed for the size a shape is drawn at, not with a
fixed number of segments.

Why the bound holds: an arc of an ellipse is the affine image of a circular arc. The point of
the circular arc farthest from a chord is the one at the mid-angle, at distance
``1 - cos(dθ / 2)`` (unit circle); an affine map scales distances from a fixed line by one
common factor and stretches any vector by at most the largest singular value ``σ`` of its
matrix, so the placed chord error is at most ``σ · (1 - cos(dθ / 2))``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# Chord error bound in canvas pixels (docs/generator-rules.md#exact-rendering; 1/256 px is
# well below the 1/64 px grid Skia snaps edges to).
DEFAULT_TOLERANCE = 1.0 / 256.0

Matrix2 = tuple[float, float, float, float]  # (a, b, d, e): [[a, b], [d, e]]
IDENTITY2: Matrix2 = (1.0, 0.0, 0.0, 1.0)

_HALF_PI = math.pi / 2.0
# Exact (cos, sin) at multiples of 90 degrees, so axis extremes land exactly on the bbox.
_QUADRANT = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))


@dataclass(frozen=True)
class Arc:
    """Elliptical arc ``(cx + rx cos t, cy + ry sin t)`` for ``t`` from ``t0`` to ``t1``.

    Angles in radians; with y pointing down, increasing ``t`` runs clockwise on screen.
    ``t1`` may be smaller than ``t0`` (the arc then runs counterclockwise).
    """

    cx: float
    cy: float
    rx: float
    ry: float
    t0: float
    t1: float

    def point(self, t: float) -> tuple[float, float]:
        return (self.cx + self.rx * math.cos(t), self.cy + self.ry * math.sin(t))


Piece = tuple[float, float] | Arc
Contour = tuple[Piece, ...]


def largest_singular_value(m: Matrix2) -> float:
    """Largest singular value of the 2x2 matrix ``[[a, b], [d, e]]`` (closed form)."""
    a, b, d, e = m
    s = a * a + b * b + d * d + e * e
    det = a * e - b * d
    disc = max(s * s - 4.0 * det * det, 0.0)
    return math.sqrt(max((s + math.sqrt(disc)) / 2.0, 0.0))


def max_step(sigma: float, tolerance: float) -> float:
    """Largest angle step (radians, at most 90 degrees) whose chord error is below
    ``tolerance`` for a unit arc stretched by at most ``sigma``."""
    if sigma <= tolerance:
        return _HALF_PI
    return min(2.0 * math.acos(1.0 - tolerance / sigma), _HALF_PI)


def _split_angles(t0: float, t1: float) -> list[float]:
    """``t0``, every multiple of 90 degrees strictly between, and ``t1``, in travel order."""
    lo, hi = min(t0, t1), max(t0, t1)
    k0 = math.floor(lo / _HALF_PI) + 1
    k1 = math.ceil(hi / _HALF_PI) - 1
    inner = [k * _HALF_PI for k in range(k0, k1 + 1)]
    cuts = [lo, *inner, hi]
    return cuts if t1 >= t0 else cuts[::-1]


def arc_segment_counts(arc: Arc, linear: Matrix2, tolerance: float) -> tuple[int, ...]:
    """Segments per quarter-turn sub-arc of ``arc`` so that, placed through ``linear``, the
    chord error stays strictly below ``tolerance`` (same units as ``linear`` maps to)."""
    a, b, d, e = linear
    sigma = largest_singular_value((a * arc.rx, b * arc.ry, d * arc.rx, e * arc.ry))
    # 0.999: keep the bound strict even where acos rounds up.
    step = max_step(sigma, tolerance * 0.999)
    cuts = _split_angles(arc.t0, arc.t1)
    spans = [abs(u1 - u0) for u0, u1 in zip(cuts[:-1], cuts[1:], strict=True)]
    return tuple(max(1, math.ceil(span / step - 1e-12)) for span in spans)


def _angle_point(arc: Arc, t: float, exact_quadrant: bool) -> tuple[float, float]:
    if exact_quadrant:
        k = round(t / _HALF_PI)
        if abs(t - k * _HALF_PI) < 1e-12:
            c, s = _QUADRANT[k % 4]
            return (arc.cx + arc.rx * c, arc.cy + arc.ry * s)
    return arc.point(t)


def flatten_arc(arc: Arc, counts: Sequence[int]) -> np.ndarray:
    """Points of ``arc`` (both ends included) with ``counts[i]`` equal steps on the i-th
    quarter-turn sub-arc. Returns float64 ``(1 + sum(counts), 2)``."""
    cuts = _split_angles(arc.t0, arc.t1)
    if len(counts) != len(cuts) - 1:
        raise ValueError(f"need {len(cuts) - 1} segment counts for this arc, got {len(counts)}")
    angles = [np.array([cuts[0]])]
    for (u0, u1), n in zip(zip(cuts[:-1], cuts[1:], strict=True), counts, strict=True):
        angles.append(u0 + (u1 - u0) * np.arange(1, n + 1) / n)
    t = np.concatenate(angles)
    pts = np.stack([arc.cx + arc.rx * np.cos(t), arc.cy + arc.ry * np.sin(t)], axis=1)
    # Sub-arc boundaries on multiples of 90 degrees are axis extremes: make them exact.
    idx = np.concatenate([[0], np.cumsum(counts)])
    for i, u in zip(idx, cuts, strict=True):
        pts[i] = _angle_point(arc, u, exact_quadrant=True)
    return pts


def contour_segment_counts(
    contour: Contour, linear: Matrix2, tolerance: float
) -> tuple[tuple[int, ...], ...]:
    """Segment counts for every arc of ``contour`` (empty tuples for vertices)."""
    return tuple(
        arc_segment_counts(p, linear, tolerance) if isinstance(p, Arc) else () for p in contour
    )


def flatten_contour(contour: Contour, counts: Sequence[Sequence[int]]) -> np.ndarray:
    """Polygon of ``contour``: vertices as given, arcs flattened with ``counts``.

    Repeated consecutive points (an arc ending where the next piece starts, or where the
    contour closes) are dropped. Returns float64 ``(N, 2)``, the closing edge implicit.
    """
    parts = []
    for piece, n in zip(contour, counts, strict=True):
        if isinstance(piece, Arc):
            parts.append(flatten_arc(piece, n))
        else:
            parts.append(np.asarray([piece], dtype=np.float64))
    pts = np.concatenate(parts)
    keep = np.ones(len(pts), dtype=bool)
    same = np.all(np.abs(np.diff(pts, axis=0)) < 1e-12, axis=1)
    keep[1:] = ~same
    pts = pts[keep]
    if len(pts) > 1 and np.all(np.abs(pts[-1] - pts[0]) < 1e-12):
        pts = pts[:-1]
    return pts


def contour_bounds(contours: Sequence[Contour]) -> tuple[float, float, float, float]:
    """Exact ``(x0, y0, x1, y1)`` of the unflattened contours (vertices, arc ends and the
    axis extremes arcs pass through)."""
    xs: list[float] = []
    ys: list[float] = []
    for contour in contours:
        for p in contour:
            if isinstance(p, Arc):
                for t in _split_angles(p.t0, p.t1):
                    x, y = _angle_point(p, t, exact_quadrant=True)
                    xs.append(x)
                    ys.append(y)
            else:
                xs.append(p[0])
                ys.append(p[1])
    return (min(xs), min(ys), max(xs), max(ys))


def map_contour(contour: Contour, x0: float, y0: float, sx: float, sy: float) -> Contour:
    """``contour`` under ``(x, y) -> ((x - x0) * sx, (y - y0) * sy)`` with ``sx, sy > 0``."""
    out: list[Piece] = []
    for p in contour:
        if isinstance(p, Arc):
            out.append(Arc((p.cx - x0) * sx, (p.cy - y0) * sy, p.rx * sx, p.ry * sy, p.t0, p.t1))
        else:
            out.append(((p[0] - x0) * sx, (p[1] - y0) * sy))
    return tuple(out)
