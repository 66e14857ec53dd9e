"""Chart state -> pixels with matplotlib Agg (TinyGrafixBench).

>>> import paintkit
>>> from paintkit.tinygrafix.render import render_chart
>>> problem = paintkit.generate("bar_chart_sort_bars", seed=0, source="tinygrafixbench")
>>> pixels = render_chart(problem.metadata["input_state"])
>>> pixels.shape, pixels.dtype, bool((pixels == problem.input).all())
((768, 1024, 3), dtype('uint8'), True)

One renderer per chart type draws both the input and the answer state of a problem, so
every pixel difference between them comes from the state edit. matplotlib is imported on
first use only.
"""

from __future__ import annotations

import importlib

import numpy as np

from paintkit.tinygrafix.render.canvas import DPI, HEIGHT, WIDTH, render_states

# chart type -> drawing module under paintkit.tinygrafix.render
_DRAWERS = {"bar_chart": "bar", "scatter_plot": "scatter", "line_chart": "line",
            "heatmap": "heatmap", "network": "network"}

__all__ = ["DPI", "HEIGHT", "WIDTH", "render_chart", "render_pair"]


def _drawer(state: dict):
    chart = state.get("chart") if isinstance(state, dict) else None
    if chart not in _DRAWERS:
        raise ValueError(f"chart state has chart={chart!r}; expected one of {', '.join(_DRAWERS)}")
    return importlib.import_module(f"paintkit.tinygrafix.render.{_DRAWERS[chart]}")


def render_chart(state: dict) -> np.ndarray:
    """Pixels of a chart state: uint8 ``(768, 1024, 3)`` (1024x768 at 160 dpi)."""
    return render_states(_drawer(state), [state])[0]


def render_pair(input_state: dict, answer_state: dict) -> tuple[np.ndarray, np.ndarray]:
    """Pixels of a problem's input and answer states (same chart type); the answer reuses
    the input's frame when the edit leaves it alone. Same bytes as two :func:`render_chart`."""
    drawer = _drawer(input_state)
    if _drawer(answer_state) is not drawer:
        raise ValueError(f"input is a {input_state['chart']}, answer a {answer_state['chart']}; "
                         "a problem's two states are one chart type")
    inp, ans = render_states(drawer, [input_state, answer_state])
    return inp, ans
