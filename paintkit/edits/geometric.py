"""Affine edits of one shape and the exact re-rendering of a scene after them.

Geometric answers are re-rendered from transformed geometry, never warped pixels: the
target's ``transform`` is composed with the edit's affine map, the target is moved to the
top or the bottom of the drawing order, and the whole scene is drawn again (so the vacated
area shows whatever background is there, and parts off the canvas are clipped).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from paintkit.edits.context import EditContext
from paintkit.edits.minimum import geometric_min_edit
from paintkit.language.phrases import CLIP_NOTE, VACATED_NOTE, layer_phrase
from paintkit.renderers import render
from paintkit.scene import Affine, Canvas, Point, Scene, Shape, compose
from paintkit.shapes import shape_area, shape_bounds, shape_outline

# An edited shape keeps at least this fraction of its bounds on the canvas.
MIN_VISIBLE = 0.5


def translation(dx: float, dy: float) -> Affine:
    return (1.0, 0.0, float(dx), 0.0, 1.0, float(dy))


def rotation_about(pivot: Point, degrees_clockwise: float) -> Affine:
    """Rotate by ``degrees_clockwise`` (on screen, y down) about ``pivot``."""
    t = math.radians(degrees_clockwise)
    c, s = math.cos(t), math.sin(t)
    px, py = pivot
    return (c, -s, px - c * px + s * py, s, c, py - s * px - c * py)


def reflection_across(p: Point, q: Point) -> Affine:
    """Mirror across the line through ``p`` and ``q`` (distinct points)."""
    (x1, y1), (x2, y2) = p, q
    dx, dy = x2 - x1, y2 - y1
    n = dx * dx + dy * dy
    if n == 0:
        raise ValueError(f"reflection axis needs two distinct points, got {p!r} twice")
    a, b = (dx * dx - dy * dy) / n, 2 * dx * dy / n
    # x' = p + R (x - p), with R = [[a, b], [b, -a]]
    return (a, b, x1 - a * x1 - b * y1, b, -a, y1 - b * x1 + a * y1)


def scaling_about(pivot: Point, sx: float, sy: float) -> Affine:
    px, py = pivot
    return (float(sx), 0.0, px - sx * px, 0.0, float(sy), py - sy * py)


def shear_about(axis: str, amount: float, fixed: float) -> Affine:
    """Shear along ``axis`` ("horizontal": x += amount * (y - fixed); "vertical":
    y += amount * (x - fixed)); points on the fixed line do not move."""
    if axis == "horizontal":
        return (1.0, float(amount), -amount * fixed, 0.0, 1.0, 0.0)
    if axis == "vertical":
        return (1.0, 0.0, 0.0, float(amount), 1.0, -amount * fixed)
    raise ValueError(f"shear axis must be 'horizontal' or 'vertical', got {axis!r}")


def transformed(shape: Shape, affine: Affine) -> Shape:
    """``shape`` with ``affine`` applied after its current placement."""
    return replace(shape, transform=compose(affine, shape.transform))


def place_edited(scene: Scene, new_shape: Shape, on_top: bool) -> Scene:
    """Replace the shape with ``new_shape.id`` and move it to the top or the bottom."""
    rest = scene.without(new_shape.id)
    return rest.with_elements(new_shape, on_top=on_top)


def visible_fraction(bounds: tuple[float, float, float, float], canvas: Canvas) -> float:
    """Fraction of the box ``(x0, y0, x1, y1)`` (canvas px) that lies on ``canvas``."""
    x0, y0, x1, y1 = bounds
    inside_w = max(0.0, min(x1, canvas.width) - max(x0, 0.0))
    inside_h = max(0.0, min(y1, canvas.height) - max(y0, 0.0))
    area = (x1 - x0) * (y1 - y0)
    return inside_w * inside_h / area if area > 0 else 0.0


def mapped_bounds(points: np.ndarray, affine: Affine) -> tuple[float, float, float, float]:
    """Bounds ``(x0, y0, x1, y1)`` of float ``(N, 2)`` ``points`` mapped through ``affine``
    (a cheap preview of an edited outline's bounds, before any re-flattening)."""
    a, b, c, d, e, f = affine
    x = a * points[:, 0] + b * points[:, 1] + c
    y = d * points[:, 0] + e * points[:, 1] + f
    return (float(x.min()), float(y.min()), float(x.max()), float(y.max()))


def outline_vertices(shape: Shape) -> np.ndarray:
    """float ``(N, 2)``: every vertex of the placed outline of ``shape`` (canvas px)."""
    return np.concatenate(shape_outline(shape))


def affine_edit_problem(ctx: EditContext, scene: Scene, target: Shape, affine: Affine, sentence: str,
                        params: Mapping[str, Any]):
    """The problem "apply ``affine`` to ``target``", stated by ``sentence`` (a
    :class:`~paintkit.tasks.Problem` made by ``ctx.problem``).

    Composes ``affine`` into the target's placement, puts the edited shape on top of or
    beneath the others (50/50 from ``ctx.rng``; the instruction says which), re-renders
    both scenes and checks the edit: the seed is rejected when less than
    :data:`MIN_VISIBLE` of the edited shape's bounds stays on the canvas or the edit region
    is smaller than :func:`~paintkit.edits.minimum.geometric_min_edit` of the target's area
    (degenerate edits: a symmetry of the shape). ``params`` gains ``on_top`` and the edit's
    ``affine`` ``[a, b, c, d, e, f]``.
    """
    edited = transformed(target, affine)
    if visible_fraction(shape_bounds(edited), scene.canvas) < MIN_VISIBLE:
        raise ctx.reject("the edited shape would mostly leave the canvas")
    on_top = ctx.rng.random() < 0.5
    answer_scene = place_edited(scene, edited, on_top)
    instruction = " ".join((sentence, layer_phrase(on_top), VACATED_NOTE, CLIP_NOTE))
    return ctx.problem(
        render(scene), render(answer_scene), instruction, scene=scene, answer_scene=answer_scene,
        targets=(target.id,), min_edit_pixels=geometric_min_edit(shape_area(target)),
        params={**params, "on_top": on_top, "affine": list(affine)},
    )
