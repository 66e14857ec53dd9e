"""The TinyGrafixBench suite: 20 chart tasks x ``per_cell`` problems (30 in the benchmark).

>>> from paintkit.suites.tinygrafix import TinyGrafixSuite
>>> suite = TinyGrafixSuite()  # 600 problems, <out>/TinyGrafixBench/<chart>_<task>/NNN_*
>>> len(suite), suite.spec(0).problem_id
(600, 'tinygrafixbench-bar_chart_add_bar-default-default-000000')

It has the interface every engine, writer and :class:`~paintkit.data.ProblemStream` uses
(``len``, ``spec(index, round)``, ``problems``, ``to_dict``/``from_dict``, ``benchmark``) and
makes its own problems (:meth:`make_problem`), so the whole pipeline runs it unchanged.

Order: task-major in ``tasks`` order (chart-major, the paper's order by default), then
slot. Problem ``NNN`` of a task folder is slot ``start_slot + NNN``; round ``r`` of an
infinite stream continues with slots shifted by ``r * per_cell``. Charts have no visual
conditions or modes: both are ``"default"`` in specs and metadata.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from paintkit.charts.environment import installed_matplotlib
from paintkit.charts.generate import make_chart_problem
from paintkit.charts.registry import TINYGRAFIX_TASKS
from paintkit.suites.base import DataclassSuite
from paintkit.suites.spec import PROBLEM, ProblemSpec, check_slots_and_names
from paintkit.tasks import Problem

TINYGRAFIX_BENCHMARK = "TinyGrafixBench"
TINYGRAFIX_NAMESPACE = "tinygrafixbench"
TINYGRAFIX_PER_TASK = 30
_DEFAULT = "default"


@dataclass(frozen=True)
class TinyGrafixSuite(DataclassSuite):
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
    def block(self) -> int:
        """Problems per task folder."""
        return self.per_cell

    def __len__(self) -> int:
        return len(self.tasks) * self.per_cell

    def folders(self) -> tuple[str, ...]:
        """Task folders of the directory layout, in suite order."""
        return self.tasks

    def spec(self, index: int, round: int = 0) -> ProblemSpec:
        """Problem ``index`` (``0 <= index < len(self)``) of round ``round``."""
        if not 0 <= index < len(self):
            raise IndexError(f"problem index {index} outside [0, {len(self)})")
        task_i, k = divmod(index, self.per_cell)
        task = self.tasks[task_i]
        return ProblemSpec(
            index=index, kind=PROBLEM, task=task, condition=_DEFAULT, seed_condition=_DEFAULT,
            mode=_DEFAULT, slot=self.start_slot + round * self.per_cell + k, namespace=self.namespace,
            folder=task, idx=round * self.per_cell + k, idx_digits=max(3, len(str(self.per_cell - 1))),
        )

    def make_problem(self, spec: ProblemSpec) -> Problem:
        """The chart problem ``spec`` names (called by :func:`paintkit.suites.build_problem`)."""
        return make_chart_problem(spec.task, spec.slot, namespace=spec.namespace,
                                      any_matplotlib=self.any_matplotlib)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able description (the manifest's ``suite``); ``from_dict`` inverts it."""
        out = {"suite": "tinygrafixbench", "benchmark": self.benchmark, "namespace": self.namespace,
               "tasks": list(self.tasks), "per_cell": self.per_cell, "start_slot": self.start_slot,
               "problems": len(self),
               **({"beyond_benchmark": True} if self.beyond_benchmark else {})}
        if self.any_matplotlib:  # which matplotlib drew the charts (a resume must match it)
            out.update(any_matplotlib=True, matplotlib=installed_matplotlib())
        return out

