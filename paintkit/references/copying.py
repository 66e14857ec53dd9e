"""reference_copy: the reference shows one shape; copy it into the source at the place it has
there.

The source is a PaintBench scene of the condition. The new shape has a (type, colour) no
source shape has, a colour other than the source's background colours, the sampler's size,
aspect and rotation rules, and a random place on the canvas (within the edge margin; it may
overlap source shapes). The reference is that shape alone on its own solid background
(:func:`~paintkit.references.common.reference_background`). The answer is the source scene
with the shape drawn on top of every other, re-rendered; the seed is rejected when the copy
changes fewer than :func:`~paintkit.edits.minimum.geometric_min_edit` of its area.

Parameters: the new shape's id (``copy``), type and fill.
"""

from __future__ import annotations

from paintkit.colors import rgb_to_hex
from paintkit.edits.minimum import geometric_min_edit
from paintkit.references.common import (
    DEFAULT_MODE,
    ReferenceTask,
    finish,
    images_sentence,
    reference_background,
)
from paintkit.sampling.condition import condition_scene
from paintkit.sampling.shapes import parse_count_range, size_range
from paintkit.scene import SHAPE_TYPES, Scene
from paintkit.scene_parts.placement import place_randomly, random_shape
from paintkit.shapes import shape_area
from paintkit.tasks.base import Problem, TaskSpec, start

TASK = ReferenceTask(
    spec=TaskSpec(
        name="reference_copy",
        category="structural_manipulation",
        modes=(DEFAULT_MODE,),
        parameters={
            "shape": "a (type, colour) no source shape has; the sampler's size, aspect and "
                     "rotation; a random place on the canvas (it may overlap source shapes)",
            "reference": "the shape alone on a solid background of another colour",
        },
    ),
    roles=("object",),
)
SPEC = TASK.spec
COPY_ID = "copy"


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    rng = ctx.rng
    sampled = condition_scene(rng, ctx.condition, SPEC.counts)
    scene = sampled.scene
    used = {(s.type, s.fill) for s in scene.shapes}
    banned = set(scene.background.colors)
    combos = [(t, c.rgb) for c in sampled.colors.objects if c.rgb not in banned
              for t in SHAPE_TYPES if (t, c.rgb) not in used]
    if not combos:
        raise ctx.reject("every (type, colour) is taken")
    shape_type, fill = rng.choice(combos)
    sizes = size_range(scene.canvas, parse_count_range(ctx.count))
    shape = random_shape(rng, COPY_ID, shape_type, fill, rng.uniform(*sizes))
    found = place_randomly(rng, shape, scene.canvas, ())
    if found is None:
        raise ctx.reject("the new shape does not fit on the canvas")
    shape = found[0]
    background = reference_background(rng, sampled.colors, scene, [fill])
    if background is None:
        raise ctx.reject("no reference background colour far enough from the shape")
    reference = Scene(scene.canvas, background, (shape,))
    answer_scene = scene.with_elements(shape)
    instruction = " ".join((
        images_sentence(["a reference that shows one shape"]),
        "Copy the shape the reference shows into the source, at the same place it has in the "
        "reference and with the same type, size, orientation and colour, drawn on top of "
        "every shape of the source.",
        "The reference's background is not copied: everything else in the source stays as "
        "it is.",
    ))
    return finish(ctx, TASK, scene, answer_scene, [reference], instruction, targets=(COPY_ID,),
                  params={"copy": COPY_ID, "type": shape_type, "fill": rgb_to_hex(fill)},
                  min_edit_pixels=geometric_min_edit(shape_area(shape)))
