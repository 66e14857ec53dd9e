"""TinyGrafixBench: chart-editing problems whose answer follows from the data.

>>> import paintkit
>>> problem = paintkit.generate("bar_chart_sort_bars", seed=0, source="tinygrafixbench")  # doctest: +SKIP
>>> problem.input.shape, problem.metadata["category"]  # doctest: +SKIP
((768, 1024, 3), 'bar_chart')

State-then-render: a seeded base state (``<chart>.base_state``), a task edit that turns a
copy into (input state, answer state, instruction), one renderer
(:mod:`paintkit.renderers.charts`) for both; :class:`paintkit.sources.charts.ChartSource`
makes the problem of a slot. See ``docs/tinygrafixbench.md``.
"""

from paintkit.charts.generate import NAMESPACE, chart_pair, chart_seed
from paintkit.charts.registry import (
    CHART_TASKS,
    CHARTS,
    TINYGRAFIX_TASKS,
    ChartTask,
    chart_of_task,
    chart_task,
)

__all__ = ["CHARTS", "CHART_TASKS", "NAMESPACE", "TINYGRAFIX_TASKS", "ChartTask", "chart_of_task",
           "chart_pair", "chart_seed", "chart_task"]
