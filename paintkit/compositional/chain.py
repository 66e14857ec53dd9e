"""Chains of 2-3 atomic edits on one scene, as one multi-edit problem or as a conversation.

A chain is a pure function of ``(namespace, condition, steps, slot)``: attempt 0, 1, ...
of :func:`~paintkit.seeds.compositional_seed` until a seed passes every check. For each
seed: sample the condition's scene (default count table), draw ``steps`` *different*
operations (:data:`~paintkit.compositional.operations.OPERATIONS`) and ``steps`` *different*
target shapes, and apply them in order. Because every step edits another shape, no step
can undo an earlier one. A seed is rejected when

- a target has no unique description in the scene the earlier steps left (checked on that
  scene, as the single tasks check theirs), or an edited shape mostly leaves the canvas;
- a step changes fewer pixels than the single tasks require (geometric steps:
  :func:`~paintkit.tasks.base.geometric_min_edit` of the target's area; others
  ``MIN_EDIT_PIXELS``), or its unchanged input would score an mIoU above
  ``MAX_IDENTITY_MIOU`` against that step's answer (every turn is scorable on its own);
- the whole chain fails the same two checks between the input and the final answer;
- later steps cover up an earlier one: fewer than ``MIN_EDIT_PIXELS`` of the pixels a step
  changed still show its result in the final answer (so every step counts).

:class:`~paintkit.sources.compositional.CompositionalSource` runs the attempt search and makes
both kinds: ``"multi_edit"`` states the steps in order in one instruction; ``"conversational"``
adds ``turns`` (docs/compositional.md#turns): each turn's instruction and its exact answer scene.
"""

from __future__ import annotations

import random

from paintkit.colors import rgb_to_hex
from paintkit.compositional.operations import (
    GEOMETRIC,
    NOTHING_ELSE,
    OPERATIONS,
    VACATED,
    NoStep,
    Step,
    apply_operation,
    chain_notes,
    step_sentence,
)
from paintkit.compositional.turns import conversation_instruction
from paintkit.conditions import Condition
from paintkit.errors import RejectedSeed
from paintkit.kernels.edit_region import changed_mask_numba, count_changed
from paintkit.renderers import render
from paintkit.sampling.condition import condition_scene
from paintkit.scene import Scene
from paintkit.seeds import python_rng
from paintkit.shapes import shape_area
from paintkit.tasks.base import (
    MAX_IDENTITY_MIOU,
    MIN_EDIT_PIXELS,
    geometric_min_edit,
    identity_check,
)

KINDS: tuple[str, ...] = ("multi_edit", "conversational")
STEP_COUNTS: tuple[int, ...] = (2, 3)
CATEGORY = "compositional"
__all__ = ["CATEGORY", "KINDS", "NOTHING_ELSE", "STEP_COUNTS", "VACATED", "chain_metadata",
           "check_steps", "multi_edit_instruction", "sample_chain"]


def check_steps(steps: int) -> int:
    if steps not in STEP_COUNTS:
        raise ValueError(f"steps must be one of {STEP_COUNTS}, got {steps!r}")
    return steps


def _checked(before, after, min_pixels: int, what: str, seed: int) -> None:
    changed, free = identity_check(before, after)
    if changed < max(1, min_pixels):
        raise RejectedSeed(f"compositional seed {seed}: {what} changes {changed} px "
                           f"(< {max(1, min_pixels)})")
    if free > MAX_IDENTITY_MIOU:
        raise RejectedSeed(f"compositional seed {seed}: {what}: doing nothing would score mIoU "
                           f"{free:.3f} (> {MAX_IDENTITY_MIOU})")


def sample_chain(seed: int, condition: Condition, steps: int):
    """``(input scene, [Step, ...], [pixels before step 1, after step 1, ...])`` or
    :class:`~paintkit.errors.RejectedSeed` (see the module docstring)."""
    rng: random.Random = python_rng(seed)
    sampled = condition_scene(rng, condition)
    scene = sampled.scene
    if len(scene.shapes) < steps:
        raise RejectedSeed(f"compositional seed {seed}: {len(scene.shapes)} shapes for {steps} steps")
    operations = rng.sample(OPERATIONS, steps)
    targets = rng.sample([s.id for s in scene.shapes], steps)
    current, chain, pixels = scene, [], [render(scene)]
    for k, (operation, target_id) in enumerate(zip(operations, targets, strict=True), 1):
        target = current.element(target_id)
        try:
            step = apply_operation(rng, current, sampled.colors, target, operation)
        except NoStep as exc:
            raise RejectedSeed(f"compositional seed {seed}: step {k} ({operation}): {exc}") from None
        after = render(step.scene)
        need = geometric_min_edit(shape_area(target)) if operation in GEOMETRIC else MIN_EDIT_PIXELS
        _checked(pixels[-1], after, need, f"step {k} ({operation})", seed)
        chain.append(step)
        pixels.append(after)
        current = step.scene
    _checked(pixels[0], pixels[-1], MIN_EDIT_PIXELS, "the whole chain", seed)
    for k in range(1, steps):  # the last step is visible by the check above
        if _still_visible(pixels[k - 1], pixels[k], pixels[-1]) < MIN_EDIT_PIXELS:
            raise RejectedSeed(f"compositional seed {seed}: later steps hide step {k}")
    return scene, chain, pixels


def _still_visible(before, after, final) -> int:
    """Pixels step ``before -> after`` changed that still show its result in ``final``."""
    changed = changed_mask_numba(before, after)
    return int((changed & ~changed_mask_numba(after, final)).sum())


def multi_edit_instruction(chain: list[Step]) -> str:
    """"Make these 2 edits in order, each on the result of the one before: 1. ... 2. ..."."""
    listed = " ".join(f"{k}. {step_sentence(s)}" for k, s in enumerate(chain, 1))
    return (f"Make these {len(chain)} edits in order, each on the result of the one before: "
            f"{listed} {chain_notes(chain)}")


def chain_metadata(kind: str, condition: Condition, seed: int, scene: Scene, chain: list[Step],
                   pixels: list) -> dict:
    """The problem JSON fields of a chain asked as ``kind`` (the instruction included; the
    conversational ``turns`` are added by the source)."""
    if kind == "multi_edit":
        instruction = multi_edit_instruction(chain)
    else:
        instruction = conversation_instruction(chain)
    return {
        "instruction": instruction, "task": kind, "mode": f"steps{len(chain)}",
        "visual_condition": condition.name, "category": CATEGORY, "seed": seed,
        "W": condition.width, "H": condition.height,
        "bg_colors": [rgb_to_hex(c) for c in scene.background.colors],
        "edit_pixels": count_changed(pixels[0], pixels[-1]),
        "targets": [s.target for s in chain],
        "params": {"steps": [{"operation": s.operation, "target": s.target,
                              "instruction": step_sentence(s), **s.params} for s in chain]},
        "scene": scene.to_dict(), "answer_scene": chain[-1].scene.to_dict(),
    }
