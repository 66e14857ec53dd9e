"""The chart style transfer suite: the 5 chart types x ``per_cell`` problems (30 by default).

>>> from paintkit.tinygrafix.style_suite import StyleTransferSuite
>>> suite = StyleTransferSuite()  # 150 problems, <out>/StyleTransfer/<chart>/NNN_*
>>> len(suite), suite.spec(0).problem_id
(150, 'style_transfer-bar_chart-default-default-000000')

The :class:`~paintkit.suites.grid.SourceSuite` over
:class:`~paintkit.tinygrafix.style_source.StyleTransferSource`: each problem is
``NNN_input.png``, ``NNN_reference_1.png`` (the style reference), ``NNN_answer.png`` and
``NNN.json`` in its chart type's folder (docs/references.md). Order: chart-major in
``tasks`` order, then slot; problem ``NNN`` of a folder is slot ``start_slot + NNN``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from paintkit.suites.grid import SourceSuite
from paintkit.suites.spec import check_names, check_slots_and_names
from paintkit.tinygrafix.environment import installed_matplotlib
from paintkit.tinygrafix.generate import VISUAL_CONDITION
from paintkit.tinygrafix.registry import CHARTS
from paintkit.tinygrafix.style_source import STYLE_TRANSFER_NAMESPACE, StyleTransferSource

STYLE_TRANSFER_BENCHMARK = "StyleTransfer"
STYLE_TRANSFER_PER_CELL = 30


@dataclass(frozen=True)
class StyleTransferSuite(SourceSuite):
    """An ordered set of chart style transfer problems (see the module docstring).

    Args:
        tasks: chart types (default: all 5, ``bar_chart`` ... ``network``).
        per_cell: problems per chart type (30 by default).
        start_slot: first slot of every chart type (continue a ``per_cell=N`` corpus with N).
        namespace: seed namespace; anything but ``style_transfer`` gives fresh problems.
        benchmark: folder name of the directory layout.
        beyond_benchmark: allow more than 30 per chart type in the ``style_transfer`` namespace.
        any_matplotlib: draw with the installed matplotlib even when it is not the release
            the chart bytes are made with (recorded in ``to_dict``, so in the manifest).
    """

    tasks: tuple[str, ...] = ()
    per_cell: int = STYLE_TRANSFER_PER_CELL
    start_slot: int = 0
    namespace: str = STYLE_TRANSFER_NAMESPACE
    benchmark: str = STYLE_TRANSFER_BENCHMARK
    beyond_benchmark: bool = False
    any_matplotlib: bool = False

    OWN_NAMESPACE: ClassVar[str] = STYLE_TRANSFER_NAMESPACE
    OWN_PER_CELL: ClassVar[int] = STYLE_TRANSFER_PER_CELL
    OWN_NAME: ClassVar[str] = "the style transfer suite"
    #: Charts have no visual conditions: one cell per chart type.
    conditions: ClassVar[tuple[str, ...]] = (VISUAL_CONDITION,)  # type: ignore[misc]

    def __post_init__(self) -> None:
        tasks = self.tasks
        if isinstance(tasks, str):
            tasks = tuple(t for t in tasks.split(",") if t.strip())
        object.__setattr__(self, "tasks", check_names(tasks, CHARTS, "chart type"))
        check_slots_and_names(self)

    @property
    def source(self) -> StyleTransferSource:
        return StyleTransferSource(any_matplotlib=self.any_matplotlib)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able description (the manifest's ``suite``); ``from_dict`` inverts it."""
        out = {"suite": "style-transfer", "benchmark": self.benchmark, "namespace": self.namespace,
               "tasks": list(self.tasks), "per_cell": self.per_cell, "start_slot": self.start_slot,
               "problems": len(self),
               **({"beyond_benchmark": True} if self.beyond_benchmark else {})}
        if self.any_matplotlib:  # which matplotlib drew the charts (a resume must match it)
            out.update(any_matplotlib=True, matplotlib=installed_matplotlib())
        return out
