"""The answer state of a chart style transfer problem, re-derived from its input and reference
states with plain dict logic, written from the task's definition (docs/references.md, "Chart
style transfer"); it shares no code with ``paintkit``.

The definition: the answer is the input chart with each object's colour replaced by the
reference's colour of the same rank (bars left to right, scatter classes in legend order,
the line, the colour scale's two ends, network nodes in key order); everything else of the
input is kept.
"""

from __future__ import annotations

import copy


def reference_colors(reference: dict) -> list[str]:
    """The reference's object colours in the order the chart shows them."""
    chart = reference["chart"]
    if chart == "bar_chart":
        order = sorted(range(len(reference["bars"])), key=lambda i: reference["bars"][i]["slot"])
        return [reference["bars"][i]["color"] for i in order]
    if chart == "scatter_plot":
        return [c["color"] for c in reference["classes"]]
    if chart == "line_chart":
        return [reference["color"]]
    if chart == "heatmap":
        return [reference["cmap"][0], reference["cmap"][1]]
    if chart == "network":
        return [entry["color"] for entry in reference["key"]]
    raise AssertionError(f"unknown chart {chart}")


def expected_answer(input_state: dict, reference_state: dict) -> dict:
    """The answer state the definition gives."""
    assert input_state["chart"] == reference_state["chart"]
    colors = reference_colors(reference_state)
    out = copy.deepcopy(input_state)
    chart = out["chart"]
    if chart == "bar_chart":
        slots = sorted(b["slot"] for b in out["bars"])
        for bar in out["bars"]:
            bar["color"] = colors[slots.index(bar["slot"])]
    elif chart == "scatter_plot":
        for i, cls in enumerate(out["classes"]):
            cls["color"] = colors[i]
    elif chart == "line_chart":
        out["color"] = colors[0]
    elif chart == "heatmap":
        out["cmap"] = colors
    elif chart == "network":
        new = {}
        for i, entry in enumerate(out["key"]):
            entry["color"] = colors[i]
            new[entry["label"]] = colors[i]
        for node in out["nodes"]:
            node["color"] = new[node["label"]]
    return out


def palette_paths(chart: str) -> tuple[str, ...]:
    """The state keys the style transfer may change (the rest must equal the input's)."""
    return {"bar_chart": ("bars",), "scatter_plot": ("classes",), "line_chart": ("color",),
            "heatmap": ("cmap",), "network": ("key", "nodes")}[chart]
