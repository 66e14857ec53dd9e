"""Scene references: PaintBench scenes edited by what one or more reference images show (copy
the shape a reference shows, recolour by a palette reference, move to a layout reference's
places, remove what a reference shows; move and recolour from two references). Made by slot
by :class:`paintkit.sources.references.ReferenceSource`. See docs/references.md.

>>> from paintkit.references import reference_task
>>> problem = reference_task("reference_copy").generate(3, "baseline")
>>> [ref.role for ref in problem.references], problem.metadata["category"]
(['object'], 'reference_guided')
"""

from __future__ import annotations

import importlib

from paintkit.references.common import REFERENCE_CATEGORY, ReferenceTask
from paintkit.tasks.base import ProblemGenerator

#: Task name -> module of :mod:`paintkit.references`, in the suite's order.
REFERENCE_MODULES: dict[str, str] = {
    "reference_copy": "copying",
    "reference_remove": "removal",
    "reference_move": "move",
    "reference_recolor": "recolor",
    "reference_move_recolor": "move_recolor",
}
REFERENCE_TASKS: tuple[str, ...] = tuple(REFERENCE_MODULES)


def reference_task(name: str) -> ProblemGenerator:
    """The module of reference task ``name`` (``SPEC``, ``TASK`` and ``generate(seed,
    condition, mode)``); ``ValueError`` listing the known ones."""
    if name not in REFERENCE_MODULES:
        raise ValueError(f"unknown reference task {name!r}; allowed: {', '.join(REFERENCE_TASKS)}")
    return importlib.import_module(f"paintkit.references.{REFERENCE_MODULES[name]}")


def reference_roles(name: str) -> tuple[str, ...]:
    """The roles of task ``name``'s references, in the order the model gets them."""
    task: ReferenceTask = reference_task(name).TASK  # type: ignore[attr-defined]
    return task.roles


__all__ = ["REFERENCE_CATEGORY", "REFERENCE_TASKS", "reference_roles", "reference_task"]
