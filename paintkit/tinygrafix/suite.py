"""The TinyGrafixBench suite: 20 chart tasks x ``per_cell`` problems (30 in the benchmark).

>>> from paintkit.tinygrafix.suite import TinyGrafixSuite
>>> suite = TinyGrafixSuite()  # 600 problems, <out>/TinyGrafixBench/<chart>_<task>/NNN_*
>>> len(suite), suite.spec(0).problem_id
(600, 'tinygrafixbench-bar_chart_add_bar-default-default-000000')

It is the :class:`~paintkit.suites.grid.SourceSuite` over
:class:`~paintkit.tinygrafix.source.TinyGrafixSource`, so every engine, writer and
:class:`~paintkit.data.ProblemStream` runs it unchanged.

Order: task-major in ``tasks`` order (chart-major, the paper's order by default), then
slot. Problem ``NNN`` of a task folder is slot ``start_slot + NNN``; round ``r`` of an
infinite stream continues with slots shifted by ``r * per_cell``. Charts have no visual
conditions or modes: both are ``"default"`` in specs and metadata.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from paintkit.suites.grid import SourceSuite
from paintkit.suites.spec import check_slots_and_names
from paintkit.tinygrafix.environment import installed_matplotlib
from paintkit.tinygrafix.generate import VISUAL_CONDITION
from paintkit.tinygrafix.registry import TINYGRAFIX_TASKS
from paintkit.tinygrafix.source import TinyGrafixSource

TINYGRAFIX_BENCHMARK = "TinyGrafixBench"
TINYGRAFIX_NAMESPACE = "tinygrafixbench"
TINYGRAFIX_PER_TASK = 30


@dataclass(frozen=True)
class TinyGrafixSuite(SourceSuite):
    """An ordered set of chart problems (see the module docstring).

    Args:
        tasks: chart task names ``<chart>_<task>`` (default: all 20).
        per_cell: problems per task (30 in the benchmark).
        start_slot: first slot of every task (continue a ``per_cell=N`` corpus with N).
        namespace: seed namespace; anything but ``tinygrafixbench`` gives fresh problems.
        benchmark: folder name of the directory layout.
        beyond_benchmark: allow more than 30 per task in the ``tinygrafixbench`` namespace.
        any_matplotlib: draw with the installed matplotlib even when it is not the release
            the benchmark's bytes are made with (recorded in ``to_dict``, so in the manifest).
    """

    tasks: tuple[str, ...] = ()
    per_cell: int = TINYGRAFIX_PER_TASK
    start_slot: int = 0
    namespace: str = TINYGRAFIX_NAMESPACE
    benchmark: str = TINYGRAFIX_BENCHMARK
    beyond_benchmark: bool = False
    any_matplotlib: bool = False

    OWN_NAMESPACE: ClassVar[str] = TINYGRAFIX_NAMESPACE
    OWN_PER_CELL: ClassVar[int] = TINYGRAFIX_PER_TASK
    OWN_NAME: ClassVar[str] = TINYGRAFIX_BENCHMARK
    #: Charts have no visual conditions: one cell per task.
    conditions: ClassVar[tuple[str, ...]] = (VISUAL_CONDITION,)  # type: ignore[misc]

    def __post_init__(self) -> None:
        allowed = TINYGRAFIX_TASKS
        tasks = self.tasks
        if isinstance(tasks, str):
            tasks = [t for t in tasks.split(",") if t.strip()]
        tasks = tuple(str(t).strip() for t in tasks) or allowed
        for task in tasks:
            if task not in allowed:
                raise ValueError(f"unknown chart task {task!r}; allowed: {', '.join(allowed)}")
        if len(set(tasks)) != len(tasks):
            raise ValueError(f"chart tasks listed twice: {', '.join(tasks)}")
        check_slots_and_names(self)
        object.__setattr__(self, "tasks", tasks)

    @property
    def source(self) -> TinyGrafixSource:
        return TinyGrafixSource(any_matplotlib=self.any_matplotlib)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able description (the manifest's ``suite``); ``from_dict`` inverts it."""
        out = {"suite": "tinygrafixbench", "benchmark": self.benchmark, "namespace": self.namespace,
               "tasks": list(self.tasks), "per_cell": self.per_cell, "start_slot": self.start_slot,
               "problems": len(self),
               **({"beyond_benchmark": True} if self.beyond_benchmark else {})}
        if self.any_matplotlib:  # which matplotlib drew the charts (a resume must match it)
            out.update(any_matplotlib=True, matplotlib=installed_matplotlib())
        return out

