"""Draw a network state (see ``paintkit.tinygrafix.network``): frame (title), then edges, nodes
and the colour key (the only place node names are written)."""

from __future__ import annotations

import math

from paintkit.tinygrafix.render.canvas import MARKERS_ALIASED, style_legend

AXES = (0.05, 0.04, 0.66, 0.86)
LIMIT = 1.38  # axis range [-LIMIT, LIMIT], the circle has radius 1
NODE_AREA = 420.0  # points^2
EDGE_WIDTH = 1.5
FRAME_KEYS = ("theme", "title")


def slot_position(slot: int, slots: int) -> tuple[float, float]:
    """Centre of circle position ``slot``: slot 0 on top, clockwise."""
    angle = math.pi / 2 - 2 * math.pi * slot / slots
    return math.cos(angle), math.sin(angle)


def draw_frame(figure, state: dict):
    ax = figure.add_axes(AXES)
    ax.set_facecolor(state["theme"]["background"])
    ax.set_axis_off()
    ax.set_xlim(-LIMIT, LIMIT)
    ax.set_ylim(-LIMIT, LIMIT)
    ax.set_aspect("equal", adjustable="box")
    figure.suptitle(state["title"], color=state["theme"]["text"], x=0.38, y=0.97)
    return {"figure": figure, "ax": ax}


def draw_data(context: dict, state: dict) -> list:
    from matplotlib.lines import Line2D

    ax, text = context["ax"], state["theme"]["text"]
    artists = []
    where = {nd["label"]: slot_position(nd["slot"], state["slots"]) for nd in state["nodes"]}
    for a, b in state["edges"]:
        (xa, ya), (xb, yb) = where[a], where[b]
        artists += ax.plot([xa, xb], [ya, yb], color=text, linewidth=EDGE_WIDTH, zorder=1)
    for nd in state["nodes"]:
        x, y = where[nd["label"]]
        artists.append(ax.scatter([x], [y], s=NODE_AREA, color=nd["color"], linewidths=0, zorder=2,
                                   antialiased=MARKERS_ALIASED))
    handles = [Line2D([], [], linestyle="none", marker="o", markersize=9, markerfacecolor=k["color"],
                      markeredgewidth=0, label=k["label"]) for k in state["key"]]
    legend = context["figure"].legend(handles=handles, loc="upper left", bbox_to_anchor=(0.74, 0.90))
    style_legend(legend, state)
    return [*artists, legend]
