"""Draw a heatmap state (see ``paintkit.charts.heatmap``)."""

from __future__ import annotations

import numpy as np

from paintkit.renderers.charts.canvas import style_axes

AXES = (0.10, 0.13, 0.66, 0.77)
COLORBAR = (0.80, 0.13, 0.035, 0.77)
CMAP_LEVELS = 256


def draw_heatmap(figure, state: dict) -> None:
    from matplotlib.colors import LinearSegmentedColormap

    ax = figure.add_axes(AXES)
    style_axes(ax, state)
    values = np.array([[np.nan if v is None else v for v in row] for row in state["values"]], dtype=float)
    rows, cols = values.shape
    cmap = LinearSegmentedColormap.from_list("chart", state["cmap"], N=CMAP_LEVELS)
    mesh = ax.pcolormesh(np.arange(cols + 1) + 0.5, np.arange(rows + 1) + 0.5,
                         np.ma.masked_invalid(values), cmap=cmap, vmin=state["vmin"],
                         vmax=state["vmax"], antialiased=False, edgecolors="none", shading="flat")
    ax.set_xlim(0.5, cols + 0.5)
    ax.set_ylim(rows + 0.5, 0.5)  # row 1 on top
    ax.set_xticks(range(1, cols + 1))
    ax.set_yticks(range(1, rows + 1))
    cax = figure.add_axes(COLORBAR)
    bar = figure.colorbar(mesh, cax=cax)
    bar.outline.set_edgecolor(state["theme"]["text"])
    cax.tick_params(colors=state["theme"]["text"])
