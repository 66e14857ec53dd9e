"""TinyGrafixBench: chart-editing problems whose answer follows from the data.

>>> from paintkit.charts import make_chart_problem
>>> problem = make_chart_problem("bar_chart_sort_bars", slot=0)  # doctest: +SKIP
>>> problem.input.shape, problem.metadata["category"]  # doctest: +SKIP
((768, 1024, 3), 'bar_chart')

State-then-render: a seeded base state (``<chart>.base_state``), a task edit that turns a
copy into (input state, answer state, instruction), one renderer
(:mod:`paintkit.renderers.charts`) for both. See ``docs/tinygrafixbench.md``.
"""

from paintkit.charts.generate import (
    NAMESPACE,
    chart_seed,
    generate_chart_problem,  # deprecated alias of make_chart_problem
    make_chart_problem,
)
from paintkit.charts.registry import (
    CHART_TASKS,
    CHARTS,
    TINYGRAFIX_TASKS,
    ChartTask,
    chart_of_task,
    chart_task,
)

__all__ = ["CHARTS", "CHART_TASKS", "NAMESPACE", "TINYGRAFIX_TASKS", "ChartTask", "chart_of_task",
           "chart_seed", "chart_task", "generate_chart_problem", "make_chart_problem"]
