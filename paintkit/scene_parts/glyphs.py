"""Small drawn marks as filled :class:`~paintkit.scene.Polygon` elements: rectangles, bars,
arrows and crosses (tally marks, grid lines, legend keys).

Polygons rather than :class:`~paintkit.scene.Line` elements: a filled polygon renders in a
few microseconds, a round-capped line costs ~0.1 ms (its caps are flattened each render).
Boxes are ``(x0, y0, x1, y1)`` in canvas pixels; a box on whole pixels fills exactly the
pixels ``x0 <= col < x1``, ``y0 <= row < y1``.
"""

from __future__ import annotations

import math

from paintkit.scene import RGB, Point, Polygon

Box = tuple[float, float, float, float]


def rectangle(element_id: str, box: Box, color: RGB) -> Polygon:
    """The filled axis-aligned rectangle ``box``."""
    x0, y0, x1, y1 = box
    return Polygon(element_id, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), fill=color)


def bar(element_id: str, start: Point, end: Point, thickness: float, color: RGB) -> Polygon:
    """A straight bar of ``thickness`` px from ``start`` to ``end`` (square, flush ends)."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        raise ValueError(f"bar {element_id!r} needs distinct start and end, got {start!r} twice")
    nx, ny = -(y1 - y0) / length * thickness / 2, (x1 - x0) / length * thickness / 2
    return Polygon(element_id, ((x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny),
                                (x0 - nx, y0 - ny)), fill=color)


def right_arrow(element_id: str, x0: float, x1: float, y: float, thickness: float,
                head: float, color: RGB) -> Polygon:
    """An arrow pointing right from ``x0`` to its tip at ``x1`` on the row ``y``: a shaft of
    ``thickness`` px and a head ``head`` px long and ``head`` px wide."""
    xh = x1 - head
    t, h = thickness / 2, head / 2
    return Polygon(element_id, ((x0, y - t), (xh, y - t), (xh, y - h), (x1, y), (xh, y + h),
                                (xh, y + t), (x0, y + t)), fill=color)


def cross(id_prefix: str, box: Box, thickness: float, color: RGB) -> tuple[Polygon, Polygon]:
    """An X across ``box``: two bars corner to corner, ids ``{id_prefix}a`` / ``b``."""
    x0, y0, x1, y1 = box
    return (bar(f"{id_prefix}a", (x0, y0), (x1, y1), thickness, color),
            bar(f"{id_prefix}b", (x1, y0), (x0, y1), thickness, color))
