"""Chart style transfer: the content chart's data redrawn in a style reference's palette.

One problem of chart type ``chart`` (one of the five TinyGrafixBench chart types) is three
states of one renderer (:mod:`paintkit.tinygrafix.render`):

- the **input** (``input_state``): a fresh chart (``<chart>.base_state``), the content;
- the **reference** (``reference_state``, role ``"style"``): another fresh chart of the same
  type, other data, another theme (its background at least :data:`THEME_CONTRAST` CIE76 from
  the input's: a light chart for a dark one and the other way round), whose object colours
  are the style to take;
- the **answer** (``answer_state``): the input with its object colours replaced by the
  reference's, matched by the order the chart shows them in (:data:`STYLE_FIELDS`).

The transferred style is the palette, the one style attribute a chart state holds besides
the theme (line widths, marker sizes, grids and legend places are the renderer's constants).
The theme is not transferred: a reference with the answer's background shares most of the
answer's pixels, so returning it unchanged would score well (every problem keeps the copied
reference at mIoU <= 0.05, :func:`~paintkit.tasks.base.with_references`).

Rules a reference must meet (:func:`style_reference`, else another draw; after
:data:`REFERENCE_DRAWS` draws the seed is rejected): enough objects to give every input
object a colour (bar charts: more bars than the input, so no bar of the reference stands in
the slot of the input bar it colours; networks: at least as many nodes), and every colour it
gives (each colormap level for heatmaps) at least :data:`~paintkit.tinygrafix.style.MIN_DELTA_E`
from the input's background and text and from the colour it replaces
(:data:`~paintkit.tinygrafix.heatmap.CELL_CONTRAST` for a colormap's levels), so the change
is visible and the answer follows the chart's colour rules. A heatmap's cells fill its plot,
so a reference whose cells, laid over the answer's, would show the answer's colours on more
than :data:`MAX_CELL_OVERLAP` of it (:func:`cell_overlap`) is drawn again: its copy would
pay (the pixel check of every problem still decides).
"""

from __future__ import annotations

import copy
import importlib
import math
import random

from paintkit.errors import RejectedSeed
from paintkit.hex_lab import delta_e, lab_of_hex
from paintkit.metrics.statistics import TOLERANCES
from paintkit.seeds import seed_from_key
from paintkit.tinygrafix.common import object_avoid
from paintkit.tinygrafix.heatmap import CELL_CONTRAST, scale_color, value_color
from paintkit.tinygrafix.registry import CHART_TASKS, CHARTS
from paintkit.tinygrafix.style import MIN_DELTA_E, sample_theme

#: Least CIE76 between the input's and the reference's backgrounds.
THEME_CONTRAST = MIN_DELTA_E
#: Reference charts drawn for one seed before it is rejected.
REFERENCE_DRAWS = 200
#: Colormap levels compared (as :mod:`paintkit.tinygrafix.heatmap` checks a new colormap).
COLORMAP_LEVELS = 33
#: Heatmaps: the most of the plot where the reference's cells, laid over the answer's, may
#: show the answer's colour (mean over the metric's tolerances; :func:`cell_overlap`).
MAX_CELL_OVERLAP = 0.04
#: Where each chart type keeps its palette, in the order the transfer matches colours.
STYLE_FIELDS: dict[str, str] = {
    "bar_chart": "bars[].color, left to right (by slot)",
    "scatter_plot": "classes[].color, in legend order",
    "line_chart": "color (the line)",
    "heatmap": "cmap ([low end, high end] of the colour scale)",
    "network": "key[].color, in key order (each node takes its key entry's colour)",
}
_LEAD = "The first image is the chart to edit; the second image is the style reference."
_KEEP = "Keep the first chart's data, labels, title, axes, background and text colors."
INSTRUCTIONS: dict[str, str] = {
    "bar_chart": (f"{_LEAD} Recolor the first chart's bars with the reference's bar colors, in "
                  "order from left to right: its leftmost bar takes the color of the reference's "
                  f"leftmost bar, the next bar the next color, and so on. {_KEEP}"),
    "scatter_plot": (f"{_LEAD} Recolor the first chart's two point classes with the reference's "
                     "class colors, in legend order: the class listed first takes the color of the "
                     "reference's first class, the second the second's; a class's fitted line "
                     f"takes its class's new color. {_KEEP}"),
    "line_chart": f"{_LEAD} Redraw the first chart's line in the reference's line color. {_KEEP}",
    "heatmap": (f"{_LEAD} Recolor the first chart's cells with the reference's color scale (the "
                "colors of its colorbar, low end to high end); each cell keeps its value and the "
                "first chart's colorbar keeps its range, shown in the new colors. Empty cells stay "
                f"empty. {_KEEP}"),
    "network": (f"{_LEAD} Recolor the first chart's nodes with the reference's node colors, in the "
                "order of the color keys: the node listed first in the first chart's key takes the "
                "color listed first in the reference's key, the next node the next color, and so "
                f"on; the key shows the new colors. Keep the nodes' places, edges and names. {_KEEP}"),
}


def chart_module(chart: str):
    """The chart type's module (its ``base_state``); ``ValueError`` naming the five types."""
    if chart not in CHART_TASKS:
        raise ValueError(f"unknown chart type {chart!r}; allowed: {', '.join(CHARTS)}")
    return importlib.import_module(f"paintkit.tinygrafix.{CHART_TASKS[chart][0]}")


def palette(state: dict) -> list[str]:
    """The colours a chart's style gives its objects, in transfer order (:data:`STYLE_FIELDS`)."""
    chart = state["chart"]
    if chart == "bar_chart":
        return [b["color"] for b in sorted(state["bars"], key=lambda b: b["slot"])]
    if chart == "scatter_plot":
        return [cls["color"] for cls in state["classes"]]
    if chart == "line_chart":
        return [state["color"]]
    if chart == "heatmap":
        return list(state["cmap"])
    if chart == "network":
        return [k["color"] for k in state["key"]]
    raise ValueError(f"chart state has chart={chart!r}; expected one of {', '.join(CHARTS)}")


def with_palette(state: dict, colors: list[str]) -> dict:
    """A copy of ``state`` whose objects take ``colors`` (transfer order; at least as many as
    the state's own palette, the first ones used)."""
    need = len(palette(state))
    if len(colors) < need:
        raise ValueError(f"{state['chart']}: {len(colors)} colours for {need} objects")
    out = copy.deepcopy(state)
    chart = out["chart"]
    if chart == "bar_chart":
        for rank, bar in enumerate(sorted(out["bars"], key=lambda b: b["slot"])):
            bar["color"] = colors[rank]
    elif chart == "scatter_plot":
        for cls, color in zip(out["classes"], colors, strict=False):
            cls["color"] = color
    elif chart == "line_chart":
        out["color"] = colors[0]
    elif chart == "heatmap":
        out["cmap"] = list(colors[:2])
    else:  # network: the key names each node's colour
        for entry, color in zip(out["key"], colors, strict=False):
            entry["color"] = color
        by_label = {k["label"]: k["color"] for k in out["key"]}
        for node in out["nodes"]:
            node["color"] = by_label[node["label"]]
    return out


def _levels(cmap: list[str]) -> list[str]:
    return [scale_color(cmap, k / (COLORMAP_LEVELS - 1)) for k in range(COLORMAP_LEVELS)]


def _fits(content: dict, reference: dict) -> bool:
    """Whether ``reference`` can style ``content`` (the rules of the module docstring)."""
    chart, mine, theirs = content["chart"], palette(content), palette(reference)
    if delta_e(content["theme"]["background"], reference["theme"]["background"]) < THEME_CONTRAST:
        return False
    if len(theirs) < len(mine) or (chart == "bar_chart" and len(theirs) == len(mine)):
        return False
    avoid = object_avoid(content)
    if chart == "heatmap":
        new, old = _levels(theirs), _levels(mine)
        return all(delta_e(c, content["theme"]["background"]) >= MIN_DELTA_E for c in new) \
            and all(delta_e(c, content["theme"]["text"]) >= MIN_DELTA_E for c in theirs) \
            and all(delta_e(a, b) >= CELL_CONTRAST for a, b in zip(new, old, strict=True))
    return all(delta_e(new, other) >= MIN_DELTA_E
               for new, own in zip(theirs, mine, strict=False) for other in (*avoid, own))


def _edges(n: int) -> list[float]:
    return [k / n for k in range(n + 1)]


def cell_overlap(answer: dict, reference: dict) -> float:
    """Share of a heatmap's plot where the ``reference`` state's cell shows a colour within
    the metric's tolerance ``t`` of the ``answer`` state's cell, averaged over the
    tolerances 0..10 (CIE76 between the two cells' scale colours; both grids span the same
    plot). About what the copied reference scores on the cells."""
    def labs(state: dict) -> list[list]:
        return [[None if v is None else lab_of_hex(value_color(state, v)) for v in row]
                for row in state["values"]]

    mine, theirs = labs(answer), labs(reference)
    ys, xs = _edges(len(mine)), _edges(len(mine[0]))
    ref_ys, ref_xs = _edges(len(theirs)), _edges(len(theirs[0]))
    total = 0.0
    for r, c in ((r, c) for r in range(len(mine)) for c in range(len(mine[0]))):
        if mine[r][c] is None:
            continue
        for rr, ref_row in enumerate(theirs):
            height = min(ys[r + 1], ref_ys[rr + 1]) - max(ys[r], ref_ys[rr])
            if height <= 0:
                continue
            for rc, other in enumerate(ref_row):
                width = min(xs[c + 1], ref_xs[rc + 1]) - max(xs[c], ref_xs[rc])
                if width <= 0 or other is None:
                    continue
                distance = math.dist(mine[r][c], other)
                total += height * width * sum(distance <= t for t in TOLERANCES) / len(TOLERANCES)
    return total


def style_reference(chart: str, content: dict, seed: int) -> dict:
    """The first of up to :data:`REFERENCE_DRAWS` fresh ``chart`` states that can style
    ``content``; draw ``k`` is the chart's ``base_state`` of the seed
    ``seed_from_key(seed, "reference", k)``. :class:`RejectedSeed` when none can."""
    module = chart_module(chart)
    background = content["theme"]["background"]
    for k in range(REFERENCE_DRAWS):
        draw = seed_from_key(seed, "reference", k)
        # A state's theme is its first draw: a theme too close to the content's is skipped
        # before the rest of the chart is drawn (the drawn state is checked again below).
        if delta_e(sample_theme(random.Random(draw)).background, background) < THEME_CONTRAST:
            continue
        try:
            reference = module.base_state(random.Random(draw))
        except RejectedSeed:  # that draw broke a rule of its chart: draw again
            continue
        if _fits(content, reference) and (chart != "heatmap" or cell_overlap(
                with_palette(content, palette(reference)), reference) <= MAX_CELL_OVERLAP):
            return reference
    raise RejectedSeed(f"{chart}: no reference chart in {REFERENCE_DRAWS} draws can style it")


def style_transfer_states(chart: str, seed: int) -> tuple[dict, dict, dict, str]:
    """Seed -> ``(input state, reference state, answer state, instruction)`` of a style
    transfer problem of ``chart``; :class:`RejectedSeed` when the seed gives none."""
    content = chart_module(chart).base_state(random.Random(seed))
    if chart == "bar_chart" and len(content["bars"]) >= 7:  # no reference has more bars
        raise RejectedSeed(f"bar chart seed {seed}: 7 bars leave no reference with more")
    reference = style_reference(chart, content, seed)
    answer = with_palette(content, palette(reference))
    return content, reference, answer, INSTRUCTIONS[chart]
