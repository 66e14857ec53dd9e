"""Cropping: crop an outlined rectangle with the canvas's aspect ratio and scale it up to fill
the canvas with nearest-neighbour resampling.

The rectangle is ``p`` % of the canvas width and height (``p`` a whole number in [25, 75]),
centered on a named point (a control point of a shape, or the center of the canvas) and, in
``tilted`` mode, rotated about its center by a whole number of degrees in [-44, 45] \\ {0}
(positive clockwise). It lies inside the canvas together with its outline: a closed polygon
in a reserved color (see :mod:`paintkit.scene_parts.marks`), stroked
:data:`~paintkit.scene_parts.marks.OUTLINE_WIDTH` px wide and centered on the rectangle's edges,
drawn over the shapes.

The outline is part of the input image, so its inner half lies inside the rectangle and
shows in the crop. The answer is pixel-space: output pixel ``(row y, col x)`` takes the input
pixel containing the point ``center + R(angle) ((x + 0.5 - W/2) w / W, (y + 0.5 - H/2) h / H)``
(``w``, ``h`` the rectangle's size, ``R`` the clockwise rotation), i.e.
:func:`paintkit.kernels.warp.crop_rect_inverse_map` and
:func:`~paintkit.kernels.warp.warp_affine_nearest_numba`; the rectangle's pre-rotation top edge
becomes the top of the result. No answer scene is recorded.
"""

from __future__ import annotations

import math

from paintkit.colors import color_noun
from paintkit.kernels.warp import crop_rect_inverse_map, warp_affine_nearest_numba
from paintkit.language.phrases import describe_shape, point_on_canvas
from paintkit.language.points import named_points, point_phrase
from paintkit.renderers import render
from paintkit.sampling.condition import condition_background
from paintkit.sampling.shapes import sample_shapes
from paintkit.scene import Canvas, Scene
from paintkit.scene_parts.marks import OUTLINE_WIDTH, outline_mark, reserve_outline_color
from paintkit.shapes import canvas_points
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="cropping",
    category="structural_manipulation",
    modes=("straight", "tilted"),
    parameters={
        "size": "whole percent p in [25, 75] of the canvas width and height (canvas aspect)",
        "center": "a named control point of a shape (85%) or the center of the canvas (15%)",
        "angle": "tilted: whole degrees in [-44, 45] without 0, positive clockwise",
    },
)
PERCENT_RANGE = (25, 75)
ANGLE_RANGE = (-44, 45)
CANVAS_CENTER_SHARE = 0.15
DRAWS = 30
EDGE_ROOM = OUTLINE_WIDTH / 2 + 1  # px between the rectangle and the canvas edge


def _center(rng, scene: Scene):
    """A named point: (xy, words, {"shape": id or None, "point": name})."""
    if rng.random() < CANVAS_CENTER_SHARE:
        name = "center of the canvas"
        return canvas_points(scene.canvas)[name], point_on_canvas(name), {"shape": None, "point": name}
    shape = rng.choice(scene.shapes)
    points = named_points(shape)
    name = rng.choice(sorted(points))
    words = point_phrase(name, describe_shape(shape, scene.shapes))
    return points[name], words, {"shape": shape.id, "point": name}


def _largest_percent(center, canvas: Canvas, angle: float) -> int:
    """Largest whole percent p such that the rectangle (p% of the canvas, rotated by
    ``angle``) centered at ``center`` stays EDGE_ROOM inside the canvas."""
    c, s = abs(math.cos(math.radians(angle))), abs(math.sin(math.radians(angle)))
    half_w, half_h = canvas.width / 2, canvas.height / 2
    room_x = min(center[0], canvas.width - center[0]) - EDGE_ROOM
    room_y = min(center[1], canvas.height - center[1]) - EDGE_ROOM
    # half extents at scale t: x: t (half_w c + half_h s), y: t (half_w s + half_h c)
    t = min(room_x / (half_w * c + half_h * s), room_y / (half_w * s + half_h * c))
    return math.floor(100 * t - 1e-9)


def _corners(center, width: float, height: float, angle: float):
    """Corners of the rotated rectangle, starting at its pre-rotation top-left, clockwise."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    cx, cy = center
    out = []
    for lx, ly in ((-width / 2, -height / 2), (width / 2, -height / 2),
                   (width / 2, height / 2), (-width / 2, height / 2)):
        out.append((cx + lx * c - ly * s, cy + lx * s + ly * c))
    return out


def _size(v: float) -> str:
    return f"{round(v, 2):g}"


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    rng = ctx.rng
    split, background = condition_background(rng, ctx.condition)
    outline, colors = reserve_outline_color(rng, split)
    canvas = Canvas(ctx.condition.width, ctx.condition.height)
    shapes = sample_shapes(rng, canvas, colors, ctx.count)
    scene = Scene(canvas, background, tuple(shapes))
    angle = 0
    if ctx.mode == "tilted":
        angle = rng.choice([a for a in range(ANGLE_RANGE[0], ANGLE_RANGE[1] + 1) if a != 0])
    for _ in range(DRAWS):
        center, words, ref = _center(rng, scene)
        largest = min(PERCENT_RANGE[1], _largest_percent(center, canvas, angle))
        if largest >= PERCENT_RANGE[0]:
            break
    else:
        raise ctx.reject("no named point leaves room for a 25% crop")
    percent = rng.randint(PERCENT_RANGE[0], largest)
    width, height = percent * canvas.width / 100, percent * canvas.height / 100
    mark = outline_mark("crop_outline", _corners(center, width, height, angle), outline.rgb)
    scene = scene.with_elements(mark)
    input_px = render(scene)
    inverse = crop_rect_inverse_map(center, width, height, float(angle), (canvas.width, canvas.height))
    answer_px = warp_affine_nearest_numba(input_px, inverse, (canvas.width, canvas.height))

    where = (f"a rectangle {percent}% of the canvas width and height ({_size(width)} x "
             f"{_size(height)} pixels) centered on {words}")
    if angle:
        turn = f"{abs(angle)} degrees {'clockwise' if angle > 0 else 'counter-clockwise'}"
        where += (f" and rotated {turn} about its center; turn the crop back by the same angle "
                  f"so that the rectangle's top edge before the rotation becomes the top of the result")
    instruction = (
        f"Crop the image to the region outlined in {color_noun(outline.rgb)}, {where}, and "
        f"scale it up to fill the whole {canvas.width} x {canvas.height} canvas using "
        f"nearest-neighbour resampling: each output pixel takes the color of the input pixel "
        f"that contains the matching point of the rectangle (for the output pixel's center). "
        f"The rectangle's edges run along the middle of the outline, so the outline's inner "
        f"half is part of the crop."
    )
    return ctx.problem(
        input_px, answer_px, instruction, scene=scene, targets=(),
        params={"center": list(center), "center_ref": ref, "percent": percent, "width": width,
                "height": height, "angle": angle, "outline_color": list(outline.rgb),
                "outline_width": OUTLINE_WIDTH, "inverse_map": inverse.tolist()},
    )
