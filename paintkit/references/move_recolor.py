"""reference_move_recolor (two references): move shapes to the places a layout reference shows,
then recolour by type as a palette reference shows.

The source is a PaintBench scene of the condition. The layout reference is
:func:`~paintkit.references.move.layout_reference`'s (some source shapes, in their source
colours, at new places); the palette reference is
:func:`~paintkit.references.recolor.palette_reference`'s (one shape per chosen type in its new
colour). Each has its own solid background. The answer is the source with the moves done
(moved shapes on top) and then every shape of a chosen type, moved or not, filled with that
type's new colour, re-rendered. Parameters: ``moves`` (id -> ``[dx, dy]`` px) and
``colors`` (type -> ``#RRGGBB``).
"""

from __future__ import annotations

from paintkit.colors import rgb_to_hex
from paintkit.edits.minimum import geometric_min_edit
from paintkit.references.common import DEFAULT_MODE, ReferenceTask, finish, images_sentence
from paintkit.references.move import LAYOUT_RULE, layout_reference, move_scene
from paintkit.references.recolor import PALETTE_RULE, palette_reference, recolor_scene
from paintkit.sampling.condition import condition_scene
from paintkit.shapes import shape_area
from paintkit.tasks.base import Problem, TaskSpec, start

TASK = ReferenceTask(
    spec=TaskSpec(
        name="reference_move_recolor",
        category="geometric_transformation",
        modes=(DEFAULT_MODE,),
        parameters={
            "layout": "as reference_move: 1 to 3 source shapes at new places",
            "palette": "as reference_recolor: 1 to 3 types, each with a new colour",
        },
    ),
    roles=("layout", "palette"),
)
SPEC = TASK.spec


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    sampled = condition_scene(ctx.rng, ctx.condition, SPEC.counts)
    scene = sampled.scene
    moved, layout = layout_reference(ctx, sampled, scene)
    colors, palette = palette_reference(ctx, sampled, scene, min(ctx.count, 10))
    answer_scene = recolor_scene(move_scene(scene, moved), colors)
    instruction = " ".join((
        images_sentence(["a layout reference that shows some of the source's shapes",
                         "a palette reference that shows one shape of each of a few types"]),
        "First the layout reference. " + LAYOUT_RULE.format(which="layout reference"),
        "Then the palette reference. " + PALETTE_RULE.format(which="palette reference")
        .replace("shape of the source", "shape of the moved result", 1),
        "Nothing else changes.",
    ))
    old = {s.id: s for s in scene.shapes}
    moves = {s.id: [s.bbox.x - old[s.id].bbox.x, s.bbox.y - old[s.id].bbox.y] for s in moved}
    targets = tuple(dict.fromkeys([*(s.id for s in moved),
                                   *(s.id for s in scene.shapes if s.type in colors)]))
    return finish(ctx, TASK, scene, answer_scene, [layout, palette], instruction,
                  targets=targets,
                  params={"moves": moves,
                          "colors": {t: rgb_to_hex(c) for t, c in sorted(colors.items())}},
                  min_edit_pixels=geometric_min_edit(sum(shape_area(s) for s in moved)))
