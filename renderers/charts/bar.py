"""Draw a bar chart state (see ``paintkit.charts.bar``): frame, then bars and their labels."""

from __future__ import annotations

from paintkit.renderers.charts.canvas import style_axes

AXES = (0.12, 0.14, 0.82, 0.76)  # left, bottom, width, height (figure fraction)
BAR_WIDTH = 0.6
FRAME_KEYS = ("theme", "title", "xlabel", "ylabel", "slots", "ymax")


def draw_frame(figure, state: dict):
    ax = figure.add_axes(AXES)
    style_axes(ax, state)
    ax.set_xlim(-0.6, state["slots"] - 0.4)
    ax.set_ylim(0.0, state["ymax"])
    return ax


def draw_data(ax, state: dict) -> list:
    bars = sorted(state["bars"], key=lambda b: b["slot"])
    ax.set_xticks([b["slot"] for b in bars], [b["label"] for b in bars])
    if not bars:
        return []
    container = ax.bar([b["slot"] for b in bars], [b["value"] for b in bars], width=BAR_WIDTH,
                       color=[b["color"] for b in bars], edgecolor="none", linewidth=0)
    return list(container.patches)
