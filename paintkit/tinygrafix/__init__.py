"""TinyGrafixBench: chart-editing problems whose answer follows from the data.

>>> import paintkit
>>> problem = paintkit.generate("bar_chart_sort_bars", seed=0, source="tinygrafixbench")  # doctest: +SKIP
>>> problem.input.shape, problem.metadata["category"]  # doctest: +SKIP
((768, 1024, 3), 'bar_chart')

State-then-render: a seeded base state (``<chart>.base_state``), a task edit that turns a
copy into (input state, answer state, instruction), one renderer for both. See
``docs/tinygrafixbench.md``. What is where, all in this folder except the command's flags:

- ``registry.py``: the 20 tasks (5 chart types x 4 edits), ``chart_task(name)``;
- ``bar.py``, ``scatter.py``, ``line.py``, ``heatmap.py``, ``network.py``: one chart type
  each, its base state and its four edits; ``common.py`` and ``style.py`` what they share
  (ranges, themes, labels, colours);
- ``generate.py``: one attempt, seed -> (input, answer) (``chart_pair``), the contract checks;
- ``render/``: chart state -> pixels with matplotlib Agg (:mod:`paintkit.tinygrafix.render`);
- ``environment.py``: which matplotlib release the exact bytes need;
- ``source.py``: :class:`~paintkit.tinygrafix.source.TinyGrafixSource` makes the problem of a
  slot (the attempt search); ``suite.py``: :class:`~paintkit.tinygrafix.suite.TinyGrafixSuite`
  is the benchmark's 600 problems; ``paintkit generate tinygrafixbench`` parses its flags in
  ``paintkit/cli/generate_tinygrafix.py``.
"""

from paintkit.tinygrafix.generate import NAMESPACE, chart_pair, chart_seed
from paintkit.tinygrafix.registry import (
    CHART_TASKS,
    CHARTS,
    TINYGRAFIX_TASKS,
    ChartTask,
    chart_of_task,
    chart_task,
)

__all__ = ["CHARTS", "CHART_TASKS", "NAMESPACE", "TINYGRAFIX_TASKS", "ChartTask", "chart_of_task",
           "chart_pair", "chart_seed", "chart_task"]
