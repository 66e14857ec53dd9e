"""The one suite type: a grid of problems over one problem source.

A :class:`SourceSuite` holds task folders x ``conditions`` x ``per_cell`` problems of one
:class:`~paintkit.sources.base.ProblemSource` and makes each through that source's one entry,
``source.problem(task, slot, ...)`` (the attempt search is inside). PaintBench's
:class:`~paintkit.suites.Suite`, :class:`~paintkit.tinygrafix.suite.TinyGrafixSuite`,
:class:`~paintkit.suites.guidance.GuidanceSuite` and
:class:`~paintkit.suites.compositional.CompositionalSuite` are its presets: each names its
source, its fields (``to_dict``, the manifest's description) and the modes a task uses.

Order (the ``index`` of :meth:`SourceSuite.spec`, and the ``NNN`` of a task folder):
folder-major, then condition in ``conditions`` order, then the cell position
``k = 0 .. per_cell-1``. Cell position ``p = start_slot + round * per_cell + k`` uses mode
``modes[p % len(modes)]`` and per-mode slot ``p // len(modes)`` (``modes`` is
:meth:`SourceSuite.task_modes`), so problem ``NNN`` of a folder is
``condition_index * per_cell + k``. Everything is computed from the index (no per-problem
lists), so a suite of any size costs the same memory.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, TypeVar

from paintkit.conditions import Condition
from paintkit.sources.base import ProblemSource
from paintkit.suites.base import SuiteMethods
from paintkit.suites.spec import PROBLEM, ProblemSpec
from paintkit.tasks.base import Problem

_Suite = TypeVar("_Suite", bound="SourceSuite")


class SourceSuite(SuiteMethods):
    """Problems ``folders x conditions x per_cell`` of :attr:`source` (see the module
    docstring). A preset is a frozen dataclass with the fields ``tasks``, ``conditions``,
    ``per_cell``, ``start_slot``, ``namespace``, ``benchmark`` and ``beyond_benchmark``
    that defines :attr:`source` and ``to_dict``."""

    tasks: tuple[str, ...]
    conditions: tuple[str, ...]
    per_cell: int
    start_slot: int
    namespace: str

    @property
    def source(self) -> ProblemSource:
        """The problem source every problem of this suite comes from."""
        raise NotImplementedError

    @property
    def reference_images(self) -> bool:
        """Whether problems of this suite can have reference images (its source's)."""
        return self.source.reference_images

    # -- shape (a preset may add folders or change what a task's folder and modes are) -------
    @property
    def block(self) -> int:
        """Problems per task folder: ``len(conditions) * per_cell``."""
        return len(self.conditions) * self.per_cell

    def folders(self) -> tuple[str, ...]:
        """Task folders of the directory layout, in suite order."""
        return self.tasks

    def __len__(self) -> int:
        return len(self.folders()) * self.block

    def task_modes(self, task: str) -> tuple[str, ...]:
        """The modes of ``task`` this suite uses, split evenly over a cell."""
        return self.source.modes(task)

    def folder_task(self, folder_index: int) -> tuple[str, str, str]:
        """``(kind, task, folder)`` of folder ``folder_index``."""
        return PROBLEM, self.tasks[folder_index], self.folders()[folder_index]

    def seed_condition(self, task: str, condition: str) -> str:
        """The condition part of the seed key (a variant's key; here the name)."""
        return condition

    def condition(self, name: str) -> str | Condition:
        """What the source is given for condition ``name`` (a variant in PaintBench)."""
        return name

    # -- addressing ----------------------------------------------------------------------
    def spec(self, index: int, round: int = 0) -> ProblemSpec:
        """Problem ``index`` (``0 <= index < len(self)``) of round ``round``.

        Round ``r`` is the same suite shifted by ``r * per_cell`` cell positions (fresh
        problems); infinite streams walk rounds 0, 1, 2, ...
        """
        if not 0 <= index < len(self):
            raise IndexError(f"problem index {index} outside [0, {len(self)})")
        folder_i, rest = divmod(index, self.block)
        cond_i, k = divmod(rest, self.per_cell)
        kind, task, folder = self.folder_task(folder_i)
        modes = self.task_modes(task)
        position = self.start_slot + round * self.per_cell + k
        condition = self.conditions[cond_i]
        return ProblemSpec(
            index=index, kind=kind, task=task, condition=condition,
            seed_condition=self.seed_condition(task, condition),
            mode=modes[position % len(modes)], slot=position // len(modes),
            namespace=self.namespace, folder=folder, idx=round * self.block + rest,
            idx_digits=max(3, len(str(self.block - 1))),
        )

    def make_problem(self, spec: ProblemSpec) -> Problem:
        """The problem ``spec`` names, from :attr:`source` (before the preservation transform
        and the ids, which :func:`~paintkit.suites.build_problem` adds)."""
        if spec.seed_condition == spec.condition:  # nothing the task depends on was changed
            return self.source.problem(spec.task, spec.slot, condition=spec.condition,
                                       mode=spec.mode, namespace=spec.namespace)
        return self.source.problem(spec.task, spec.slot, condition=self.condition(spec.condition),
                                   mode=spec.mode, namespace=spec.namespace,
                                   condition_key=spec.seed_condition)

    # -- serialisation -------------------------------------------------------------------
    @classmethod
    def from_dict(cls: type[_Suite], data: Mapping[str, Any]) -> _Suite:
        """The suite ``to_dict`` described (unknown keys such as ``problems`` ignored)."""
        names = {f.name for f in fields(cls)}  # type: ignore[arg-type]  # presets: dataclasses
        return cls(**{k: (tuple(v) if isinstance(v, list) else v)
                      for k, v in data.items() if k in names})
