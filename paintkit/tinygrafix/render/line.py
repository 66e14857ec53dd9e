"""Draw a line chart state (see ``paintkit.tinygrafix.line``): frame, then fills and line runs."""

from __future__ import annotations

from paintkit.tinygrafix.render.canvas import limited_axes

AXES = (0.12, 0.13, 0.82, 0.77)
LINE_WIDTH = 2.0
FRAME_KEYS = ("theme", "title", "xlabel", "ylabel", "xlim", "ylim")


def draw_frame(figure, state: dict):
    return limited_axes(figure, state, AXES)


def draw_data(ax, state: dict) -> list:
    artists = []
    for fill in state["fills"]:
        artists += ax.fill([p[0] for p in fill["polygon"]], [p[1] for p in fill["polygon"]],
                           facecolor=fill["color"], edgecolor="none", linewidth=0, zorder=1)
    for run in state["runs"]:
        artists += ax.plot([p[0] for p in run], [p[1] for p in run], color=state["color"],
                           linewidth=LINE_WIDTH, solid_capstyle="butt", zorder=2)
    return artists
