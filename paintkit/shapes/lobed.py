"""Constructions for the two shapes built from circles: cloud and heart.

Both are traced as a single outer contour (arcs joined at circle-circle intersections and
tangent points), so fills, strokes and areas see one boundary, never interior arcs.
Coordinates here are a free design frame (y down); :mod:`paintkit.shapes.designs`
normalises them into the unit box.
"""

from __future__ import annotations

import math

from paintkit.shapes.flatten import Arc, Contour

Point = tuple[float, float]

# Cloud lobes (cx, cy, r) in clockwise order on screen, starting at the left lobe. Each lobe
# overlaps the next; the traced outline takes the outer arc of every lobe between its
# intersections with its neighbours. The lowest point (bottom of the bottom-right lobe) and
# the highest (top of the top lobe) are unique.
CLOUD_LOBES: tuple[tuple[float, float, float], ...] = (
    (30.0, 64.0, 27.0),   # left
    (58.0, 40.0, 25.0),   # upper left
    (95.0, 36.0, 34.0),   # top
    (123.0, 63.0, 26.0),  # right
    (96.0, 73.0, 25.0),   # bottom right
    (60.0, 75.0, 22.0),   # bottom left
)

# Heart: two lobes of radius HEART_R centered at (-HEART_C, 0) and (HEART_C, 0), and the
# bottom tip at (0, HEART_TIP); the sides are tangent from the tip to the lobes.
HEART_C = 0.42
HEART_R = 0.58
HEART_TIP = 1.38


def _outer_intersection(a: tuple[float, float, float], b: tuple[float, float, float]) -> Point:
    """Intersection of circles ``a`` and ``b`` lying to the left of the direction a -> b
    (on screen, y down): the outside of a clockwise-traced outline."""
    (x1, y1, r1), (x2, y2, r2) = a, b
    dx, dy = x2 - x1, y2 - y1
    d = math.hypot(dx, dy)
    if not abs(r1 - r2) < d < r1 + r2:
        raise ValueError(f"cloud lobes {a} and {b} must overlap without nesting")
    along = (d * d + r1 * r1 - r2 * r2) / (2.0 * d)
    h = math.sqrt(r1 * r1 - along * along)
    mx, my = x1 + along * dx / d, y1 + along * dy / d
    # left of (dx, dy) on screen is (dy, -dx)
    return (mx + h * dy / d, my - h * dx / d)


def _angle_on(circle: tuple[float, float, float], p: Point) -> float:
    return math.atan2(p[1] - circle[1], p[0] - circle[0])


def _clockwise_arc(circle: tuple[float, float, float], p0: Point, p1: Point) -> Arc:
    """Arc of ``circle`` from ``p0`` to ``p1`` running clockwise on screen (increasing t)."""
    t0 = _angle_on(circle, p0)
    t1 = _angle_on(circle, p1)
    while t1 <= t0:
        t1 += 2.0 * math.pi
    cx, cy, r = circle
    return Arc(cx, cy, r, r, t0, t1)


def cloud_design() -> tuple[Contour, dict[str, Point]]:
    """The cloud outline (design frame) and its named points before normalisation."""
    lobes = CLOUD_LOBES
    n = len(lobes)
    joins = [_outer_intersection(lobes[i], lobes[(i + 1) % n]) for i in range(n)]
    # lobe i runs from its join with lobe i-1 to its join with lobe i+1
    arcs = tuple(_clockwise_arc(lobes[i], joins[i - 1], joins[i]) for i in range(n))
    left, _, top, right, bottom_right, _ = lobes
    points = {
        "center": (float("nan"), float("nan")),  # bbox center, filled in on normalisation
        "top point": (top[0], top[1] - top[2]),
        "left point": (left[0] - left[2], left[1]),
        "right point": (right[0] + right[2], right[1]),
        "bottom point": (bottom_right[0], bottom_right[1] + bottom_right[2]),
    }
    return arcs, points


def _tangent_from(p: Point, circle: tuple[float, float, float], sign: float) -> Point:
    """Tangent point on ``circle`` of a line through the outside point ``p``; ``sign``
    picks the side (+1 rotates clockwise on screen from the direction center -> p)."""
    cx, cy, r = circle
    d = math.hypot(p[0] - cx, p[1] - cy)
    phi = math.atan2(p[1] - cy, p[0] - cx)
    t = phi + sign * math.acos(r / d)
    return (cx + r * math.cos(t), cy + r * math.sin(t))


def heart_design() -> tuple[Contour, dict[str, Point]]:
    """The heart outline (design frame, tip at the bottom) and its named points."""
    c, r, tip_y = HEART_C, HEART_R, HEART_TIP
    left, right = (-c, 0.0, r), (c, 0.0, r)
    tip = (0.0, tip_y)
    cleft = (0.0, -math.sqrt(r * r - c * c))
    left_tangent = _tangent_from(tip, left, +1.0)
    right_tangent = _tangent_from(tip, right, -1.0)
    contour: Contour = (
        tip,
        _clockwise_arc(left, left_tangent, cleft),
        _clockwise_arc(right, cleft, right_tangent),
    )
    points = {
        "tip": tip,
        "cleft": cleft,
        "left lobe top": (-c, -r),
        "right lobe top": (c, -r),
    }
    return contour, points
