"""Reflection: mirror one shape across one of the 8 axes of its own axis-aligned bounding box
(``local``: 4 edges, 2 center lines, 2 diagonals) or across the line through two external
points (``external``: two named points of other shapes or of the canvas, or two explicit
whole-pixel canvas coordinates).

A diagonal is the line through two opposite corners of the bounding box (a true mirror
across that line, not a swap of the box's axes). Reflecting a symmetric shape across its own
symmetry axis is degenerate and rejected by the edit-size check.

Parameters the answer depends on: the target, the two points ``axis_points`` (canvas px)
the mirror line passes through and how they were named, and whether the reflected shape goes
on top of or beneath overlapping shapes.
"""

from __future__ import annotations

import math

from paintkit.edits.geometric import (
    MIN_VISIBLE,
    affine_edit_problem,
    mapped_bounds,
    outline_vertices,
    reflection_across,
    visible_fraction,
)
from paintkit.language.phrases import COORDINATE_NOTE, coordinate_phrase, describe_shape
from paintkit.language.points import reference_point
from paintkit.sampling.condition import condition_scene
from paintkit.shapes import box_points, shape_bounds
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="reflection",
    category="geometric_transformation",
    modes=("local", "external"),
    parameters={
        "local": "one of the 8 axes of the target's axis-aligned bounding box: 4 edges, the "
                 "vertical and horizontal center lines, the 2 corner-to-corner diagonals",
        "external": "the line through two named points (each of another shape or the canvas; 50%) "
                    "or through two explicit whole-pixel canvas coordinates (50%), at least "
                    "10% of the shorter canvas side apart",
        "on_top": "the reflected shape goes on top of (50%) or beneath overlapping shapes",
    },
)
# Axis name -> (the two bounding-box points it passes through, its words after "across").
BOX_AXES: dict[str, tuple[str, str, str]] = {
    "top edge": ("top-left corner", "top-right corner", "the top edge of its bounding box"),
    "bottom edge": ("bottom-left corner", "bottom-right corner", "the bottom edge of its bounding box"),
    "left edge": ("top-left corner", "bottom-left corner", "the left edge of its bounding box"),
    "right edge": ("top-right corner", "bottom-right corner", "the right edge of its bounding box"),
    "vertical center line": ("top edge midpoint", "bottom edge midpoint",
                             "the vertical center line of its bounding box"),
    "horizontal center line": ("left edge midpoint", "right edge midpoint",
                               "the horizontal center line of its bounding box"),
    "main diagonal": ("top-left corner", "bottom-right corner",
                      "the diagonal of its bounding box from the top-left corner to the "
                      "bottom-right corner (the straight line through those two corners)"),
    "anti-diagonal": ("top-right corner", "bottom-left corner",
                      "the diagonal of its bounding box from the top-right corner to the "
                      "bottom-left corner (the straight line through those two corners)"),
}
LINE_SOURCES: tuple[str, ...] = ("named", "coordinate")
MIN_SPAN = 0.1  # the two points of an external axis are this fraction of the shorter side apart
LINE_TRIES = 32


def _local_axis(ctx, target, canvas):
    """One of the 8 box axes (shuffled) that keeps the mirrored shape mostly on the canvas."""
    box = box_points(shape_bounds(target))
    vertices = outline_vertices(target)
    names = list(BOX_AXES)
    ctx.rng.shuffle(names)
    for name in names:
        p_name, q_name, text = BOX_AXES[name]
        p, q = box[p_name], box[q_name]
        if visible_fraction(mapped_bounds(vertices, reflection_across(p, q)), canvas) >= MIN_VISIBLE:
            return p, q, text, {"axis": name, "axis_kind": "bounding box"}
    raise ctx.reject("every bounding-box axis sends the shape off the canvas")


def _external_axis(ctx, scene, target):
    """A line through two named points or two coordinates (drawn once which) that keeps the
    mirrored shape mostly on the canvas."""
    rng, canvas = ctx.rng, scene.canvas
    source = rng.choice(LINE_SOURCES)
    vertices = outline_vertices(target)
    min_span = MIN_SPAN * canvas.shorter_side
    for _ in range(LINE_TRIES):
        if source == "coordinate":
            p, q = ((float(rng.randint(0, canvas.width)), float(rng.randint(0, canvas.height)))
                    for _ in range(2))
            texts = (coordinate_phrase(p), coordinate_phrase(q))
            info = {"axis_kind": "coordinates"}
        else:
            (p, p_text, p_ref), (q, q_text, q_ref) = (
                reference_point(rng, scene, rng.choice(("shape", "canvas")), exclude=target.id)
                for _ in range(2))
            texts = (p_text, q_text)
            info = {"axis_kind": "named points",
                    "reference_shapes": [p_ref["reference_shape"], q_ref["reference_shape"]],
                    "reference_points": [p_ref["reference_point"], q_ref["reference_point"]]}
        if math.dist(p, q) < min_span:
            continue
        if visible_fraction(mapped_bounds(vertices, reflection_across(p, q)), canvas) >= MIN_VISIBLE:
            return p, q, f"the straight line through {texts[0]} and {texts[1]}", info
    raise ctx.reject(f"no line through two {source} points keeps the mirrored shape on the canvas")


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    scene = condition_scene(ctx.rng, ctx.condition, SPEC.counts).scene
    target = ctx.rng.choice(scene.shapes)
    phrase = describe_shape(target, scene.shapes)
    if ctx.mode == "local":
        p, q, axis_text, info = _local_axis(ctx, target, scene.canvas)
    else:
        p, q, axis_text, info = _external_axis(ctx, scene, target)
    sentence = f"Reflect {phrase} across {axis_text}."
    if info["axis_kind"] == "coordinates":
        sentence += " " + COORDINATE_NOTE
    params = {"axis_points": [[float(p[0]), float(p[1])], [float(q[0]), float(q[1])]], **info}
    return affine_edit_problem(ctx, scene, target, reflection_across(p, q), sentence, params)
