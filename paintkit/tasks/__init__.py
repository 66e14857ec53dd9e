"""PaintBench tasks: a registry of task modules sharing one contract (see ``base.py``).

>>> from paintkit.tasks import generate
>>> problem = generate("translation", seed=7, condition="baseline", mode="amount")
>>> problem.input.shape, problem.instruction  # doctest: +SKIP
((1024, 1024, 3), 'Move the red star ...')
"""

from __future__ import annotations

import importlib
from types import ModuleType

from paintkit.tasks.base import CATEGORIES, DEFAULT_MODE, Problem, TaskSpec

# Task name -> module under paintkit.tasks, in the paper's order (table 4).
TASK_MODULES: dict[str, str] = {
    "translation": "translation", "rotation": "rotation", "reflection": "reflection",
    "scaling": "scaling", "shearing": "shearing",
    "construction": "construction", "removal": "removal", "copying": "copying",
    "border": "border", "cropping": "cropping",
    "recolor": "recolor", "flood_fill": "flood_fill", "blending": "blending",
    "gradient": "gradient", "point_operations": "point_operations",
    "comparison": "comparison", "ordering": "ordering", "pattern": "pattern",
    "counting": "counting", "legend": "legend",
}
TASKS: tuple[str, ...] = tuple(TASK_MODULES)


def task_module(name: str) -> ModuleType:
    """The module implementing task ``name``; ``ValueError`` listing the known tasks."""
    if name not in TASK_MODULES:
        raise ValueError(f"unknown task {name!r}; allowed: {', '.join(TASKS)}")
    return importlib.import_module(f"paintkit.tasks.{TASK_MODULES[name]}")


def task_spec(name: str) -> TaskSpec:
    return task_module(name).SPEC


def available_tasks() -> tuple[str, ...]:
    """Registered tasks whose module exists.

    Only the absence of the task module itself counts as "not available": any other import
    error (a missing dependency, a bug) propagates, so it can never silently shrink a suite
    or the test grid.
    """
    out = []
    for name in TASKS:
        try:
            task_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != f"paintkit.tasks.{TASK_MODULES[name]}":
                raise
            continue
        out.append(name)
    return tuple(out)


def generate(task: str, seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    """Generate problem ``seed`` of ``task`` under ``condition`` and ``mode``.

    ``mode=None`` takes the task's first mode. Raises ``ValueError`` for unknown names and
    :class:`~paintkit.errors.RejectedSeed` when this seed gives no valid problem.
    """
    module = task_module(task)
    return module.generate(seed, condition, module.SPEC.check_mode(mode))


__all__ = [
    "CATEGORIES", "DEFAULT_MODE", "Problem", "TASKS", "TASK_MODULES", "TaskSpec",
    "available_tasks", "generate", "task_module", "task_spec",
]
