"""Affine edits of one shape and the exact re-rendering of a scene after them.

Geometric answers are re-rendered from transformed geometry, never warped pixels: the
target's ``transform`` is composed with the edit's affine map, the target is moved to the
top or the bottom of the drawing order, and the whole scene is drawn again (so the vacated
area shows whatever background is there, and parts off the canvas are clipped).
"""

from __future__ import annotations

import math
from dataclasses import replace

from paintkit.scene import Affine, Point, Scene, Shape, compose


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
