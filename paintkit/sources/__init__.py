"""Problem sources: the one way to make a problem (docs/generate.md#problem-sources).

The sources share one contract (:class:`~paintkit.sources.base.ProblemSource`): PaintBench
tasks (``"paintbench"``), TinyGrafixBench charts (``"tinygrafixbench"``), guided problems
(``"guidance"``), compositional chains (``"compositional"``), scene reference problems
(``"references"``) and chart style transfer problems (``"style-transfer"``). Each makes
*the problem of a slot*, with the attempt search inside, through one method::

    source.problem(task, slot, condition=..., mode=..., namespace=...)

and every suite (:class:`~paintkit.suites.grid.SourceSuite`) is a grid over one source.
:func:`generate` is the same call by source name.

>>> from paintkit.sources import generate
>>> problem = generate("translation", seed=0, condition="striped", mode="amount")
>>> problem.metadata["slot"], problem.metadata["attempt"]  # attempt 0's seed is rejected
(0, 1)

Importing this package loads no source: :func:`get_source` imports the one it is asked for.
"""

from __future__ import annotations

import importlib
from typing import Any

from paintkit.conditions import Condition
from paintkit.layout.problem_files import problem_id
from paintkit.sources.base import ProblemSource, Slot
from paintkit.tasks.base import Problem

#: Source name -> (module, class), imported on first use.
SOURCES: dict[str, tuple[str, str]] = {
    "paintbench": ("paintkit.sources.paintbench", "PaintBenchSource"),
    "tinygrafixbench": ("paintkit.tinygrafix.source", "TinyGrafixSource"),
    "guidance": ("paintkit.sources.guidance", "GuidanceSource"),
    "compositional": ("paintkit.sources.compositional", "CompositionalSource"),
    "references": ("paintkit.sources.references", "ReferenceSource"),
    "style-transfer": ("paintkit.tinygrafix.style_source", "StyleTransferSource"),
}


def get_source(name: str, **settings: Any) -> ProblemSource:
    """The source called ``name`` with ``settings`` (e.g. ``max_attempts``,
    ``any_matplotlib`` for charts); ``ValueError`` listing the names."""
    if name not in SOURCES:
        raise ValueError(f"unknown problem source {name!r}; allowed: {', '.join(SOURCES)}")
    module, cls = SOURCES[name]
    return getattr(importlib.import_module(module), cls)(**settings)


def generate(task: str, seed: int = 0, condition: str | Condition | None = None,
             mode: str | None = None, *, namespace: str | None = None,
             source: str = "paintbench") -> Problem:
    """Problem ``seed`` of ``task``, in memory: ``seed`` numbers the problems of the
    (task, condition, mode) cell, it is the *slot* of the seed key.

    ``generate(task, seed=s, condition=c, mode=m)`` is ``source.problem(task, s, ...)``: the
    attempt search of the suites, so it never raises
    :class:`~paintkit.errors.RejectedSeed`. When attempt 0 of the slot is rejected, the first
    accepted attempt wins (its generator seed is ``metadata["seed"]``, its number
    ``metadata["attempt"]``), and in the benchmark's namespace the result is the problem the
    benchmark holds for that slot (PaintBench: slots ``0 .. 12 // len(modes) - 1`` of each
    cell; TinyGrafixBench: ``0 .. 29``); later slots continue the same seed scheme.

    Args:
        task: a task of ``source`` (``paintkit tasks`` lists them).
        seed: the slot, an int >= 0.
        condition: visual condition (default ``"baseline"``; charts: ``"default"``).
        mode: the task's mode (default: its first).
        namespace: seed namespace (default: the source's benchmark namespace).
        source: ``"paintbench"``, ``"tinygrafixbench"``, ``"guidance"``, ``"compositional"``,
            ``"references"`` or ``"style-transfer"``.

    The problem's ``problem_id`` is the id the suites give the same problem (in a task folder
    named after the task; a tree's ``NNN.json`` holds it as ``metadata["problem_id"]``): the
    key ``paintkit serve`` and the trainer formats use (docs/file-layout.md, "Three names for
    one problem"). The metadata itself is the slot's, byte for byte.

    A generator seed itself (which may be rejected) is the task module's
    ``generate(seed, condition, mode)``: ``paintkit.tasks.task_module(task).generate(...)``.
    """
    chosen = get_source(source)
    problem = chosen.problem(task, seed, condition=condition, mode=mode, namespace=namespace)
    where = chosen.check(task, seed, condition, mode, namespace, None)
    problem.problem_id = problem_id(where.namespace, task, where.key, where.mode, where.slot)
    return problem


__all__ = ["SOURCES", "ProblemSource", "Slot", "generate", "get_source"]
