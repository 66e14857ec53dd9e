"""Rotation: turn one shape by a stated angle, clockwise or counter-clockwise, about one of
its own named points (``local``) or about an external pivot (``external``): a named point of
another shape or of the canvas, or an explicit whole-pixel canvas coordinate.

Angles: a third from {90, 180, 270}, a third other multiples of 15, a third other whole
degrees. Degenerate rotations (a circle about its center, a hexagon by a multiple of 60
degrees about its center, ...) are rejected by the edit-size check, not by a list.

Parameters the answer depends on: the target, ``angle`` (degrees), ``direction``
(``degrees_clockwise`` = signed angle, positive clockwise on screen), the ``pivot`` in
canvas px and how it was named, and whether the rotated shape goes on top of or beneath
overlapping shapes.
"""

from __future__ import annotations

from paintkit.edits.geometric import (
    MIN_VISIBLE,
    affine_edit_problem,
    mapped_bounds,
    outline_vertices,
    rotation_about,
    visible_fraction,
)
from paintkit.language.phrases import COORDINATE_NOTE, coordinate_phrase, describe_shape
from paintkit.language.points import named_points, own_point_phrase, reference_point
from paintkit.sampling.condition import condition_scene
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="rotation",
    category="geometric_transformation",
    modes=("local", "external"),
    parameters={
        "angle": "whole degrees: 1/3 from {90, 180, 270}, 1/3 other multiples of 15, 1/3 other "
                 "whole degrees in [1, 359]",
        "direction": "clockwise or counter-clockwise (50/50)",
        "local": "pivot: one of the target's own named points (orientation-free intrinsic points "
                 "on rotated shapes, plus the 9 bounding-box points)",
        "external": "pivot: a named point of another shape, a named canvas point or an explicit "
                    "whole-pixel canvas coordinate (1/3 each)",
        "on_top": "the rotated shape goes on top of (50%) or beneath overlapping shapes",
    },
)
RIGHT_ANGLES: tuple[int, ...] = (90, 180, 270)
FIFTEENS: tuple[int, ...] = tuple(a for a in range(15, 360, 15) if a not in RIGHT_ANGLES)
OTHER_ANGLES: tuple[int, ...] = tuple(a for a in range(1, 360) if a % 15)
DIRECTIONS: tuple[str, ...] = ("clockwise", "counter-clockwise")
PIVOT_SOURCES: tuple[str, ...] = ("shape", "canvas", "coordinate")
PIVOT_TRIES = 24  # external pivots drawn before giving up on keeping the shape on the canvas


def sample_angle(rng) -> int:
    """A whole-degree angle in [1, 359]: a third each from the three angle classes."""
    return rng.choice((RIGHT_ANGLES, FIFTEENS, OTHER_ANGLES)[rng.randrange(3)])


def _local_pivot(ctx, target):
    points = named_points(target)
    name = ctx.rng.choice(sorted(points))
    info = {"pivot_kind": "own", "pivot_point": name, "reference_shape": None}
    return points[name], own_point_phrase(name), info


def _external_pivot(ctx, scene, target, degrees_clockwise):
    """A pivot of one source (drawn once) about which the rotated shape stays mostly visible."""
    rng, canvas = ctx.rng, scene.canvas
    source = rng.choice(PIVOT_SOURCES)
    vertices = outline_vertices(target)
    for _ in range(PIVOT_TRIES):
        if source == "coordinate":
            pivot = (float(rng.randint(0, canvas.width)), float(rng.randint(0, canvas.height)))
            text = coordinate_phrase(pivot)
            info = {"pivot_kind": "coordinate", "pivot_point": None, "reference_shape": None}
        else:
            pivot, text, ref = reference_point(rng, scene, source, exclude=target.id)
            info = {"pivot_kind": source, "pivot_point": ref["reference_point"],
                    "reference_shape": ref["reference_shape"]}
        bounds = mapped_bounds(vertices, rotation_about(pivot, degrees_clockwise))
        if visible_fraction(bounds, canvas) >= MIN_VISIBLE:
            return pivot, text, info
    raise ctx.reject(f"no {source} pivot keeps the rotated shape on the canvas")


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    scene = condition_scene(ctx.rng, ctx.condition, SPEC.counts).scene
    target = ctx.rng.choice(scene.shapes)
    phrase = describe_shape(target, scene.shapes)
    angle = sample_angle(ctx.rng)
    direction = ctx.rng.choice(DIRECTIONS)
    degrees_clockwise = angle if direction == "clockwise" else -angle
    if ctx.mode == "local":
        pivot, pivot_text, info = _local_pivot(ctx, target)
    else:
        pivot, pivot_text, info = _external_pivot(ctx, scene, target, degrees_clockwise)
    sentence = f"Rotate {phrase} {angle} degrees {direction} about {pivot_text}."
    if info["pivot_kind"] == "coordinate":
        sentence += " " + COORDINATE_NOTE
    params = {"angle": angle, "direction": direction, "degrees_clockwise": degrees_clockwise,
              "pivot": [float(pivot[0]), float(pivot[1])], **info}
    return affine_edit_problem(ctx, scene, target, rotation_about(pivot, degrees_clockwise),
                               sentence, params)
