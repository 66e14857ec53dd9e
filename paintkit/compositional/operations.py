"""The atomic operations a multi-edit or conversational problem chains (docs/compositional.md).

Each operation edits one shape of the *current* scene (the scene after the earlier steps)
and is re-rendered from geometry, exactly as the single tasks do:

========== ================================================================== ===========
operation  what it does                                                       single task
========== ================================================================== ===========
translate  move by whole percents of the canvas width and/or height [10, 30]   translation
rotate     turn about its bounding-box centre by 30..180 degrees, either way   rotation
reflect    mirror across the vertical or horizontal line through its centre    reflection
scale      scale about its bounding-box centre by 0.5, 0.75, 1.5 or 2          scaling
remove     delete it (the area shows the background)                          removal
recolor    fill it with a palette colour the scene does not paint             recolor
========== ================================================================== ===========

The target is named by the shortest phrase unique *in the current scene*
(:func:`~paintkit.language.phrases.describe_shape`); when there is none the seed is rejected.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from paintkit.colors import ColorSplit, rgb_to_hex
from paintkit.edits.geometric import (
    MIN_VISIBLE,
    place_edited,
    reflection_across,
    rotation_about,
    scaling_about,
    transformed,
    translation,
    visible_fraction,
)
from paintkit.edits.regions import palette_colors
from paintkit.language.phrases import CLIP_NOTE, color_code_phrase, describe_shape, join_words
from paintkit.scene import Scene, Shape
from paintkit.shapes import shape_bounds

OPERATIONS: tuple[str, ...] = ("translate", "rotate", "reflect", "scale", "remove", "recolor")
#: Operations that move the target's geometry (their step says where it goes in depth).
GEOMETRIC = frozenset({"translate", "rotate", "reflect", "scale"})
PERCENT_RANGE = (10, 30)
ANGLES = (30, 45, 60, 90, 120, 135, 150, 180)
SCALE_FACTORS = (0.5, 0.75, 1.5, 2.0)
VACATED = "Any area a shape leaves shows whatever lies beneath it."
NOTHING_ELSE = "Nothing else changes."


class NoStep(Exception):
    """This operation cannot be applied to this target (the seed moves on)."""


@dataclass(frozen=True)
class Step:
    """One applied operation: the clause that states it and the scene it leaves.

    ``clause`` starts with a verb and has no final full stop ("move the red star 20% of the
    canvas width to the right"); ``layer`` is the depth sentence of geometric steps.
    """

    operation: str
    target: str
    clause: str
    scene: Scene
    params: dict[str, Any] = field(default_factory=dict)
    layer: str = ""


def _centre(shape: Shape) -> tuple[float, float]:
    x0, y0, x1, y1 = shape_bounds(shape)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def _geometric(rng: random.Random, scene: Scene, target: Shape, operation: str):
    cx, cy = _centre(target)
    if operation == "translate":
        axes = rng.choice(("x", "y", "both"))
        px = rng.randint(*PERCENT_RANGE) * rng.choice((-1, 1)) if axes != "y" else 0
        py = rng.randint(*PERCENT_RANGE) * rng.choice((-1, 1)) if axes != "x" else 0
        parts = []
        if px:
            parts.append(f"{abs(px)}% of the canvas width to the {'right' if px > 0 else 'left'}")
        if py:
            parts.append(f"{abs(py)}% of the canvas height {'down' if py > 0 else 'up'}")
        affine = translation(px * scene.canvas.width / 100, py * scene.canvas.height / 100)
        return affine, f"move {{}} {join_words(parts)}", {"dx_percent": px, "dy_percent": py}
    if operation == "rotate":
        angle = rng.choice(ANGLES)
        clockwise = rng.random() < 0.5
        affine = rotation_about((cx, cy), angle if clockwise else -angle)
        way = "clockwise" if clockwise else "counter-clockwise"  # as PaintBench writes it
        return (affine, f"rotate {{}} {angle} degrees {way} about the center of its bounding box",
                {"degrees_clockwise": angle if clockwise else -angle})
    if operation == "reflect":
        axis = rng.choice(("vertical", "horizontal"))
        p, q = ((cx, cy), (cx, cy + 1.0)) if axis == "vertical" else ((cx, cy), (cx + 1.0, cy))
        flip = "left to right" if axis == "vertical" else "top to bottom"
        return (reflection_across(p, q),
                f"flip {{}} {flip} across the {axis} line through the center of its bounding box",
                {"axis": axis})
    factor = rng.choice(SCALE_FACTORS)
    return (scaling_about((cx, cy), factor, factor),
            f"scale {{}} by a factor of {factor:g} about the center of its bounding box",
            {"factor": factor})


def apply_operation(rng: random.Random, scene: Scene, colors: ColorSplit, target: Shape,
                    operation: str) -> Step:
    """Apply ``operation`` to ``target`` of ``scene``.

    Raises:
        NoStep: the target has no unique description here, the edited shape would mostly
            leave the canvas, or no palette colour is free for a recolor.
    """
    try:
        phrase = describe_shape(target, scene.shapes)
    except ValueError as exc:
        raise NoStep(str(exc)) from None
    if operation in GEOMETRIC:
        affine, clause, params = _geometric(rng, scene, target, operation)
        edited = transformed(target, affine)
        if visible_fraction(shape_bounds(edited), scene.canvas) < MIN_VISIBLE:
            raise NoStep("the edited shape would mostly leave the canvas")
        on_top = rng.random() < 0.5
        layer = ("it goes on top of any shape it overlaps" if on_top
                 else "it goes beneath any shape it overlaps")
        return Step(operation, target.id, clause.format(phrase), place_edited(scene, edited, on_top),
                    {**params, "on_top": on_top, "affine": list(affine)}, layer)
    if operation == "remove":
        return Step(operation, target.id, f"remove {phrase}", scene.without(target.id))
    if operation != "recolor":
        raise ValueError(f"unknown operation {operation!r}; allowed: {', '.join(OPERATIONS)}")
    used = set(scene.colors)
    free = [c.rgb for c in palette_colors(colors) if c.rgb not in used]
    if not free:
        raise NoStep("every palette colour is already in the scene")
    color = rng.choice(free)
    return Step(operation, target.id, f"recolor {phrase} to {color_code_phrase(color)}",
                scene.replace_element(target.id, replace(target, fill=color)),
                {"color": rgb_to_hex(color)})


def step_sentence(step: Step) -> str:
    """The step as one sentence: its clause capitalised, then its depth sentence, if any."""
    text = step.clause[0].upper() + step.clause[1:]
    return f"{text}; {step.layer}." if step.layer else f"{text}."


def chain_notes(chain: list[Step]) -> str:
    """The notes after the steps of ``chain``: what vacated areas show (when a step moves or
    removes a shape), that shapes are clipped (geometric steps), and that nothing else changes."""
    geometric = any(s.operation in GEOMETRIC for s in chain)
    moved = any(s.operation in GEOMETRIC or s.operation == "remove" for s in chain)
    notes = ([VACATED] if moved else []) + ([CLIP_NOTE] if geometric else []) + [NOTHING_ELSE]
    return " ".join(notes)
