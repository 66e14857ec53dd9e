"""Chart state -> pixels with matplotlib Agg (TinyGrafixBench).

>>> from paintkit.renderers.charts import render_chart
>>> pixels = render_chart(state)  # doctest: +SKIP  (uint8 (768, 1024, 3))

One renderer per chart type draws both the input and the answer state of a problem, so
every pixel difference between them comes from the state edit. matplotlib is imported on
first use only.
"""

from __future__ import annotations

import importlib

import numpy as np

from paintkit.renderers.charts.canvas import DPI, HEIGHT, WIDTH, draw_figure

# chart type -> (module, drawing function)
_DRAWERS = {
    "bar_chart": ("bar", "draw_bar_chart"),
    "scatter_plot": ("scatter", "draw_scatter_plot"),
    "line_chart": ("line", "draw_line_chart"),
    "heatmap": ("heatmap", "draw_heatmap"),
    "network": ("network", "draw_network"),
}

__all__ = ["DPI", "HEIGHT", "WIDTH", "render_chart"]


def render_chart(state: dict) -> np.ndarray:
    """Pixels of a chart state: uint8 ``(768, 1024, 3)`` (1024x768 at 160 dpi)."""
    chart = state.get("chart") if isinstance(state, dict) else None
    if chart not in _DRAWERS:
        raise ValueError(f"chart state has chart={chart!r}; expected one of {', '.join(_DRAWERS)}")
    module, name = _DRAWERS[chart]
    draw = getattr(importlib.import_module(f"paintkit.renderers.charts.{module}"), name)
    return draw_figure(draw, state)
