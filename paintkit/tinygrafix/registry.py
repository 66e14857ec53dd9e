"""The 20 TinyGrafixBench tasks: 5 chart types x 4 edits (table 7 of the PaintBench paper).

A chart task is named ``"<chart>_<task>"`` (its folder in the standard layout); its category
is the chart type. Each chart module exposes ``base_state(rng)`` and ``TASKS``:
``{task: edit(base_state, rng) -> (input_state, answer_state, instruction, params)}``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

# chart type -> (module under paintkit.tinygrafix, its tasks in the paper's order:
# construction, transformation, removal, recolouring)
CHART_TASKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "bar_chart": ("bar", ("add_bar", "sort_bars", "remove_bar", "recolor_bar")),
    "scatter_plot": ("scatter", ("draw_best_fit_line", "swap_axes", "remove_outlier", "recolor_class")),
    "line_chart": ("line", ("draw_segments", "normalize_series", "filter_series", "shade_interval")),
    "heatmap": ("heatmap", ("add_cell", "shift_heatmap", "mask_cells", "change_colormap")),
    "network": ("network", ("add_node", "swap_nodes", "remove_node", "recolor_node")),
}
CHARTS: tuple[str, ...] = tuple(CHART_TASKS)
#: The 20 task (folder) names, chart-major, in the paper's order.
TINYGRAFIX_TASKS: tuple[str, ...] = tuple(f"{chart}_{task}" for chart, (_, tasks) in CHART_TASKS.items()
                                          for task in tasks)


@dataclass(frozen=True)
class ChartTask:
    """One of the 20 tasks: its chart, its edit name and the two functions that make it."""

    name: str
    chart: str
    task: str
    base_state: Callable
    edit: Callable


def chart_task(name: str) -> ChartTask:
    """The chart task ``name`` (``"<chart>_<task>"``); ``ValueError`` listing the 20 names."""
    for chart, (module_name, tasks) in CHART_TASKS.items():
        for task in tasks:
            if name == f"{chart}_{task}":
                module = importlib.import_module(f"paintkit.tinygrafix.{module_name}")
                return ChartTask(name, chart, task, module.base_state, module.TASKS[task])
    raise ValueError(f"unknown chart task {name!r}; allowed: {', '.join(TINYGRAFIX_TASKS)}")


def chart_of_task(name: str) -> str:
    """The chart type (= ``category``) of chart task ``name``, e.g. ``"heatmap"`` for
    ``"heatmap_add_cell"``: what per-problem rows roll up by."""
    for chart, (_, tasks) in CHART_TASKS.items():
        if name.startswith(f"{chart}_") and name[len(chart) + 1:] in tasks:
            return chart
    raise ValueError(f"unknown chart task {name!r}; allowed: {', '.join(TINYGRAFIX_TASKS)}")
