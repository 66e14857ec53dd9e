"""reference_remove: the reference shows some of the source's shapes (anywhere); remove each of
them from the source.

The source is a PaintBench scene of the condition; its shapes have unique (type, colour)
pairs, so a reference shape names its source shape by type and colour. One to
:data:`MAX_REMOVED` shapes are chosen (never all: at least one stays). The reference shows
them at random places (each kept whole: size, rotation and colour as in the source), apart
from one another, on its own solid background; where a shape is shown says nothing.

The answer is the source scene without them, re-rendered: the area each leaves shows the
background (stripes included). Parameters: the removed ids (``removed``).
"""

from __future__ import annotations

from paintkit.edits.minimum import geometric_min_edit
from paintkit.references.common import (
    DEFAULT_MODE,
    ReferenceTask,
    fills,
    finish,
    images_sentence,
    place_apart,
    reference_background,
)
from paintkit.sampling.condition import condition_scene
from paintkit.scene import Scene
from paintkit.shapes import shape_area
from paintkit.tasks.base import Problem, TaskSpec, start

TASK = ReferenceTask(
    spec=TaskSpec(
        name="reference_remove",
        category="structural_manipulation",
        modes=(DEFAULT_MODE,),
        parameters={
            "removed": "1 to 3 source shapes, never all of them",
            "reference": "the removed shapes at random places, apart, on a solid background "
                         "of another colour",
        },
    ),
    roles=("object",),
)
SPEC = TASK.spec
MAX_REMOVED = 3


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    rng = ctx.rng
    sampled = condition_scene(rng, ctx.condition, SPEC.counts)
    scene = sampled.scene
    shapes = scene.shapes
    if len(shapes) < 2:
        raise ctx.reject("one shape: removing it would leave nothing")
    chosen = sorted(rng.sample(range(len(shapes)), rng.randint(1, min(MAX_REMOVED,
                                                                      len(shapes) - 1))))
    removed = [shapes[i] for i in chosen]
    shown = place_apart(rng, removed, scene)
    if shown is None:
        raise ctx.reject("the removed shapes do not fit apart in the reference")
    background = reference_background(rng, sampled.colors, scene, fills(removed))
    if background is None:
        raise ctx.reject("no reference background colour far enough from the removed shapes")
    reference = Scene(scene.canvas, background, tuple(shown))
    answer_scene = scene.without(*(s.id for s in removed))
    instruction = " ".join((
        images_sentence(["a reference that shows some of the source's shapes"]),
        "Each shape the reference shows is one of the source's shapes (the same type and "
        "colour; where the reference shows it does not matter). Remove each of them from the "
        "source; the area it leaves shows the background.",
        "The other shapes stay as they are and nothing else changes.",
    ))
    return finish(ctx, TASK, scene, answer_scene, [reference], instruction,
                  targets=tuple(s.id for s in removed),
                  params={"removed": [s.id for s in removed]},
                  min_edit_pixels=geometric_min_edit(sum(shape_area(s) for s in removed)))
