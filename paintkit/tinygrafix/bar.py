"""Bar chart: state and its four tasks (add_bar, sort_bars, remove_bar, recolor_bar).

State (besides :mod:`paintkit.tinygrafix.common`): ``slots`` (x positions ``0 .. slots-1``),
``ymax`` (the y axis is ``[0, ymax]``), ``bars``: ``[{"slot", "label", "value", "color"}]``
(``value`` and ``color`` None for an empty slot that keeps its label under the axis: the
input of ``add_bar``).
The axes never autoscale, so input and answer share them and only the edit changes pixels.

Rules: 4-7 bars, values rounded to 3 s.f., every two values at least 5% of ``ymax`` apart
(the order is visible), never already sorted either way.
"""

from __future__ import annotations

import copy
import random

from paintkit.errors import RejectedSeed
from paintkit.tinygrafix.common import base_style, nice_limit, object_avoid
from paintkit.tinygrafix.style import (
    distinct_labels,
    fmt,
    round_sig,
    sample_color,
    sample_colors,
    sample_magnitude,
)

CHART = "bar_chart"
MIN_GAP = 0.05  # of ymax, between any two bar values


def _values_ok(values: list[float], ymax: float) -> bool:
    ordered = sorted(values)
    return all(b - a >= MIN_GAP * ymax for a, b in zip(ordered, ordered[1:], strict=False))


def base_state(rng: random.Random) -> dict:
    """A fresh bar chart (see the module docstring)."""
    state = base_style(CHART, rng)
    n = rng.randint(4, 7)
    ymax = nice_limit(sample_magnitude(rng) * rng.uniform(1.0, 9.9))
    for _ in range(200):
        values = [round_sig(rng.uniform(0.08, 0.95) * ymax) for _ in range(n)]
        if _values_ok(values, ymax) and values not in (sorted(values), sorted(values, reverse=True)):
            break
    else:
        raise RejectedSeed("no bar values 5% apart")
    colors = sample_colors(rng, n, object_avoid(state))
    labels = distinct_labels(rng, n)
    state.update(slots=n, ymax=ymax, bars=[
        {"slot": i, "label": labels[i], "value": values[i], "color": colors[i]} for i in range(n)])
    return state


def _bar(state: dict, label: str) -> dict:
    return next(b for b in state["bars"] if b["label"] == label)


def add_bar(base: dict, rng: random.Random):
    """Input: one bar missing, its slot empty with its label still under the axis; answer:
    the full chart."""
    bars = base["bars"]
    target = rng.choice(bars)
    inp = copy.deepcopy(base)
    inp["bars"] = [{**b, "value": None, "color": None} if b["label"] == target["label"] else b
                   for b in inp["bars"]]
    instruction = (f'Add the missing bar "{target["label"]}" in its empty slot, above its label: '
                   f'height {fmt(target["value"])}, color {target["color"]}, the same width as the '
                   "other bars.")
    return inp, copy.deepcopy(base), instruction, {"target": target["label"], "value": target["value"],
                                                     "color": target["color"], "slot": target["slot"]}


def sort_bars(base: dict, rng: random.Random):
    """Sort by height, ascending or descending; labels and colours move with their bars."""
    descending = rng.random() < 0.5
    ans = copy.deepcopy(base)
    ordered = sorted(ans["bars"], key=lambda b: b["value"], reverse=descending)
    for slot, bar in enumerate(ordered):
        bar["slot"] = slot
    ans["bars"] = ordered
    order = "descending" if descending else "ascending"
    instruction = (f"Sort the bars by height in {order} order from left to right; each bar keeps "
                   "its label and color.")
    return copy.deepcopy(base), ans, instruction, {"order": order,
                                                  "labels": [b["label"] for b in ordered]}


def remove_bar(base: dict, rng: random.Random):
    """Remove one bar and its tick label; the other bars stay in their slots."""
    target = rng.choice(base["bars"])
    ans = copy.deepcopy(base)
    ans["bars"] = [b for b in ans["bars"] if b["label"] != target["label"]]
    instruction = (f'Remove the bar "{target["label"]}" and its axis label; leave its slot empty and '
                   "every other bar where it is.")
    return copy.deepcopy(base), ans, instruction, {"target": target["label"]}


def recolor_bar(base: dict, rng: random.Random):
    """Recolour one bar to a new colour distinct from every colour of the chart."""
    target = rng.choice(base["bars"])
    color = sample_color(rng, [*object_avoid(base), *(b["color"] for b in base["bars"])])
    ans = copy.deepcopy(base)
    _bar(ans, target["label"])["color"] = color
    instruction = f'Recolor the bar "{target["label"]}" to {color}; change nothing else.'
    return copy.deepcopy(base), ans, instruction, {"target": target["label"], "color": color,
                                                  "old_color": target["color"]}


TASKS = {"add_bar": add_bar, "sort_bars": sort_bars, "remove_bar": remove_bar, "recolor_bar": recolor_bar}
