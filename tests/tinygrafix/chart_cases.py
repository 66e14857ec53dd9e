"""Shared chart problems and test grids: generated once per test session (rendering costs
~0.1 s a chart). A plain module, not a conftest: conftest names clash across test folders."""

from __future__ import annotations

import functools

import pytest

from paintkit.sources import generate
from paintkit.tinygrafix import TINYGRAFIX_TASKS

#: Slots every semantic test checks by default; ``-m slow`` checks all 30 of the benchmark.
FAST_SLOTS = (0, 1, 2)
ALL_SLOTS = tuple(range(30))


@functools.cache
def chart_problem(name: str, slot: int):
    return generate(name, slot, source="tinygrafixbench")


def task_slots(chart: str | None = None, task: str | None = None):
    """``pytest.param``s of (task name, slot): fast slots by default, the rest marked slow."""
    names = [n for n in TINYGRAFIX_TASKS if (chart is None or n.startswith(chart))
             and (task is None or n.endswith(task))]
    out = []
    for name in names:
        for slot in ALL_SLOTS:
            marks = () if slot in FAST_SLOTS else (pytest.mark.slow,)
            out.append(pytest.param(name, slot, marks=marks, id=f"{name}-{slot}"))
    return out
