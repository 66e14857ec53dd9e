"""Shared by the bench/generate_*.py scripts: the benchmark suite and an even subset."""

from __future__ import annotations

from paintkit.suites import Suite, parse_size
from paintkit.tasks import TASKS


def bench_suite(tasks: str | None = None, size: str | None = None, **kwargs) -> Suite:
    """PaintBench over ``tasks`` (default: all 20 tasks = the benchmark)."""
    names = tuple(tasks.split(",")) if tasks else TASKS
    return Suite(tasks=names, size=parse_size(size) if size else None, **kwargs)


def spread(total: int, limit: int | None) -> list[int]:
    """``limit`` indices spread evenly over ``range(total)`` (all of them by default), so a
    subset keeps the suite's task / condition / mode mix."""
    if limit is None or limit >= total:
        return list(range(total))
    return sorted({k * total // limit for k in range(limit)})
