"""The benchmarks' registries as seen by the statistics: the paper's order of categories and
tasks (the leaderboard's columns, ``paintkit stats``, and the report's tables) and the
category of result rows that do not name one.

Known names sort by their place in :data:`paintkit.tasks.CATEGORIES` / :data:`TASKS` and the
chart registry (chart types, then ``<chart>_<edit>`` folder names, then bare edit names),
then the categories of the reference problems (:data:`REFERENCE_CATEGORIES`, each the one
category of its own benchmark folder); names no registry knows follow, alphabetically.

Reading and writing results (:mod:`paintkit.layout`) needs no registry; only sorting and the
categories of old rows do, so they live here, with the aggregation.
"""

from __future__ import annotations

from functools import lru_cache

from paintkit.layout.rows import OTHER_CATEGORY, TINYGRAFIX

#: The categories of the problems with reference images, each its own benchmark's (the scene
#: references' ``References``, the chart style transfers' ``StyleTransfer``): rolled up as
#: every category is, never into PaintBench's or TinyGrafixBench's hierarchy.
REFERENCE_CATEGORIES: tuple[str, ...] = ("reference_guided", "style_transfer")


@lru_cache(maxsize=1)
def _orders() -> tuple[dict[str, int], dict[str, int]]:
    # heavy: the registries import numba and matplotlib (about 1.5 s); only when sorting
    from paintkit.tasks import CATEGORIES, TASKS
    from paintkit.tinygrafix.registry import CHART_TASKS, CHARTS, TINYGRAFIX_TASKS

    categories = {name: k for k, name in enumerate((*CATEGORIES, *CHARTS, *REFERENCE_CATEGORIES))}
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


def task_category(benchmark: str, task: str, row_category: str | None = None) -> str:
    """The category a task rolls up into.

    The row's own ``category`` when it has one (``paintkit eval`` copies it from the
    problem's JSON). Otherwise, for rows written before eval recorded it: TinyGrafixBench,
    the chart type from the chart registry (``heatmap_add_cell`` -> ``heatmap``; a task the
    registry does not know: the folder name's first word); PaintBench tasks, the task
    registry's category; anything else ``"other"``.
    """
    if row_category:
        return str(row_category)
    if benchmark == TINYGRAFIX:
        # Old rows only; the chart registry imports matplotlib and numba (about 1 s).
        from paintkit.tinygrafix.registry import chart_of_task

        try:
            return chart_of_task(task)
        except ValueError:
            return task.split("_", 1)[0]
    # Old rows only; the task registry imports numba (about 1.5 s).
    from paintkit.tasks import TASKS, task_spec

    return task_spec(task).category if task in TASKS else OTHER_CATEGORY


def row_category(row: dict) -> str:
    """The category of a results row (:func:`task_category` of its fields)."""
    return task_category(str(row["benchmark"]), str(row["task"]), row.get("category"))
