"""Border: color every background pixel within a stated distance of a target shape.

Definitions (stated in the instruction):

- a *background pixel* is one that no element covers: it shows the background color or, on
  a striped background, the stripe color (shapes never use those two colors, so the input's
  color tells them apart). Pixels of the target and of every other shape stay unchanged;
- a pixel is *within d px* of the target when the distance from its center to the center of
  the nearest target pixel (a pixel the target paints in the input) is at most ``d``
  (exact Euclidean distance, :func:`paintkit.kernels.distance.within_distance`). Holes and
  concavities of the shape count like any other background: a ring's hole fills in when it
  lies within ``d``.

``d`` is a whole number of pixels, 2-4% of the canvas width. The border color is a palette
color other than the background / stripe colors and the target's own color, one no shape
uses where there is one; the instruction states it as name and ``#RRGGBB``. The answer is
pixel-space (the input with the border pixels recolored), computed on the target's bounds
grown by ``d``; no answer scene is recorded.
"""

from __future__ import annotations

import math

import numpy as np

from paintkit.kernels.color_mask import color_mask
from paintkit.kernels.distance import within_distance
from paintkit.language.phrases import article, color_code_phrase, describe_shape
from paintkit.renderers import render, render_mask
from paintkit.sampling.condition import condition_scene
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="border",
    category="structural_manipulation",
    parameters={
        "distance": "whole pixels, 2-4% of the canvas width (pixel-center to nearest "
                    "target-pixel-center Euclidean distance, inclusive)",
        "color": "a palette color other than the background / stripe colors and the target's "
                 "color; unused by any shape where possible",
    },
)
DISTANCE_RANGE = (0.02, 0.04)  # fractions of the canvas width


def _window(mask_rows: np.ndarray, mask_cols: np.ndarray, grow: int, h: int, w: int):
    return (max(0, int(mask_rows[0]) - grow), min(h, int(mask_rows[-1]) + 1 + grow),
            max(0, int(mask_cols[0]) - grow), min(w, int(mask_cols[-1]) + 1 + grow))


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    rng = ctx.rng
    sampled = condition_scene(rng, ctx.condition, SPEC.counts)
    scene = sampled.scene
    target = rng.choice(scene.shapes)
    phrase = describe_shape(target, scene.shapes)
    w = scene.canvas.width
    distance = rng.randint(math.ceil(DISTANCE_RANGE[0] * w), math.floor(DISTANCE_RANGE[1] * w))
    used = {s.fill for s in scene.shapes}
    choices = [c.rgb for c in sampled.colors.objects if c.rgb != target.fill]
    color = rng.choice([c for c in choices if c not in used] or choices)

    input_px = render(scene)
    mask = render_mask(scene, target.id)
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if rows.size == 0:
        raise ctx.reject("the target paints no pixel")
    top, bottom, left, right = _window(rows, cols, distance, *mask.shape)
    ring = within_distance(mask[top:bottom, left:right], distance)
    answer_px = input_px.copy()
    window = answer_px[top:bottom, left:right]
    border = ring & color_mask(window, scene.background.colors)
    window[border] = color

    bg_words = "the background color" if scene.background.stripes is None else \
        "the background or stripe colors"
    paint = color_code_phrase(color)
    instruction = (
        f"Draw {article(paint)} {paint} border around {phrase}: paint {paint} every background "
        f"pixel within {distance} pixels of {phrase}. A background pixel is one "
        f"no shape covers (it shows {bg_words}); a pixel is within {distance} pixels when the "
        f"distance from its center to the center of the nearest pixel of {phrase} is at most "
        f"{distance} pixels, so gaps and holes of the shape fill in where close enough. "
        f"{phrase[0].upper()}{phrase[1:]} and every other shape stay unchanged."
    )
    return ctx.problem(
        input_px, answer_px, instruction, scene=scene, targets=(target.id,),
        params={"distance": distance, "color": list(color), "color_name": color_code_phrase(color),
                "window": [top, left, bottom, right]},
    )
