"""The guidance suite: guided ``tasks`` x ``conditions`` x ``per_cell`` (each task's first mode).

>>> from paintkit.suites.guidance import GuidanceSuite
>>> suite = GuidanceSuite()  # 5 tasks x 8 conditions x 12 = 480 problems
>>> len(suite), suite.spec(0).problem_id
(480, 'guidance-translation-baseline-amount-000000')

Layout ``<out>/Guidance/<task>/NNN_{input,answer}.png`` + ``NNN.json``, ordered and numbered
as PaintBench's task folders (problem ``NNN`` is condition ``NNN // per_cell``, slot
``start_slot + NNN % per_cell``), so ``paintkit eval`` scores it unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from paintkit.conditions import CONDITIONS
from paintkit.guidance.generate import GUIDED_TASKS
from paintkit.sources.guidance import GUIDANCE_NAMESPACE, GuidanceSource
from paintkit.suites.grid import SourceSuite
from paintkit.suites.spec import check_names, check_slots_and_names

GUIDANCE_BENCHMARK = "Guidance"
GUIDANCE_PER_CELL = 12


@dataclass(frozen=True)
class GuidanceSuite(SourceSuite):
    """Ordered guided problems: the :class:`~paintkit.suites.grid.SourceSuite` over
    :class:`~paintkit.sources.guidance.GuidanceSource`."""

    tasks: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    per_cell: int = GUIDANCE_PER_CELL
    start_slot: int = 0
    namespace: str = GUIDANCE_NAMESPACE
    benchmark: str = GUIDANCE_BENCHMARK
    beyond_benchmark: bool = False

    OWN_NAMESPACE: ClassVar[str] = GUIDANCE_NAMESPACE
    OWN_PER_CELL: ClassVar[int] = GUIDANCE_PER_CELL
    OWN_NAME: ClassVar[str] = "the guidance suite"

    def __post_init__(self) -> None:
        object.__setattr__(self, "tasks", check_names(self.tasks, GUIDED_TASKS, "guided task"))
        object.__setattr__(self, "conditions", check_names(self.conditions, CONDITIONS, "condition"))
        check_slots_and_names(self)

    @property
    def source(self) -> GuidanceSource:
        return GuidanceSource()

    def task_modes(self, task: str) -> tuple[str, ...]:
        """Each task's first mode."""
        return self.source.modes(task)[:1]

    def to_dict(self) -> dict[str, Any]:
        return {"suite": "guidance", "benchmark": self.benchmark, "namespace": self.namespace,
                "tasks": list(self.tasks), "conditions": list(self.conditions),
                "per_cell": self.per_cell, "start_slot": self.start_slot, "problems": len(self),
                **({"beyond_benchmark": True} if self.beyond_benchmark else {})}

