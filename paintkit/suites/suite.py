"""PaintBench's suite: the :class:`~paintkit.suites.grid.SourceSuite` over the PaintBench tasks.

A :class:`Suite` is a product of tasks x conditions x ``per_cell`` problems, plus the
preservation split when ``removal`` is in it. ``Suite()`` is PaintBench: the 20 tasks, the 8
conditions, 12 problems per (task, condition) with the task's modes split evenly, seed
namespace ``paintbench`` = 1,920 problems, plus 96 preservation problems.

Order (the index ``i`` of :meth:`Suite.spec`, and the ``NNN`` of the docs/file-layout.md layout):
task-major in ``tasks`` order, then condition in ``conditions`` order, then the cell
position ``k = 0 .. per_cell-1``; the preservation split comes last, in the order of the
removal problems it is built from. Cell position ``p = start_slot + k`` uses mode
``modes[p % len(modes)]`` and per-mode slot ``p // len(modes)``, so 12 problems split 12 /
6+6 / 4+4+4 / 3x4 over 1 / 2 / 3 / 4 modes, and a corpus made with ``per_cell=N``
continues with ``start_slot=N``. Problem ``NNN`` of a task folder is
``condition_index * per_cell + k``.

The grid, the order and the problem of a spec are :class:`~paintkit.suites.grid.SourceSuite`'s;
this preset adds the mode selection, the condition variants and the preservation split.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from paintkit.conditions import CONDITIONS, Condition
from paintkit.sources.paintbench import PAINTBENCH_NAMESPACE, PaintBenchSource
from paintkit.suites.grid import SourceSuite
from paintkit.suites.spec import (
    PRESERVATION,
    PRESERVATION_SOURCE,
    PRESERVATION_TASK,
    PROBLEM,
    check_slots_and_names,
)
from paintkit.suites.spec import (
    TRAINING_NAMESPACE as TRAINING_NAMESPACE,  # its home is spec.py; kept importable here
)
from paintkit.suites.variants import check_counts, check_size, condition_key, variant_condition
from paintkit.tasks import TASKS, task_spec

#: Problems per (task, condition) of PaintBench; more in its namespace reaches past the benchmark.
PAINTBENCH_PER_CELL = 12


def _as_tuple(value: str | Iterable[Any], what: str) -> tuple:
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    try:
        return tuple(str(v).strip() for v in value)
    except TypeError:
        raise ValueError(f"{what} must be a list of names, got {value!r}") from None


def resolve_modes(tasks: Sequence[str], selection: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Modes per task from a selection of ``mode`` / ``task:mode`` names.

    A task that no entry names keeps all its modes; an entry that matches no mode of the
    suite's tasks is a ``ValueError`` listing the allowed ``task:mode`` names.
    """
    all_modes = {task: task_spec(task).modes for task in tasks}
    chosen: dict[str, list[str]] = {task: [] for task in tasks}
    for entry in selection:
        task_name, _, mode = entry.rpartition(":")
        hits = [t for t in tasks if (not task_name or t == task_name) and mode in all_modes[t]]
        if not hits:
            allowed = ", ".join(f"{t}:{m}" for t in tasks for m in all_modes[t])
            raise ValueError(f"no task of this suite has mode {entry!r}; allowed: {allowed}")
        for task in hits:
            if mode not in chosen[task]:
                chosen[task].append(mode)
    # Keep the task's own mode order so the split does not depend on how modes were listed.
    return {task: tuple(m for m in all_modes[task] if m in chosen[task]) or all_modes[task]
            for task in tasks}


@dataclass(frozen=True)
class Suite(SourceSuite):
    """An ordered set of problems (see the module docstring for the order).

    Args:
        tasks: task names (default: all 20 PaintBench tasks).
        conditions: visual conditions (default: all 8).
        modes: ``mode`` or ``task:mode`` names to keep (default: every mode of every task).
        per_cell: problems per (task, condition); 12 in PaintBench.
        start_slot: first cell position (continue a corpus made with ``per_cell=N`` with N).
        namespace: seed namespace; anything but ``paintbench`` gives fresh problems.
        size: ``(W, H)`` canvas of the square conditions (see :mod:`.variants`).
        counts: ``{table: (baseline, n_med, n_high, n_xhigh)}`` object-count overrides.
        preservation: add the preservation split when ``removal`` is among the tasks.
        benchmark: folder name of the directory layout (``<out>/<benchmark>/<task>/``).
        beyond_benchmark: allow more than 12 problems per cell in the ``paintbench``
            namespace (a suite that then holds every benchmark problem); refused otherwise,
            so training data never contains the benchmark by accident.

    Example:
        >>> suite = Suite(tasks=["translation"], per_cell=2, namespace="demo")
        >>> len(suite), suite.spec(0).problem_id
        (16, 'demo-translation-baseline-amount-000000')
    """

    tasks: tuple[str, ...] = TASKS
    conditions: tuple[str, ...] = CONDITIONS
    modes: tuple[str, ...] = ()
    per_cell: int = 12
    start_slot: int = 0
    namespace: str = PAINTBENCH_NAMESPACE
    size: tuple[int, int] | None = None
    counts: tuple[tuple[str, tuple[int, int, int, int]], ...] = ()
    preservation: bool = True
    benchmark: str = "PaintBench"
    beyond_benchmark: bool = False

    OWN_NAMESPACE: ClassVar[str] = PAINTBENCH_NAMESPACE
    OWN_PER_CELL: ClassVar[int] = PAINTBENCH_PER_CELL
    OWN_NAME: ClassVar[str] = "PaintBench"

    if TYPE_CHECKING:  # set on each instance by __post_init__; ClassVar: not dataclass fields
        _task_modes: ClassVar[dict[str, tuple[str, ...]]]
        _keys: ClassVar[dict[tuple[str, str], str]]
        _source: ClassVar[PaintBenchSource]

    def __post_init__(self) -> None:
        tasks = _as_tuple(self.tasks, "tasks")
        conditions = _as_tuple(self.conditions, "conditions")
        modes = _as_tuple(self.modes, "modes")
        for name, values, allowed in (("task", tasks, TASKS), ("visual condition", conditions, CONDITIONS)):
            if not values:
                raise ValueError(f"a suite needs at least one {name}; allowed: {', '.join(allowed)}")
            for value in values:
                if value not in allowed:
                    raise ValueError(f"unknown {name} {value!r}; allowed: {', '.join(allowed)}")
            if len(set(values)) != len(values):
                raise ValueError(f"{name}s listed twice: {', '.join(values)}")
        check_slots_and_names(self)
        size = None if self.size is None else tuple(int(v) for v in self.size)
        if size is not None:
            check_size(size)
        counts = dict(self.counts.items() if isinstance(self.counts, Mapping) else self.counts)
        counts = {str(k): tuple(int(v) for v in vals) for k, vals in counts.items()}
        check_counts(counts)
        set_ = object.__setattr__
        set_(self, "tasks", tasks)
        set_(self, "conditions", conditions)
        set_(self, "modes", modes)
        set_(self, "size", size)
        set_(self, "counts", tuple(sorted(counts.items())))
        set_(self, "preservation", bool(self.preservation))
        set_(self, "_task_modes", resolve_modes(tasks, modes))
        set_(self, "_keys", {})
        set_(self, "_source", PaintBenchSource())

    @property
    def source(self) -> PaintBenchSource:
        return self._source

    # -- shape ---------------------------------------------------------------------------
    @property
    def has_preservation(self) -> bool:
        return self.preservation and PRESERVATION_SOURCE in self.tasks

    def task_modes(self, task: str) -> tuple[str, ...]:
        """The modes of ``task`` this suite uses, in the task's order."""
        return self._task_modes[task]

    def folders(self) -> tuple[str, ...]:
        """Task folders of the directory layout, in suite order."""
        return self.tasks + ((PRESERVATION_TASK,) if self.has_preservation else ())

    def folder_task(self, folder_index: int) -> tuple[str, str, str]:
        """The task folders, then the preservation split (built from removal problems)."""
        if folder_index < len(self.tasks):
            return PROBLEM, self.tasks[folder_index], self.tasks[folder_index]
        return PRESERVATION, PRESERVATION_SOURCE, PRESERVATION_TASK

    def condition(self, name: str) -> Condition:
        """Condition ``name`` with this suite's size / count overrides."""
        return variant_condition(name, self.size, dict(self.counts))

    def seed_condition(self, task: str, condition: str) -> str:
        """The condition key of ``task``'s seeds: the name, or the variant's key
        (``baseline@512x512``) when the size or a count ``task`` uses changed."""
        key = self._keys.get((task, condition))
        if key is None:
            key = condition_key(self.condition(condition), task_spec(task).counts)
            self._keys[(task, condition)] = key
        return key

    # -- serialisation -------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-able description (the manifest's ``suite``); ``from_dict`` inverts it."""
        return {
            "benchmark": self.benchmark, "namespace": self.namespace,
            "tasks": list(self.tasks), "conditions": list(self.conditions),
            "modes": [f"{t}:{m}" for t in self.tasks for m in self._task_modes[t]],
            "per_cell": self.per_cell, "start_slot": self.start_slot,
            "size": None if self.size is None else list(self.size),
            "counts": {table: list(levels) for table, levels in self.counts},
            "preservation": self.has_preservation, "problems": len(self),
            **({"beyond_benchmark": True} if self.beyond_benchmark else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Suite:
        names = {f.name for f in fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in names}
        if kwargs.get("size") is not None:
            kwargs["size"] = tuple(kwargs["size"])
        return cls(**kwargs)
