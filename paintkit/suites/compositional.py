"""The compositional suite: ``kinds`` x ``conditions`` x ``per_cell`` chains of ``steps`` edits.

>>> from paintkit.suites.compositional import CompositionalSuite
>>> suite = CompositionalSuite(steps=2)  # 2 kinds x 8 conditions x 12 = 192 problems
>>> len(suite), suite.spec(0).problem_id
(192, 'compositional-multi_edit_steps2-baseline-steps2-000000')

Layout: ``<out>/<benchmark>/<kind>_steps<k>/NNN_{input,answer}.png`` + ``NNN.json`` (the
usual layout, so ``paintkit eval`` scores it unchanged); order kind-major, then condition,
then slot, and problem ``NNN`` of a folder is condition ``NNN // per_cell``, slot
``start_slot + NNN % per_cell`` (as PaintBench's task folders). It is the
:class:`~paintkit.suites.grid.SourceSuite` over
:class:`~paintkit.sources.compositional.CompositionalSource` (the kinds are its tasks, the
chain length ``steps<k>`` its mode).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from paintkit.compositional.chain import KINDS, check_steps
from paintkit.conditions import CONDITIONS
from paintkit.sources.compositional import COMPOSITIONAL_NAMESPACE, CompositionalSource
from paintkit.suites.grid import SourceSuite
from paintkit.suites.spec import check_names, check_slots_and_names

COMPOSITIONAL_BENCHMARK = "Compositional"
COMPOSITIONAL_PER_CELL = 12


@dataclass(frozen=True)
class CompositionalSuite(SourceSuite):
    """An ordered set of compositional problems (see the module docstring).

    Args:
        steps: edits per problem, 2 or 3.
        kinds: ``multi_edit`` and/or ``conversational`` (default both).
        conditions: PaintBench visual conditions (default all 8).
        per_cell: problems per (kind, condition).
        start_slot: first slot of every cell.
        namespace: seed namespace (``compositional``: the suite's own problems).
        benchmark: folder name of the directory layout.
        beyond_benchmark: allow more than 12 per cell in the ``compositional`` namespace.
    """

    steps: int = 2
    kinds: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    per_cell: int = COMPOSITIONAL_PER_CELL
    start_slot: int = 0
    namespace: str = COMPOSITIONAL_NAMESPACE
    benchmark: str = COMPOSITIONAL_BENCHMARK
    beyond_benchmark: bool = False

    OWN_NAMESPACE: ClassVar[str] = COMPOSITIONAL_NAMESPACE
    OWN_PER_CELL: ClassVar[int] = COMPOSITIONAL_PER_CELL
    OWN_NAME: ClassVar[str] = "the compositional suite"

    def __post_init__(self) -> None:
        check_steps(self.steps)
        object.__setattr__(self, "kinds", check_names(self.kinds, KINDS, "compositional kind"))
        object.__setattr__(self, "conditions", check_names(self.conditions, CONDITIONS, "condition"))
        check_slots_and_names(self)

    @property
    def source(self) -> CompositionalSource:
        return CompositionalSource()

    def folders(self) -> tuple[str, ...]:
        return tuple(f"{kind}_steps{self.steps}" for kind in self.kinds)

    @property
    def tasks(self) -> tuple[str, ...]:  # type: ignore[override]  # the kinds, read-only
        """The kinds: the tasks of the compositional source."""
        return self.kinds

    def task_modes(self, task: str) -> tuple[str, ...]:
        """``steps2`` or ``steps3``: this suite's chain length."""
        return (f"steps{self.steps}",)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able description (the manifest's ``suite``); ``from_dict`` inverts it."""
        return {"suite": "compositional", "benchmark": self.benchmark, "namespace": self.namespace,
                "steps": self.steps, "kinds": list(self.kinds), "conditions": list(self.conditions),
                "per_cell": self.per_cell, "start_slot": self.start_slot, "problems": len(self),
                **({"beyond_benchmark": True} if self.beyond_benchmark else {})}

