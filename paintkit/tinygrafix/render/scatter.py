"""Draw a scatter plot state (see ``paintkit.tinygrafix.scatter``): frame, then points, lines
and the legend."""

from __future__ import annotations

from paintkit.tinygrafix.render.canvas import MARKERS_ALIASED, limited_axes, style_legend

AXES = (0.12, 0.13, 0.62, 0.77)  # room on the right for the legend
MARKER_AREA = 36.0  # points^2
LINE_WIDTH = 2.0
FRAME_KEYS = ("theme", "title", "xlabel", "ylabel", "xlim", "ylim")


def draw_frame(figure, state: dict):
    return limited_axes(figure, state, AXES)


def draw_data(ax, state: dict) -> list:
    artists, handles = [], []
    for z, cls in enumerate(state["classes"]):
        if cls["line"] is not None:
            (x0, y0), (x1, y1) = cls["line"]
            artists += ax.plot([x0, x1], [y0, y1], color=cls["color"], linewidth=LINE_WIDTH,
                               zorder=2 + 2 * z)
        xs = [p[0] for p in cls["points"]]
        ys = [p[1] for p in cls["points"]]
        handles.append(ax.scatter(xs, ys, s=MARKER_AREA, color=cls["color"], linewidths=0,
                                  label=cls["name"], zorder=3 + 2 * z, antialiased=MARKERS_ALIASED))
    legend = ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.03, 1.0))
    style_legend(legend, state)
    return [*artists, *handles, legend]
