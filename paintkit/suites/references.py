"""The scene reference suite: reference ``tasks`` x ``conditions`` x ``per_cell``.

>>> from paintkit.suites.references import ReferenceSuite
>>> suite = ReferenceSuite()  # 5 tasks x 8 conditions x 12 = 480 problems
>>> len(suite), suite.spec(0).problem_id
(480, 'references-reference_copy-baseline-default-000000')

Layout ``<out>/References/<task>/NNN_{input,answer}.png``, ``NNN_reference_1.png``, ... and
``NNN.json``, ordered and numbered as PaintBench's task folders (problem ``NNN`` is condition
``NNN // per_cell``, slot ``start_slot + NNN % per_cell``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from paintkit.conditions import CONDITIONS
from paintkit.references import REFERENCE_TASKS
from paintkit.sources.references import REFERENCES_NAMESPACE, ReferenceSource
from paintkit.suites.grid import SourceSuite
from paintkit.suites.spec import check_names, check_slots_and_names

REFERENCES_BENCHMARK = "References"
REFERENCES_PER_CELL = 12


@dataclass(frozen=True)
class ReferenceSuite(SourceSuite):
    """Ordered scene reference problems: the :class:`~paintkit.suites.grid.SourceSuite` over
    :class:`~paintkit.sources.references.ReferenceSource`."""

    tasks: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    per_cell: int = REFERENCES_PER_CELL
    start_slot: int = 0
    namespace: str = REFERENCES_NAMESPACE
    benchmark: str = REFERENCES_BENCHMARK
    beyond_benchmark: bool = False

    OWN_NAMESPACE: ClassVar[str] = REFERENCES_NAMESPACE
    OWN_PER_CELL: ClassVar[int] = REFERENCES_PER_CELL
    OWN_NAME: ClassVar[str] = "the scene reference suite"

    def __post_init__(self) -> None:
        object.__setattr__(self, "tasks", check_names(self.tasks, REFERENCE_TASKS,
                                                      "reference task"))
        object.__setattr__(self, "conditions", check_names(self.conditions, CONDITIONS, "condition"))
        check_slots_and_names(self)

    @property
    def source(self) -> ReferenceSource:
        return ReferenceSource()

    def to_dict(self) -> dict[str, Any]:
        return {"suite": "references", "benchmark": self.benchmark, "namespace": self.namespace,
                "tasks": list(self.tasks), "conditions": list(self.conditions),
                "per_cell": self.per_cell, "start_slot": self.start_slot, "problems": len(self),
                **({"beyond_benchmark": True} if self.beyond_benchmark else {})}
