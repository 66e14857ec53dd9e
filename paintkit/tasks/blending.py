"""Blending: alpha-blend a stated color at a stated whole-percent opacity over the pixels
inside an outlined convex polygon (every pixel, the background pixels or the shape pixels;
"inside" and the scopes as :mod:`paintkit.edits.regions` defines them). The scopes are tried in
a random order and the first whose edit changes at least 0.3% of the canvas is used
(:func:`~paintkit.edits.regions.first_effective_scope`), so degenerate edits never ship.

Per channel of every selected pixel, with ``p`` the opacity in percent and ``alpha = p/100``:
``out = round(alpha * color + (1 - alpha) * pixel)``, halves rounded up, computed exactly in
integers as ``(p * color + (100 - p) * pixel + 50) // 100``
(:func:`paintkit.kernels.blend.blend_numba`). The instruction states the color, ``p`` and the
rounding rule.

Parameters the answer depends on: the outline, the scope, the color and ``percent``.
"""

from __future__ import annotations

from paintkit.edits.regions import (
    first_effective_scope,
    min_region_pixels,
    outline_phrase,
    outlined_scene,
    palette_colors,
    region_params,
    scope_phrase,
    unchanged_note,
)
from paintkit.kernels.blend import blend_numba
from paintkit.language.phrases import color_code_phrase
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="blending",
    category="color_change",
    parameters={
        "outline": "a convex polygon (4 to 7 vertices) outlined in a palette color the scene "
                   "does not use, drawn around a random shape",
        "scope": "all pixels, background pixels or shape pixels inside the outline, tried in a "
                 "random order; the first whose blend changes enough pixels is used",
        "color": "a palette color other than the outline's and the background colors",
        "percent": "opacity, a whole percent in [10, 90]",
    },
)
PERCENT_RANGE = (10, 90)


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    split, region, image = outlined_scene(ctx)
    rng = ctx.rng
    banned = {region.color, *region.scene.background.colors}
    color = rng.choice([c for c in palette_colors(split) if c.rgb not in banned]).rgb
    percent = rng.randint(*PERCENT_RANGE)
    found = first_effective_scope(
        rng, region, image, lambda window, mask: blend_numba(window, mask, color, percent))
    if found is None:
        raise ctx.reject("the blend changes too few pixels inside the outline in every scope")
    scope, answer = found
    striped = region.scene.background.stripes is not None
    name = color_code_phrase(color)
    instruction = (
        f"Blend {name} at {percent}% opacity over {scope_phrase(scope, striped)} inside "
        f"{outline_phrase(region)}: each color channel value v becomes "
        f"round({percent / 100:g} × c + {(100 - percent) / 100:g} × v), where c is the same channel "
        f"of {name}, with halves rounded up. {unchanged_note(scope)}"
    )
    return ctx.problem(
        image, answer, instruction, scene=region.scene, targets=(region.outline.id,),
        min_edit_pixels=min_region_pixels(region.scene.canvas),
        params={**region_params(region), "scope": scope, "color": list(color),
                "percent": percent},
    )
