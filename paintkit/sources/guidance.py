"""Guided problems by slot: a single-target task's problem with its target marked by a drawn
ring or arrow instead of named in words (docs/guidance.md).

Attempt ``a`` of problem ``slot`` of (task, condition, mode) has the seed
``guidance|task|condition|mode|slot|a`` (namespace first); the task's own problem of that
seed is guided by :func:`~paintkit.guidance.generate.guide`, and either step may raise
:class:`~paintkit.errors.RejectedSeed`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paintkit.attempts import SLOT_ATTEMPTS, Found
from paintkit.guidance.generate import GUIDED_TASKS, guide
from paintkit.seeds import seed_from_key
from paintkit.sources.base import ProblemSource, Slot
from paintkit.tasks import Problem, task_module, task_spec

GUIDANCE_NAMESPACE = "guidance"


@dataclass(frozen=True)
class GuidanceSource(ProblemSource):
    """The guided variants of :data:`~paintkit.guidance.generate.GUIDED_TASKS`."""

    max_attempts: int = SLOT_ATTEMPTS

    name: ClassVar[str] = "guidance"
    namespace: ClassVar[str] = GUIDANCE_NAMESPACE

    def tasks(self) -> tuple[str, ...]:
        return GUIDED_TASKS

    def modes(self, task: str) -> tuple[str, ...]:
        if task not in GUIDED_TASKS:
            raise ValueError(f"task {task!r} has no guided variant; allowed: {', '.join(GUIDED_TASKS)}")
        return task_spec(task).modes

    def seed(self, slot: Slot, attempt: int) -> int:
        return seed_from_key(slot.namespace, "guidance", slot.task, slot.key, slot.mode, slot.slot,
                             attempt)

    def attempt(self, slot: Slot, seed: int) -> Problem:
        return guide(task_module(slot.task).generate(seed, slot.condition, slot.mode), seed)

    def finish(self, slot: Slot, found: Found) -> Problem:
        problem = found.value
        slot.stamp(problem.metadata, found.attempt)
        return problem
