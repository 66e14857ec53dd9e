"""Recolor: give every shape of a described target set a new fill color, stated as a hex code
(``color_code``) or as the color of another, named shape (``dropper``, no code given).

Target sets (1/4 each): one described shape ("the red star"), every shape of a color ("every
red shape"), every shape of a type ("every star"), or the complement of one of those ("every
shape except the red star", "every shape that is not red", "every shape that is not a star").

The new color differs from the current color of every target (no target keeps its color)
and from the background colors. ``color_code``: a palette color other than the background
colors, given by name and code (50%), or a random color given by code only (50%), at least
64 away in some channel from the background colors and every scene color. ``dropper``: the
fill of a non-target shape, named by its type when that is unique, else by its shortest
unique description (which then names the color).

The answer is the scene re-rendered with the new fills (exact). Parameters: the selector
(``kind``: shape / color / type, ``value``, ``negate``), the new color and, for ``dropper``,
the source shape.
"""

from __future__ import annotations

import random
from dataclasses import replace

from paintkit.colors import describe_color, rgb_to_hex
from paintkit.edits.regions import palette_colors
from paintkit.language.phrases import article, color_code_phrase, describe_shape
from paintkit.renderers import render
from paintkit.sampling.condition import condition_scene
from paintkit.scene import RGB, Scene, Shape
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="recolor",
    category="color_change",
    modes=("color_code", "dropper"),
    parameters={
        "targets": "one shape, every shape of a color, every shape of a type, or the "
                   "complement of one of these (1/4 each)",
        "color_code": "a palette color not worn by any target (name and code, 50%) or a random "
                      "code at least 64 away in some channel from every scene color (50%)",
        "dropper": "the fill of a non-target shape whose color no target has",
    },
)
SELECTOR_KINDS = ("shape", "color", "type")
MIN_CHANNEL_GAP = 64
RANDOM_COLOR_TRIES = 50
SELECTOR_TRIES = 20  # dropper: complements of big sets often leave no source color


def _select(rng: random.Random, shapes: tuple[Shape, ...]) -> tuple[dict, str, list[Shape]]:
    """Random selector -> (params, phrase, targets)."""
    pivot = rng.choice(shapes)
    kind = rng.choice(SELECTOR_KINDS)
    negate = rng.random() < 0.25
    if kind == "shape":
        value = pivot.id
        member = [s.id == pivot.id for s in shapes]
        desc = describe_shape(pivot, shapes)
        phrase = f"every shape except {desc}" if negate else desc
    elif kind == "color":
        value = rgb_to_hex(pivot.fill)
        member = [s.fill == pivot.fill for s in shapes]
        name = describe_color(pivot.fill)
        phrase = f"every shape that is not {name}" if negate else f"every {name} shape"
    else:
        value = pivot.type
        member = [s.type == pivot.type for s in shapes]
        phrase = (f"every shape that is not {article(pivot.type)} {pivot.type}" if negate
                  else f"every {pivot.type}")
    targets = [s for s, m in zip(shapes, member, strict=True) if m != negate]
    return {"kind": kind, "value": value, "negate": negate}, phrase, targets


def _far_from(color: RGB, others: set[RGB]) -> bool:
    return all(max(abs(a - b) for a, b in zip(color, o, strict=True)) >= MIN_CHANNEL_GAP
               for o in others)


def _color_code(ctx, split, scene: Scene, targets: list[Shape]) -> tuple[RGB, str, dict]:
    rng = ctx.rng
    banned = set(scene.background.colors) | {s.fill for s in targets}
    if rng.random() < 0.5:
        choices = [c.rgb for c in palette_colors(split) if c.rgb not in banned]
        color = rng.choice(choices)
    else:
        used = set(scene.colors)
        for _ in range(RANDOM_COLOR_TRIES):
            color = tuple(rng.randrange(256) for _ in range(3))
            if _far_from(color, used):
                break
        else:
            raise ctx.reject("no random color far enough from every scene color")
    return color, color_code_phrase(color), {}


def _sources(scene: Scene, targets: list[Shape]) -> list[Shape]:
    """Shapes a dropper may take the color from: non-targets whose color no target has."""
    target_ids = {s.id for s in targets}
    target_colors = {s.fill for s in targets}
    return [s for s in scene.shapes if s.id not in target_ids and s.fill not in target_colors]


def _dropper(ctx, scene: Scene, sources: list[Shape]) -> tuple[RGB, str, dict]:
    by_type = [s for s in sources if sum(o.type == s.type for o in scene.shapes) == 1]
    source = ctx.rng.choice(by_type or sources)
    return source.fill, f"the color of {describe_shape(source, scene.shapes)}", {"source": source.id}


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    sampled = condition_scene(ctx.rng, ctx.condition, SPEC.counts)
    scene = sampled.scene
    for _ in range(SELECTOR_TRIES):
        selector, phrase, targets = _select(ctx.rng, scene.shapes)
        sources = _sources(scene, targets)
        if targets and (ctx.mode == "color_code" or sources):
            break
    else:
        raise ctx.reject("no selector with targets (and, for dropper, a source shape)")
    if ctx.mode == "color_code":
        color, how, extra = _color_code(ctx, sampled.colors, scene, targets)
    else:
        color, how, extra = _dropper(ctx, scene, sources)
    answer_scene = scene
    for shape in targets:
        answer_scene = answer_scene.replace_element(shape.id, replace(shape, fill=color))
    instruction = f"Recolor {phrase} to {how}. Nothing else changes."
    return ctx.problem(
        render(scene), render(answer_scene), instruction, scene=scene, answer_scene=answer_scene,
        targets=tuple(s.id for s in targets),
        params={"selector": selector, "color": rgb_to_hex(color), **extra},
    )
