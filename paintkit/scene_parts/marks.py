"""Outlined marks some structural tasks draw into the input: the squares of ``copying``,
the crop rectangle of ``cropping``.

A mark is an unfilled closed :class:`~paintkit.scene.Polygon` whose stroke (centered on
the polygon's edges, :data:`OUTLINE_WIDTH` px wide) uses a palette color reserved for it:
an object color that no shape of the scene uses, so the mark is told apart from every shape
and from the background by its color alone.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from paintkit.colors import ColorSplit, PaletteColor
from paintkit.scene import RGB, Point, Polygon, Stroke

OUTLINE_WIDTH = 4  # px, even: on whole-pixel edges the stroke covers whole pixel columns


def reserve_outline_color(rng: random.Random, split: ColorSplit) -> tuple[PaletteColor, list[RGB]]:
    """Pick the mark color from ``split.objects``; returns it and the other object colors
    (those the shapes may use)."""
    outline = rng.choice(split.objects)
    return outline, [c.rgb for c in split.objects if c != outline]


def outline_mark(mark_id: str, corners: Sequence[Point], color: RGB,
                 width: float = OUTLINE_WIDTH) -> Polygon:
    """An unfilled closed polygon through ``corners`` outlined in ``color``."""
    return Polygon(id=mark_id, points=tuple(corners), fill=None, stroke=Stroke(color, width))


def square_corners(x0: float, y0: float, side: float) -> tuple[Point, ...]:
    """Corners of the axis-aligned square with top-left ``(x0, y0)``, clockwise on screen."""
    return ((x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side))
