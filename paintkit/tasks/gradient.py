"""Gradient: paint a linear gradient between two stated colors over the background pixels
(``background``) or the shape pixels (``foreground``) inside an outlined parallelogram
("inside" and the scopes as :mod:`paintkit.edits.regions` defines them).

The gradient runs from a start point ``P0`` (color ``c0``) to an end point ``P1`` (color
``c1``), both whole-pixel canvas coordinates stated in the instruction:

- ``side_to_side``: ``P0`` and ``P1`` lie on two opposite sides of the parallelogram, and
  those sides are perpendicular to ``P0 -> P1``, so the colors change from one side to the
  other and are constant along lines parallel to them;
- ``corner_to_corner``: ``P0`` and ``P1`` are opposite corners.

Per selected pixel with center ``(x, y) = (col + 0.5, row + 0.5)``
(:func:`paintkit.kernels.gradient.linear_gradient_numba`)::

    t = clamp(((x - x0)(x1 - x0) + (y - y0)(y1 - y0)) / ((x1 - x0)^2 + (y1 - y0)^2), 0, 1)
    channel = round(c0 + t (c1 - c0)), halves rounded up

The instruction states P0, P1, both colors and this formula. Parameters the answer depends
on: the outline, the scope, P0, P1, c0, c1 (the ``direction`` only says how they were chosen).
"""

from __future__ import annotations

import math
import random

from paintkit.edits.regions import (
    fit_to_canvas,
    min_region_pixels,
    new_color_choices,
    outline_phrase,
    outlined_scene,
    region_params,
    scope_mask,
    scope_phrase,
    unchanged_note,
)
from paintkit.kernels.gradient import linear_gradient_numba
from paintkit.language.phrases import color_code_phrase, format_point
from paintkit.scene import Canvas, Point
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="gradient",
    category="color_change",
    modes=("background", "foreground"),
    parameters={
        "outline": "a parallelogram outlined in a palette color the scene does not use, drawn "
                   "around a random shape; sides 25-45% of the shorter canvas side",
        "direction": "side_to_side (P0, P1 on opposite sides, perpendicular to them) or "
                     "corner_to_corner (opposite corners), 1/2 each",
        "colors": "two different palette colors, not a background color or the outline's",
    },
)
DIRECTIONS = ("side_to_side", "corner_to_corner")
SIDE_RANGE = (0.25, 0.45)  # of the shorter canvas side
SCOPE_OF_MODE = {"background": "background", "foreground": "shapes"}
COORDINATE_NOTE = ("Coordinates are (x, y) in pixels from the top-left corner of the canvas, "
                   "x to the right and y down; the pixel in column j and row i has its center "
                   "at (j + 0.5, i + 0.5).")


def _side_to_side(rng: random.Random, short: int, around: Point):
    """Axis P0 -> P1 (whole pixels) and a parallelogram with two sides through P0 and P1,
    perpendicular to the axis; the other two sides sheared by up to 35% of the axis length."""
    length = rng.uniform(*SIDE_RANGE) * short
    angle = rng.uniform(0.0, 2 * math.pi)
    ux, uy = math.cos(angle), math.sin(angle)
    p0 = (round(around[0] - ux * length / 2), round(around[1] - uy * length / 2))
    p1 = (round(around[0] + ux * length / 2), round(around[1] + uy * length / 2))
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    norm = math.hypot(dx, dy)
    nx, ny = -dy / norm, dx / norm
    a = rng.uniform(*SIDE_RANGE) * short / 2
    b = rng.uniform(*SIDE_RANGE) * short / 2
    shear = rng.uniform(-0.35, 0.35) * norm
    corners = [(p0[0] + a * nx, p0[1] + a * ny),
               (p1[0] + (shear + a) * nx, p1[1] + (shear + a) * ny),
               (p1[0] + (shear - b) * nx, p1[1] + (shear - b) * ny),
               (p0[0] - b * nx, p0[1] - b * ny)]
    return p0, p1, corners


def _corner_to_corner(rng: random.Random, short: int, around: Point):
    """A parallelogram with whole-pixel corners (edges 25-45% of the shorter side, 50-130
    degrees apart) and the axis between two opposite corners."""
    l1, l2 = (rng.uniform(*SIDE_RANGE) * short for _ in range(2))
    a1 = rng.uniform(0.0, 2 * math.pi)
    a2 = a1 + math.radians(rng.uniform(50.0, 130.0))
    e1 = (round(l1 * math.cos(a1)), round(l1 * math.sin(a1)))
    e2 = (round(l2 * math.cos(a2)), round(l2 * math.sin(a2)))
    v0 = (round(around[0] - (e1[0] + e2[0]) / 2), round(around[1] - (e1[1] + e2[1]) / 2))
    corners = [v0, (v0[0] + e1[0], v0[1] + e1[1]),
               (v0[0] + e1[0] + e2[0], v0[1] + e1[1] + e2[1]), (v0[0] + e2[0], v0[1] + e2[1])]
    k = rng.randrange(4)
    return corners[k], corners[(k + 2) % 4], corners


def _shifted(point: Point, before: list[Point], after: list[Point]) -> tuple[int, int]:
    return (round(point[0] + after[0][0] - before[0][0]),
            round(point[1] + after[0][1] - before[0][1]))


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    rng = ctx.rng
    direction = rng.choice(DIRECTIONS)
    axis: dict[str, tuple[int, int]] = {}

    def make_points(rng: random.Random, canvas: Canvas, around: Point):
        build = _side_to_side if direction == "side_to_side" else _corner_to_corner
        p0, p1, corners = build(rng, canvas.shorter_side, around)
        fitted = fit_to_canvas(corners, canvas)  # shifts by whole pixels
        if fitted is not None:
            axis["p0"], axis["p1"] = _shifted(p0, corners, fitted), _shifted(p1, corners, fitted)
        return fitted

    split, region, image = outlined_scene(ctx, make_points)
    scope = SCOPE_OF_MODE[ctx.mode]
    mask = scope_mask(region, image, scope)
    if not mask.any():
        raise ctx.reject(f"no {scope} pixel inside the outline")
    c0, c1 = (c.rgb for c in rng.sample(new_color_choices(split, region, 2), 2))
    p0, p1 = axis["p0"], axis["p1"]
    top, left = region.window[0].start, region.window[1].start
    # The kernel works on the window: move the axis into window coordinates (exact: whole px).
    local0 = (p0[0] - left, p0[1] - top)
    local1 = (p1[0] - left, p1[1] - top)
    answer = region.paste(image, linear_gradient_numba(region.crop(image), mask, local0, local1, c0, c1))
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    name0, name1 = color_code_phrase(c0), color_code_phrase(c1)
    where0, where1 = (("the side through", "the opposite side through") if direction == "side_to_side"
                      else ("the corner", "the opposite corner"))
    striped = region.scene.background.stripes is not None
    instruction = (
        f"Paint a linear gradient over {scope_phrase(scope, striped)} inside "
        f"{outline_phrase(region, 'parallelogram outline')}, from {name0} at {where0} "
        f"{format_point(p0)} to {name1} at {where1} {format_point(p1)}. A pixel whose center "
        f"is (x, y) gets t = ((x − {p0[0]}) × {_signed(dx)} + (y − {p0[1]}) × {_signed(dy)}) / "
        f"{dx * dx + dy * dy}, clamped to [0, 1], and each color channel becomes "
        f"round(a + t × (b − a)), with halves rounded up, where a and b are that channel of "
        f"{name0} and {name1}. {COORDINATE_NOTE} {unchanged_note(scope)}"
    )
    return ctx.problem(
        image, answer, instruction, scene=region.scene, targets=(region.outline.id,),
        min_edit_pixels=min_region_pixels(region.scene.canvas),
        params={**region_params(region), "scope": scope, "direction": direction,
                "p0": list(p0), "p1": list(p1), "c0": list(c0), "c1": list(c1)},
    )


def _signed(value: int) -> str:
    return str(value) if value >= 0 else f"(−{-value})"
