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


def tree_cpu_seconds() -> float:
    """CPU seconds (user + system) used so far by this process, its children already waited
    for, and every live descendant (Linux ``/proc``; elsewhere only the first two).

    Differences over a timed window give the CPU a path costs per problem, a figure a busy
    machine does not distort as much as a rate."""
    import os
    import resource

    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)  # children already waited for
    own = sum(os.times()[:2]) + reaped.ru_utime + reaped.ru_stime
    try:
        entries = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return own
    parent, ticks = {}, {}
    for name in entries:
        try:
            with open(f"/proc/{name}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(name)] = int(fields[1])
        ticks[int(name)] = int(fields[11]) + int(fields[12])  # utime + stime
    family, frontier = set(), {os.getpid()}
    while frontier:
        family |= frontier
        frontier = {pid for pid, ppid in parent.items() if ppid in frontier} - family
    family.discard(os.getpid())
    return own + sum(ticks[pid] for pid in family) / os.sysconf("SC_CLK_TCK")
