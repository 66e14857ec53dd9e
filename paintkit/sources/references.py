"""Scene reference problems by slot: PaintBench scenes edited by what reference images show
(docs/references.md).

Attempt ``a`` of problem ``slot`` of (task, condition, mode) has the seed
``namespace|references|task|condition|mode|slot|a``; the task's ``generate`` of that seed
(:mod:`paintkit.references`) may raise :class:`~paintkit.errors.RejectedSeed`, and the search
then tries the next attempt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paintkit.attempts import SLOT_ATTEMPTS, Found
from paintkit.references import REFERENCE_TASKS, reference_task
from paintkit.seeds import seed_from_key
from paintkit.sources.base import ProblemSource, Slot
from paintkit.tasks import Problem

REFERENCES_NAMESPACE = "references"


@dataclass(frozen=True)
class ReferenceSource(ProblemSource):
    """The scene reference tasks of :data:`~paintkit.references.REFERENCE_TASKS`."""

    max_attempts: int = SLOT_ATTEMPTS

    name: ClassVar[str] = "references"
    namespace: ClassVar[str] = REFERENCES_NAMESPACE
    reference_images: ClassVar[bool] = True

    def tasks(self) -> tuple[str, ...]:
        return REFERENCE_TASKS

    def modes(self, task: str) -> tuple[str, ...]:
        return reference_task(task).SPEC.modes

    def seed(self, slot: Slot, attempt: int) -> int:
        return seed_from_key(slot.namespace, "references", slot.task, slot.key, slot.mode,
                             slot.slot, attempt)

    def attempt(self, slot: Slot, seed: int) -> Problem:
        return reference_task(slot.task).generate(seed, slot.condition, slot.mode)

    def finish(self, slot: Slot, found: Found) -> Problem:
        problem = found.value
        slot.stamp(problem.metadata, found.attempt)
        return problem
