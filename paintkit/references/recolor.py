"""reference_recolor: the reference shows one shape of each of a few types; every source shape
of such a type takes the colour of the reference's shape of that type.

The source is a PaintBench scene of the condition. One to :data:`MAX_TYPES` of its shape
types are chosen (at most half of the types it has, so some shapes keep their colour); each
gets a new colour: an object colour of the palette that no source shape of that type wears
and that is not a background colour (so every shape of the type changes). The reference
shows one shape per chosen type in its new colour, with the sampler's size, aspect and
rotation, at random places apart from one another, on its own solid background. Distinct
types may share a colour.

The answer is the source scene with the new fills, re-rendered (exact). Parameters: the
colour per type (``colors``: type -> ``#RRGGBB``).
"""

from __future__ import annotations

from dataclasses import replace

from paintkit.colors import rgb_to_hex
from paintkit.references.common import (
    DEFAULT_MODE,
    ReferenceTask,
    finish,
    images_sentence,
    place_apart,
    reference_background,
)
from paintkit.sampling.condition import ConditionScene, condition_scene
from paintkit.sampling.shapes import parse_count_range, size_range
from paintkit.scene import RGB, Scene
from paintkit.scene_parts.placement import random_shape
from paintkit.tasks.base import MIN_EDIT_PIXELS, Problem, TaskContext, TaskSpec, start

TASK = ReferenceTask(
    spec=TaskSpec(
        name="reference_recolor",
        category="color_change",
        modes=(DEFAULT_MODE,),
        parameters={
            "types": "1 to 3 of the source's shape types (at most half of the types it has)",
            "colors": "per type, a palette object colour no source shape of that type wears",
            "reference": "one shape per chosen type in its new colour, apart, on a solid "
                         "background of another colour",
        },
    ),
    roles=("palette",),
)
SPEC = TASK.spec
MAX_TYPES = 3


def recolor_scene(scene: Scene, colors: dict[str, RGB]) -> Scene:
    """``scene`` with every shape whose type is a key of ``colors`` (type -> RGB) filled with
    that colour."""
    for shape in scene.shapes:
        if shape.type in colors:
            scene = scene.replace_element(shape.id, replace(shape, fill=colors[shape.type]))
    return scene


def palette_reference(ctx: TaskContext, sampled: ConditionScene, scene: Scene, count: int
                      ) -> tuple[dict[str, RGB], Scene]:
    """The chosen types, their new colours and the reference scene showing them (see the
    module docstring); raises the context's rejection when the seed has none."""
    rng = ctx.rng
    types = sorted({s.type for s in scene.shapes})
    k = rng.randint(1, max(1, min(MAX_TYPES, len(types) // 2)))
    chosen = rng.sample(types, k)
    banned = set(scene.background.colors)
    colors: dict[str, RGB] = {}
    for shape_type in chosen:
        worn = {s.fill for s in scene.shapes if s.type == shape_type}
        choices = [c.rgb for c in sampled.colors.objects if c.rgb not in worn | banned]
        if not choices:
            raise ctx.reject(f"no new colour left for the {shape_type}s")
        colors[shape_type] = rng.choice(choices)
    sizes = size_range(scene.canvas, parse_count_range(count))
    shown = [random_shape(rng, f"ref{i}", t, colors[t], rng.uniform(*sizes))
             for i, t in enumerate(chosen)]
    placed = place_apart(rng, shown, scene)
    if placed is None:
        raise ctx.reject("the reference's shapes do not fit apart")
    background = reference_background(rng, sampled.colors, scene, list(colors.values()))
    if background is None:
        raise ctx.reject("no reference background colour far enough from the new colours")
    return colors, Scene(scene.canvas, background, tuple(placed))


PALETTE_RULE = ("Recolour every shape of the source whose type the {which} shows to the colour "
                "of the {which}'s shape of that type (only the fill changes); shapes of the "
                "other types keep their colour.")


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    sampled = condition_scene(ctx.rng, ctx.condition, SPEC.counts)
    scene = sampled.scene
    colors, reference = palette_reference(ctx, sampled, scene, min(ctx.count, 10))
    answer_scene = recolor_scene(scene, colors)
    instruction = " ".join((
        images_sentence(["a reference that shows one shape of each of a few types"]),
        PALETTE_RULE.format(which="reference"),
        "Nothing else changes: positions, sizes and the background stay as they are.",
    ))
    targets = tuple(s.id for s in scene.shapes if s.type in colors)
    return finish(ctx, TASK, scene, answer_scene, [reference], instruction, targets=targets,
                  params={"colors": {t: rgb_to_hex(c) for t, c in sorted(colors.items())}},
                  min_edit_pixels=MIN_EDIT_PIXELS)
