"""Point operations: a per-pixel formula applied to the pixels inside an outlined convex
polygon (every pixel, the background pixels or the shape pixels; "inside" and the scopes as
:mod:`paintkit.edits.regions` defines them; the scopes are tried in a random order and the
first whose edit changes at least 0.3% of the canvas is used). Exact integer arithmetic on
channel values ``v`` in [0, 255] (:func:`paintkit.kernels.point_ops.point_operation_numba`):

- ``invert``: ``255 - v`` per channel;
- ``grayscale``: all three channels become ``L = round(0.299 R + 0.587 G + 0.114 B)``, halves
  rounded up (``(299 R + 587 G + 114 B + 500) // 1000``);
- ``brightness``: ``clamp(v + offset, 0, 255)`` per channel, ``offset`` a whole number in
  [-80, -30] or [30, 80].

The instruction states the formula and the offset. Parameters the answer depends on: the
outline, the scope, the operation and (brightness) the offset.
"""

from __future__ import annotations

from paintkit.edits.regions import (
    first_effective_scope,
    min_region_pixels,
    outline_phrase,
    outlined_scene,
    region_params,
    scope_phrase,
    unchanged_note,
)
from paintkit.kernels.point_ops import point_operation_numba
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="point_operations",
    category="color_change",
    modes=("brightness", "grayscale", "invert"),
    parameters={
        "outline": "a convex polygon (4 to 7 vertices) outlined in a palette color the scene "
                   "does not use, drawn around a random shape",
        "scope": "all pixels, background pixels or shape pixels inside the outline, tried in a "
                 "random order; the first whose edit changes enough pixels is used",
        "offset": "brightness only: a whole number in [-80, -30] or [30, 80]",
    },
)
OFFSET_RANGE = (30, 80)


def _operation(mode: str, offset: int | None) -> tuple[str, str, str]:
    """(verb, words after the pixels, formula sentence) of the operation."""
    if mode == "invert":
        return "Invert the colors of", "", "each color channel value v becomes 255 − v."
    if mode == "grayscale":
        return ("Convert", " to grayscale",
                "each pixel's red, green and blue values all become "
                "L = round(0.299 R + 0.587 G + 0.114 B), with halves rounded up, where R, G, B are "
                "its original values.")
    verb, sign = ("Brighten", "+") if offset > 0 else ("Darken", "−")
    return (verb, f" by {abs(offset)}",
            f"each color channel value v becomes v {sign} {abs(offset)}, clamped to [0, 255].")


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    _, region, image = outlined_scene(ctx)
    rng = ctx.rng
    offset = rng.randint(*OFFSET_RANGE) * rng.choice((-1, 1)) if ctx.mode == "brightness" else None
    found = first_effective_scope(
        rng, region, image, lambda window, mask: point_operation_numba(window, mask, ctx.mode, offset))
    if found is None:
        raise ctx.reject(f"{ctx.mode} changes too few pixels inside the outline in every scope")
    scope, answer = found
    striped = region.scene.background.stripes is not None
    verb, after, formula = _operation(ctx.mode, offset)
    pixels = f"{scope_phrase(scope, striped)} inside {outline_phrase(region)}"
    instruction = f"{verb} {pixels}{after}: {formula} {unchanged_note(scope)}"
    return ctx.problem(
        image, answer, instruction, scene=region.scene, targets=(region.outline.id,),
        min_edit_pixels=min_region_pixels(region.scene.canvas),
        params={**region_params(region), "scope": scope, "operation": ctx.mode,
                "offset": offset},
    )
