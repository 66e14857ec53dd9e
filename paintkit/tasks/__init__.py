"""PaintBench tasks: a registry of task modules sharing one contract (see ``base.py``).

>>> from paintkit.tasks import task_module
>>> problem = task_module("translation").generate(7, "baseline", "amount")  # generator seed 7
>>> problem.input.shape, problem.instruction  # doctest: +ELLIPSIS
((1024, 1024, 3), 'Move the cloud 17% of the canvas width to the right ...')

A generator seed may be rejected (:class:`~paintkit.errors.RejectedSeed`); the problem of a
slot, with the attempt search, comes from :mod:`paintkit.sources` (``paintkit.generate``).
"""

from __future__ import annotations

import importlib

from paintkit.tasks.base import (
    CATEGORIES,
    DEFAULT_MODE,
    Problem,
    ProblemGenerator,
    Reference,
    TaskSpec,
)

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


__all__ = [
    "CATEGORIES", "DEFAULT_MODE", "Problem", "ProblemGenerator", "Reference", "TASKS", "TaskSpec",
    "task_module", "task_spec",
]
