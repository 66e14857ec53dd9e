"""PaintBench problems by slot: the 20 task generators behind the seed scheme of
docs/generator-rules.md#seeds.

Attempt ``a`` of problem ``slot`` of (task, condition, mode) has the seed
``paintbench|task|condition|mode|slot|a`` (namespace first; a condition variant puts its key,
e.g. ``baseline@512x512``, in place of the condition), and the task module's
``generate(seed, condition, mode)`` (:class:`~paintkit.tasks.base.ProblemGenerator`) makes
it or raises :class:`~paintkit.errors.RejectedSeed`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paintkit.attempts import SLOT_ATTEMPTS, Found
from paintkit.seeds import paintbench_seed
from paintkit.sources.base import ProblemSource, Slot
from paintkit.tasks import TASKS, Problem, task_module, task_spec

PAINTBENCH_NAMESPACE = "paintbench"


@dataclass(frozen=True)
class PaintBenchSource(ProblemSource):
    """The PaintBench tasks as a problem source.

    >>> problem = PaintBenchSource().problem("translation", 3, condition="baseline", mode="amount")
    >>> problem.metadata["slot"], problem.metadata["namespace"]
    (3, 'paintbench')
    """

    max_attempts: int = SLOT_ATTEMPTS

    name: ClassVar[str] = "paintbench"
    namespace: ClassVar[str] = PAINTBENCH_NAMESPACE

    def tasks(self) -> tuple[str, ...]:
        return TASKS

    def modes(self, task: str) -> tuple[str, ...]:
        return task_spec(task).modes

    def seed(self, slot: Slot, attempt: int) -> int:
        return paintbench_seed(slot.task, slot.key, slot.mode, slot.slot, attempt,
                               namespace=slot.namespace)

    def attempt(self, slot: Slot, seed: int) -> Problem:
        return task_module(slot.task).generate(seed, slot.condition, slot.mode)

    def finish(self, slot: Slot, found: Found) -> Problem:
        problem = found.value
        slot.stamp(problem.metadata, found.attempt)
        return problem
