"""Draw a bar chart state (see ``paintkit.tinygrafix.bar``): frame, then bars and their labels.

The bar labels belong to the data layer (a bar and its label come and go together), so
they are drawn as texts under the axis rather than as tick labels of the frame.
"""

from __future__ import annotations

from paintkit.tinygrafix.render.canvas import style_axes

AXES = (0.12, 0.14, 0.82, 0.76)  # left, bottom, width, height (figure fraction)
BAR_WIDTH = 0.6
LABEL_OFFSET = -5.0  # points below the x axis
FRAME_KEYS = ("theme", "title", "xlabel", "ylabel", "slots", "ymax")


def draw_frame(figure, state: dict):
    ax = figure.add_axes(AXES)
    style_axes(ax, state)
    ax.set_xlim(-0.6, state["slots"] - 0.4)
    ax.set_ylim(0.0, state["ymax"])
    ax.set_xticks([])
    ax.xaxis.labelpad = 18.0  # room for the bar labels drawn with the data
    return ax


def draw_data(ax, state: dict) -> list:
    labelled = sorted(state["bars"], key=lambda b: b["slot"])
    bars = [b for b in labelled if b["value"] is not None]  # an empty slot keeps its label
    patches = []
    if bars:
        patches = ax.bar([b["slot"] for b in bars], [b["value"] for b in bars], width=BAR_WIDTH,
                         color=[b["color"] for b in bars], edgecolor="none", linewidth=0).patches
    labels = [ax.annotate(b["label"], xy=(b["slot"], 0.0), xycoords=ax.get_xaxis_transform(),
                          xytext=(0.0, LABEL_OFFSET), textcoords="offset points", ha="center",
                          va="top", color=state["theme"]["text"], fontsize=8.0, annotation_clip=False)
              for b in labelled]
    return [*patches, *labels]
