"""Translation: move one shape by a stated displacement (``amount``) or so that one of its
named control points lands on a named point of another shape or of the canvas (``align``).

Parameters the answer depends on: the target, ``dx``/``dy`` in pixels (``amount``: whole
percents of the canvas width / height), and whether the moved shape goes on top of or
beneath overlapping shapes.
"""

from __future__ import annotations

from paintkit.edits.geometric import affine_edit_problem, translation
from paintkit.language.phrases import (
    describe_shape,
    join_words,
    point_on_canvas,
)
from paintkit.language.points import named_points, own_point_phrase, point_phrase
from paintkit.sampling.condition import condition_scene
from paintkit.shapes import canvas_points
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="translation",
    category="geometric_transformation",
    modes=("amount", "align"),
    parameters={
        "amount": "whole percents of the canvas width and/or height in [5, 40], either sign",
        "align": "a target control point (intrinsic or bounding-box) moves onto a named point "
                 "of another shape (50%) or of the canvas (50%)",
        "on_top": "the moved shape goes on top of (50%) or beneath overlapping shapes",
    },
)
PERCENT_RANGE = (5, 40)


def _amount(ctx, canvas):
    rng = ctx.rng
    axes = rng.choice(("x", "y", "both"))
    px = rng.randint(*PERCENT_RANGE) * rng.choice((-1, 1)) if axes in ("x", "both") else 0
    py = rng.randint(*PERCENT_RANGE) * rng.choice((-1, 1)) if axes in ("y", "both") else 0
    parts = []
    if px:
        parts.append(f"{abs(px)}% of the canvas width to the {'right' if px > 0 else 'left'}")
    if py:
        parts.append(f"{abs(py)}% of the canvas height {'down' if py > 0 else 'up'}")
    dx, dy = px * canvas.width / 100, py * canvas.height / 100
    return dx, dy, join_words(parts), {"dx_percent": px, "dy_percent": py}


def _align(ctx, scene, target, phrase):
    rng = ctx.rng
    own = named_points(target)
    own_name = rng.choice(sorted(own))
    others = [s for s in scene.shapes if s.id != target.id]
    if others and rng.random() < 0.5:
        ref_shape = rng.choice(others)
        ref_points = named_points(ref_shape)
        ref_name = rng.choice(sorted(ref_points))
        ref = ref_points[ref_name]
        ref_text = point_phrase(ref_name, describe_shape(ref_shape, scene.shapes))
        ref_info = {"reference_shape": ref_shape.id, "reference_point": ref_name}
    else:
        ref_points = canvas_points(scene.canvas)
        ref_name = rng.choice(sorted(ref_points))
        ref = ref_points[ref_name]
        ref_text = point_on_canvas(ref_name)
        ref_info = {"reference_shape": None, "reference_point": ref_name}
    x, y = own[own_name]
    text = f"so that {own_point_phrase(own_name)} lands on {ref_text}"
    return ref[0] - x, ref[1] - y, text, {"target_point": own_name, **ref_info}


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    scene = condition_scene(ctx.rng, ctx.condition, SPEC.counts).scene
    target = ctx.rng.choice(scene.shapes)
    phrase = describe_shape(target, scene.shapes)
    if ctx.mode == "amount":
        dx, dy, how, info = _amount(ctx, scene.canvas)
        sentence = f"Move {phrase} {how}."
    else:
        dx, dy, how, info = _align(ctx, scene, target, phrase)
        sentence = f"Move {phrase} {how}."
    if abs(dx) < 1 and abs(dy) < 1:
        raise ctx.reject("displacement under one pixel")
    return affine_edit_problem(ctx, scene, target, translation(dx, dy), sentence,
                               {"dx": dx, "dy": dy, **info})
