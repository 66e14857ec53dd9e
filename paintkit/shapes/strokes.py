"""Stroke geometry: the region a round brush of diameter ``width`` paints along an outline.

A stroke of width ``w`` over a polyline is every point within ``w / 2`` of it: the union of
one rectangle per segment, one circular sector per vertex on the outer side of the turn
(round joins) and, on open polylines, a half disc at each end (round caps). Those pieces all
run clockwise on screen, so filling them together with the nonzero winding rule paints
their union. The union matches the true stroke to within ``tolerance`` px both ways: sector
arcs are flattened with chord error below it, and rectangles overlap their neighbours by a
hair (see :func:`stroke_outline`) that pokes out by less than it.

Computing strokes here rather than with a rasterizer's stroker keeps them exact (Skia's
stroker, for one, strays ~0.15 px from the true offset) and the same on every Skia build.
"""

from __future__ import annotations

import math

import numpy as np

from paintkit.shapes.flatten import (
    DEFAULT_TOLERANCE,
    IDENTITY2,
    Arc,
    contour_segment_counts,
    flatten_contour,
    max_step,
)

_SAME_POINT = 1e-9  # px: consecutive vertices closer than this are one vertex


def _check_width(width: float) -> float:
    if not (isinstance(width, (int, float)) and math.isfinite(width) and width > 0):
        raise ValueError(f"stroke width must be a finite number of pixels > 0, got {width!r}")
    return float(width)


def capsule_outline(
    start: tuple[float, float], end: tuple[float, float], width: float,
    tolerance: float = DEFAULT_TOLERANCE,
) -> np.ndarray:
    """Outline of every point within ``width / 2`` of the segment ``start``-``end``.

    The shape a round brush of diameter ``width`` px paints along a straight line (a disc
    when ``start == end``): a float64 ``(N, 2)`` convex polygon in pixels, clockwise on
    screen, with chord error below ``tolerance`` px on the round caps.
    """
    r = _check_width(width) / 2.0
    (x0, y0), (x1, y1) = start, end
    phi = math.atan2(y1 - y0, x1 - x0)
    contour = (
        Arc(x1, y1, r, r, phi - math.pi / 2, phi + math.pi / 2),
        Arc(x0, y0, r, r, phi + math.pi / 2, phi + 3 * math.pi / 2),
    )
    return flatten_contour(contour, contour_segment_counts(contour, IDENTITY2, tolerance))


def _sectors(centers: np.ndarray, start: np.ndarray, span: np.ndarray, r: float,
             tolerance: float, with_center: bool) -> list[np.ndarray]:
    """Circular sectors (or, without center, circular segments) of radius ``r`` as batches
    of equal-length contours ``(M, K, 2)``, each oriented clockwise on screen."""
    step = max_step(r, tolerance * 0.999)
    counts = np.maximum(np.ceil(np.abs(span) / step - 1e-12), 1).astype(np.int64)
    out = []
    for k in np.unique(counts):
        sel = counts == k
        c, t0, dt = centers[sel], start[sel], span[sel]
        t = t0[:, None] + dt[:, None] * (np.arange(k + 1) / k)[None, :]  # (M, k+1)
        ring = c[:, None, :] + r * np.stack([np.cos(t), np.sin(t)], axis=-1)
        if with_center:
            ring = np.concatenate([c[:, None, :], ring], axis=1)
        # Negative spans run counterclockwise: reverse them to keep one orientation.
        ring[dt < 0] = ring[dt < 0, ::-1]
        out.append(ring)
    return out


def stroke_outline(
    points: np.ndarray, width: float, closed: bool = True,
    tolerance: float = DEFAULT_TOLERANCE,
) -> list[np.ndarray]:
    """Pieces whose nonzero-rule union is every point within ``width / 2`` of a polyline.

    Args:
        points: float ``(N, 2)`` vertices in pixels, ``N >= 1``.
        width: brush diameter in pixels, > 0.
        closed: stroke the closing edge too (polygon outline) or add round end caps.
        tolerance: largest chord error of the round joins and caps, in pixels.

    Returns:
        float64 arrays of pieces, each ``(K, 2)`` or a batch ``(M, K, 2)`` of ``M`` contours
        with ``K`` vertices; all run clockwise on screen. Fill them together with the
        nonzero winding rule.
    """
    r = _check_width(width) / 2.0
    p = np.asarray(points, np.float64).reshape(-1, 2)
    if len(p) == 0:
        raise ValueError("cannot stroke an empty polyline: need at least 1 point")
    keep = np.ones(len(p), bool)
    keep[1:] = np.hypot(*(p[1:] - p[:-1]).T) > _SAME_POINT
    p = p[keep]
    if closed and len(p) > 1 and np.hypot(*(p[-1] - p[0])) <= _SAME_POINT:
        p = p[:-1]
    if len(p) == 1:
        return [capsule_outline(tuple(p[0]), tuple(p[0]), width, tolerance)]
    if closed and len(p) == 2:
        closed = False  # a two-point "polygon" is a segment traced both ways
    a = p
    b = np.roll(p, -1, axis=0) if closed else p[1:]
    a = a if closed else p[:-1]
    d = b - a
    u = d / np.hypot(d[:, 0], d[:, 1])[:, None]
    n = np.stack([-u[:, 1], u[:, 0]], axis=1) * r
    # Pieces that merely abut leave slivers where the rasterizer snaps their shared edges
    # differently (1/64 px grid). Each rectangle therefore runs on by `e` past both ends, so
    # every seam lies inside a neighbour; its corners then poke out of the true stroke by
    # sqrt(r^2 + e^2) - r < e^2 / (2 r), kept below the tolerance.
    e = u * math.sqrt(0.98 * r * tolerance)
    pieces: list[np.ndarray] = [np.stack([a - e - n, b + e - n, b + e + n, a - e + n], axis=1)]

    heading = np.arctan2(u[:, 1], u[:, 0])
    if closed:
        incoming, outgoing, joints = np.roll(heading, 1), heading, p
    else:
        incoming, outgoing, joints = heading[:-1], heading[1:], p[1:-1]
    turn = np.angle(np.exp(1j * (outgoing - incoming)))  # signed, in (-pi, pi]
    bent = np.abs(turn) > 1e-12
    if bent.any():
        # The gap on the outer side of a turn spans `turn`, starting at the incoming
        # segment's normal that points away from the turn.
        start = incoming[bent] - np.sign(turn[bent]) * (math.pi / 2)
        pieces += _sectors(joints[bent], start, turn[bent], r, tolerance, with_center=True)
    if not closed:
        ends = np.stack([p[0], p[-1]])
        facing = np.array([heading[0] + math.pi, heading[-1]])
        pieces += _sectors(ends, facing - math.pi / 2, np.full(2, math.pi), r, tolerance,
                           with_center=False)
    return pieces
