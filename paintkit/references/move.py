"""reference_move: the reference shows some of the source's shapes at other places; move each
of them in the source to the place it has in the reference.

The source is a PaintBench scene of the condition; its shapes have unique (type, colour)
pairs, so a reference shape names its source shape by type and colour. One to
:data:`MAX_MOVED` shapes (never all of them when there are more than one) are chosen; each is
moved rigidly (its bbox translated; size, rotation and colour kept) to a random place on the
canvas at least :data:`MIN_SHIFT` of the shorter canvas side from where it was, the moved
shapes apart from one another. The reference shows the moved shapes alone at their new
places, on its own solid background.

The answer is the source scene with the moved shapes taken out and drawn again on top of every
other shape (in their source order), re-rendered: the area each leaves shows the background.
The seed is rejected when the move changes fewer than
:func:`~paintkit.edits.minimum.geometric_min_edit` of the moved shapes' area. Parameters: the
displacement per moved shape (``moves``: id -> ``[dx, dy]`` px).
"""

from __future__ import annotations

import math

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
from paintkit.sampling.condition import ConditionScene, condition_scene
from paintkit.scene import Scene, Shape
from paintkit.shapes import shape_area
from paintkit.tasks.base import Problem, TaskContext, TaskSpec, start

TASK = ReferenceTask(
    spec=TaskSpec(
        name="reference_move",
        category="geometric_transformation",
        modes=(DEFAULT_MODE,),
        parameters={
            "moved": "1 to 3 source shapes (not all of them when there are several)",
            "places": "random places on the canvas, each at least 10% of the shorter side "
                      "from where the shape was, the moved shapes apart",
            "reference": "the moved shapes alone at their new places, on a solid background "
                         "of another colour",
        },
    ),
    roles=("layout",),
)
SPEC = TASK.spec
MAX_MOVED = 3
MIN_SHIFT = 0.10
PLACE_TRIES = 8


def layout_reference(ctx: TaskContext, sampled: ConditionScene, scene: Scene
                     ) -> tuple[list[Shape], Scene]:
    """The moved shapes at their new places and the reference scene showing them (see the
    module docstring); raises the context's rejection when the seed has none."""
    rng = ctx.rng
    shapes = scene.shapes
    most = MAX_MOVED if len(shapes) > MAX_MOVED else max(1, len(shapes) - 1)
    chosen = sorted(rng.sample(range(len(shapes)), rng.randint(1, most)))
    picked = [shapes[i] for i in chosen]
    least = MIN_SHIFT * scene.canvas.shorter_side
    for _ in range(PLACE_TRIES):
        placed = place_apart(rng, picked, scene)
        if placed is not None and all(
                math.hypot(new.bbox.x - old.bbox.x, new.bbox.y - old.bbox.y) >= least
                for old, new in zip(picked, placed, strict=True)):
            break
    else:
        raise ctx.reject("no new places far enough from the old ones")
    background = reference_background(rng, sampled.colors, scene, fills(placed))
    if background is None:
        raise ctx.reject("no reference background colour far enough from the moved shapes")
    return placed, Scene(scene.canvas, background, tuple(placed))


def move_scene(scene: Scene, moved: list[Shape]) -> Scene:
    """``scene`` with the shapes of ``moved`` (same ids) taken out and drawn on top, in order."""
    return scene.without(*(s.id for s in moved)).with_elements(*moved)


LAYOUT_RULE = ("Each shape the {which} shows is one of the source's shapes (the same type, "
               "colour, size and orientation) at another place. Move each of them in the "
               "source to the place it has in the {which}, drawn on top of every other shape; "
               "the area it leaves shows the background.")


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    sampled = condition_scene(ctx.rng, ctx.condition, SPEC.counts)
    scene = sampled.scene
    moved, reference = layout_reference(ctx, sampled, scene)
    answer_scene = move_scene(scene, moved)
    instruction = " ".join((
        images_sentence(["a reference that shows some of the source's shapes"]),
        LAYOUT_RULE.format(which="reference"),
        "The other shapes stay where they are and nothing else changes.",
    ))
    old = {s.id: s for s in scene.shapes}
    moves = {s.id: [s.bbox.x - old[s.id].bbox.x, s.bbox.y - old[s.id].bbox.y] for s in moved}
    return finish(ctx, TASK, scene, answer_scene, [reference], instruction,
                  targets=tuple(s.id for s in moved), params={"moves": moves},
                  min_edit_pixels=geometric_min_edit(sum(shape_area(s) for s in moved)))
