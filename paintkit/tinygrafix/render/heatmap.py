"""Draw a heatmap state (see ``paintkit.tinygrafix.heatmap``): frame (axes, colorbar), then
the cells."""

from __future__ import annotations

import numpy as np

from paintkit.tinygrafix.render.canvas import style_axes

AXES = (0.10, 0.13, 0.66, 0.77)
COLORBAR = (0.80, 0.13, 0.035, 0.77)
CMAP_LEVELS = 256
FRAME_KEYS = ("theme", "title", "xlabel", "ylabel", "cmap", "vmin", "vmax")


def _shape(state: dict) -> tuple[int, int]:
    return len(state["values"]), len(state["values"][0])


def draw_frame(figure, state: dict):
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import LinearSegmentedColormap, Normalize

    ax = figure.add_axes(AXES)
    style_axes(ax, state)
    rows, cols = _shape(state)
    ax.set_xlim(0.5, cols + 0.5)
    ax.set_ylim(rows + 0.5, 0.5)  # row 1 on top
    ax.set_xticks(range(1, cols + 1))
    ax.set_yticks(range(1, rows + 1))
    cmap = LinearSegmentedColormap.from_list("chart", state["cmap"], N=CMAP_LEVELS)
    norm = Normalize(vmin=state["vmin"], vmax=state["vmax"])
    cax = figure.add_axes(COLORBAR)
    bar = figure.colorbar(ScalarMappable(norm=norm, cmap=cmap), cax=cax)
    bar.outline.set_edgecolor(state["theme"]["text"])
    cax.tick_params(colors=state["theme"]["text"])
    return {"ax": ax, "cmap": cmap, "norm": norm, "shape": (rows, cols)}


def draw_data(context: dict, state: dict) -> list:
    values = np.array([[np.nan if v is None else v for v in row] for row in state["values"]], dtype=float)
    if values.shape != context["shape"]:
        raise ValueError(f"heatmap grid is {values.shape}, its frame was drawn for {context['shape']}")
    rows, cols = values.shape
    mesh = context["ax"].pcolormesh(np.arange(cols + 1) + 0.5, np.arange(rows + 1) + 0.5,
                                    np.ma.masked_invalid(values), cmap=context["cmap"],
                                    norm=context["norm"], antialiased=False, edgecolors="none",
                                    shading="flat")
    return [mesh]
