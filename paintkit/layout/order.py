"""Categories and tasks in the registries' order (the paper's), every run: the order of the
leaderboard's columns (``paintkit stats``) and of the report's tables.

Known names sort by their place in :data:`paintkit.tasks.CATEGORIES` / :data:`TASKS` and the
chart registry (chart types, then ``<chart>_<edit>`` folder names, then bare edit names);
names no registry knows follow, alphabetically.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def _orders() -> tuple[dict[str, int], dict[str, int]]:
    # heavy: the registries import numba and matplotlib (about 1.5 s); only when sorting
    from paintkit.tasks import CATEGORIES, TASKS
    from paintkit.tinygrafix.registry import CHART_TASKS, CHARTS, TINYGRAFIX_TASKS

    categories = {name: k for k, name in enumerate((*CATEGORIES, *CHARTS))}
    edits = [edit for _, (_, tasks) in CHART_TASKS.items() for edit in tasks]
    tasks: dict[str, int] = {}
    for name in (*TASKS, *TINYGRAFIX_TASKS, *edits):
        tasks.setdefault(name, len(tasks))
    return categories, tasks


def category_key(benchmark: str, name: str) -> tuple:
    """Sort key of a category of ``benchmark``."""
    order = _orders()[0]
    return (name not in order, order.get(name, 0), str(name))


def task_key(benchmark: str, name: str) -> tuple:
    """Sort key of a task of ``benchmark``."""
    order = _orders()[1]
    return (name not in order, order.get(name, 0), str(name))
