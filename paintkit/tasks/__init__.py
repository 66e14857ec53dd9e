"""PaintBench tasks: a registry of task modules sharing one contract (see ``base.py``).

>>> from paintkit.tasks import make_problem
>>> problem = make_problem("translation", seed=7, condition="baseline", mode="amount")
>>> problem.input.shape, problem.instruction  # doctest: +ELLIPSIS
((1024, 1024, 3), 'Move the cloud 17% of the canvas width to the right ...')
"""

from __future__ import annotations

import importlib
import warnings

from paintkit.tasks.base import CATEGORIES, DEFAULT_MODE, Problem, ProblemGenerator, TaskSpec

#: The 20 tasks in the paper's order (table 4); task ``name`` lives in ``paintkit/tasks/<name>.py``.
TASKS: tuple[str, ...] = (
    "translation", "rotation", "reflection", "scaling", "shearing",
    "construction", "removal", "copying", "border", "cropping",
    "recolor", "flood_fill", "blending", "gradient", "point_operations",
    "comparison", "ordering", "pattern", "counting", "legend",
)


def task_module(name: str) -> ProblemGenerator:
    """The module implementing task ``name`` (a :class:`~paintkit.tasks.base.ProblemGenerator`:
    ``SPEC`` and ``generate(seed, condition, mode)``); ``ValueError`` listing the known tasks."""
    if name not in TASKS:
        raise ValueError(f"unknown task {name!r}; allowed: {', '.join(TASKS)}")
    return importlib.import_module(f"paintkit.tasks.{name}")


def task_spec(name: str) -> TaskSpec:
    """The :class:`TaskSpec` (name, category, modes, parameters) of task ``name``."""
    return task_module(name).SPEC


def make_problem(task: str, seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    """Problem ``seed`` of ``task`` under ``condition`` and ``mode``, in memory (one seed, no
    attempt search: :func:`paintkit.slots.make_slot_problem` makes a benchmark slot).

    ``mode=None`` takes the task's first mode. Raises ``ValueError`` for unknown names and
    :class:`~paintkit.errors.RejectedSeed` when this seed gives no valid problem.
    """
    module = task_module(task)
    return module.generate(seed, condition, module.SPEC.check_mode(mode))


def generate(task: str, seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    """Deprecated alias of :func:`make_problem` (same arguments); removed in the next version."""
    warnings.warn("paintkit.tasks.generate is deprecated; use paintkit.tasks.make_problem (same "
                  "arguments)", DeprecationWarning, stacklevel=2)
    return make_problem(task, seed, condition, mode)


__all__ = [
    "CATEGORIES", "DEFAULT_MODE", "Problem", "ProblemGenerator", "TASKS", "TaskSpec",
    "make_problem", "task_module", "task_spec",
]
