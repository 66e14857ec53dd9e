"""Flood fill: fill the region enclosed by an outlined convex polygon with a new color,
either its background pixels (``background``) or its shape pixels (``foreground``).

The region is found on pixels with the flood-fill kernel: the pixels a 4-connected fill from
an interior pixel reaches with the outline's stroke as the fence
(:func:`paintkit.edits.regions.enclosed_by_fill`). A seed is rejected unless that set equals
the outline's inside as :mod:`paintkit.edits.regions` defines it (pixel centers inside the
polygon, minus the stroke), so the geometric and the flood-fill readings agree.

What gets filled, every pixel of the enclosed region that

- ``background``: shows a background color. On a striped background that is *both* stripe
  colors: every background pixel inside the outline, whichever band it belongs to and
  whether or not it touches the rest of the enclosed background (a ring's hole counts);
- ``foreground``: is painted by a shape (any shape, also one the outline cuts through).

Parameters the answer depends on: the outline (vertices, color), the fill color and the mode.
"""

from __future__ import annotations

import numpy as np

from paintkit.edits.regions import (
    enclosed_by_fill,
    min_region_pixels,
    new_color_choices,
    outline_phrase,
    outlined_scene,
    region_params,
    scope_mask,
    scope_phrase,
    unchanged_note,
)
from paintkit.language.phrases import color_code_phrase
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="flood_fill",
    category="color_change",
    modes=("background", "foreground"),
    parameters={
        "outline": "a convex polygon (4 to 7 vertices) outlined in a palette color the scene "
                   "does not use, drawn around a random shape",
        "color": "a palette color that is not a background color or the outline's, preferably "
                 "not the fill of a shape near the outline",
        "region": "background: every background pixel inside (both stripe colors); "
                  "foreground: every shape pixel inside",
    },
)
SCOPE_OF_MODE = {"background": "background", "foreground": "shapes"}


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    split, region, image = outlined_scene(ctx)
    if not np.array_equal(enclosed_by_fill(region), region.inside):
        raise ctx.reject("the outline encloses pixels a 4-connected fill does not reach")
    scope = SCOPE_OF_MODE[ctx.mode]
    mask = scope_mask(region, image, scope)
    fill = ctx.rng.choice(new_color_choices(split, region)).rgb
    answer = region.paint(image, mask, fill)
    what = "background" if ctx.mode == "background" else "shapes"
    name = color_code_phrase(fill)
    striped = region.scene.background.stripes is not None
    instruction = (
        f"Flood-fill the {what} inside {outline_phrase(region)} with {name}: "
        f"{scope_phrase(scope, striped)} enclosed by the outline becomes {name}. "
        f"{unchanged_note(scope)}"
    )
    return ctx.problem(
        image, answer, instruction, scene=region.scene, targets=(region.outline.id,),
        min_edit_pixels=min_region_pixels(region.scene.canvas),
        params={**region_params(region), "scope": scope, "fill_color": list(fill)},
    )
