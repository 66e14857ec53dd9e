"""What every scene reference task shares: its spec, the reference's background, the placing
of reference shapes and the one way a problem is finished.

A reference scene has the source's canvas and a solid background of its own: a palette
colour that is neither a colour of the source's background nor within
:data:`MIN_REFERENCE_DELTA_E` (CIE76) of any shape the reference shows. So every pixel of a
shape in the reference is told apart from its background by colour alone, and the reference,
returned unchanged as an output, scores next to nothing (its background is wrong everywhere).
Reference shapes keep the sampler's spacing from one another (no overlap): each is shown whole.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from paintkit.colors import ColorSplit, rgb_to_hex
from paintkit.hex_lab import delta_e
from paintkit.renderers import render
from paintkit.sampling.shapes import GAP_PX
from paintkit.scene import RGB, Background, Scene, Shape
from paintkit.scene_parts.placement import place_randomly
from paintkit.shapes import shape_bounds
from paintkit.tasks.base import Problem, Reference, TaskContext, TaskSpec, with_references

#: The category of every scene reference problem (the stats hierarchy's head).
REFERENCE_CATEGORY = "reference_guided"
#: A reference's background is at least this CIE76 distance from each shape it shows.
MIN_REFERENCE_DELTA_E = 20.0
DEFAULT_MODE = "default"
#: How many images precede each reference in the instruction's wording.
ORDINALS = ("first", "second", "third", "fourth")

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class ReferenceTask:
    """What a reference task is: its :class:`~paintkit.tasks.TaskSpec` (the PaintBench
    category its edit belongs to, its parameters) and the roles of its references, in the
    order the model gets them."""

    spec: TaskSpec
    roles: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.spec.name


def images_sentence(what: Sequence[str]) -> str:
    """The instruction's first sentence: which image is which (``what`` describes each
    reference in order, e.g. "a reference that shows one shape")."""
    parts = [f"the {ORDINALS[0]} image is the source to edit"]
    parts += [f"the {ORDINALS[i + 1]} is {text}" for i, text in enumerate(what)]
    count = {1: "two", 2: "three", 3: "four"}[len(what)]
    return f"You are given {count} images: " + ", ".join(parts[:-1]) + " and " + parts[-1] + "."


def reference_background(rng: random.Random, split: ColorSplit, source: Scene,
                         shown: Sequence[RGB]) -> Background | None:
    """A solid background for a reference that shows shapes of the colours ``shown``: a
    palette colour of ``split`` other than the source's background colours and at least
    :data:`MIN_REFERENCE_DELTA_E` from each shown colour; None when none is left."""
    palette = [split.background, split.holdout, *split.objects]
    banned = set(source.background.colors)
    choices = [c.rgb for c in palette if c.rgb not in banned and all(
        delta_e(rgb_to_hex(c.rgb), rgb_to_hex(s)) >= MIN_REFERENCE_DELTA_E for s in shown)]
    if not choices:
        return None
    return Background(rng.choice(choices))


def fills(shapes: Sequence[Shape]) -> list[RGB]:
    """The fill colours of ``shapes`` (the sampler's shapes are all filled)."""
    return [s.fill for s in shapes if s.fill is not None]


def place_apart(rng: random.Random, shapes: Sequence[Shape], source: Scene
                ) -> list[Shape] | None:
    """``shapes`` moved (rigidly, through their bbox) to random spots of the source's canvas,
    each within the edge margin and :data:`~paintkit.sampling.shapes.GAP_PX` from the others;
    None when one finds no room."""
    boxes: list[Box] = []
    out = []
    for shape in shapes:
        found = place_randomly(rng, shape, source.canvas, boxes)
        if found is None:
            return None
        out.append(found[0])
        boxes.append(found[1])
    return out


def apart(shapes: Sequence[Shape]) -> bool:
    """True when the bounds of ``shapes`` keep :data:`~paintkit.sampling.shapes.GAP_PX` from
    one another (each is shown whole)."""
    bounds = [shape_bounds(s) for s in shapes]
    for i, a in enumerate(bounds):
        for b in bounds[i + 1:]:
            dx = max(b[0] - a[2], a[0] - b[2], 0.0)
            dy = max(b[1] - a[3], a[1] - b[3], 0.0)
            if (dx * dx + dy * dy) ** 0.5 < GAP_PX:
                return False
    return True


def finish(ctx: TaskContext, task: ReferenceTask, scene: Scene, answer_scene: Scene,
           references: Sequence[Scene], instruction: str, *, targets: tuple[str, ...],
           params: Mapping[str, Any], min_edit_pixels: int = 1) -> Problem:
    """The problem: source, answer and reference scenes rendered (exact pixels), checked by
    :meth:`~paintkit.tasks.base.TaskContext.problem` (an edit, doing nothing never pays) and
    by :func:`~paintkit.tasks.base.with_references` (copying a reference never pays).

    The metadata holds ``scene``, ``answer_scene``, ``reference_scenes`` (one scene dict per
    reference, in order), ``targets``, ``params``, ``category`` ``"reference_guided"`` and
    ``edit_category`` (the PaintBench category of the edit itself).
    """
    if len(references) != len(task.roles):
        raise ValueError(f"{task.name}: {len(task.roles)} reference(s) expected, got "
                         f"{len(references)}")
    problem = ctx.problem(render(scene), render(answer_scene), instruction, scene=scene,
                          answer_scene=answer_scene, targets=targets, params=params,
                          min_edit_pixels=min_edit_pixels)
    problem.metadata.update({
        "category": REFERENCE_CATEGORY, "edit_category": task.spec.category,
        "reference_scenes": [ref.to_dict() for ref in references],
    })
    refs = [Reference(render(ref), role) for ref, role in zip(references, task.roles, strict=True)]
    return with_references(problem, refs, what=f"{task.name}/{ctx.condition.name} seed {ctx.seed}")
