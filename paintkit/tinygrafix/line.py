"""Line chart: state and its four tasks (draw_segments, normalize_series, filter_series,
shade_interval).

State (besides :mod:`paintkit.tinygrafix.common`): ``xlim``, ``ylim`` (fixed axis ranges),
``color`` (the line), ``runs``: polylines ``[[[x, y], ...], ...]`` drawn separately (a gap
between runs is not drawn), ``fills``: ``[{"polygon": [[x, y], ...], "color"}]`` drawn under
the line. The base series is a random walk of 20-44 points at x = x0, x0 + 1, ... (x0 is 0,
a positive offset, or negative so the series crosses x = 0), scaled by the magnitude factor.
"""

from __future__ import annotations

import copy
import random

from paintkit.errors import RejectedSeed
from paintkit.tinygrafix.common import base_style, object_avoid
from paintkit.tinygrafix.style import fmt, round_sig, sample_color, sample_magnitude

CHART = "line_chart"
SHADE_CONTRAST = 30.0  # CIE76 between the shade and the line (and the theme): the line reads on it


def base_state(rng: random.Random) -> dict:
    """A fresh line chart (see the module docstring)."""
    state = base_style(CHART, rng)
    n = rng.randint(20, 44)
    scale = sample_magnitude(rng) * rng.uniform(0.5, 5.0)
    y, walk = rng.uniform(2.0, 8.0), []
    for _ in range(n):
        walk.append(y)
        y += rng.gauss(0.0, 1.0)
    x0 = float(rng.choice((0, rng.choice((10, 20, 50, 100)), -rng.randint(3, n - 3))))
    points = [[x0 + x, v * scale] for x, v in enumerate(walk)]
    lo, hi = min(p[1] for p in points), max(p[1] for p in points)
    pad = 0.12 * (hi - lo)
    color = sample_color(rng, object_avoid(state))
    state.update(xlim=[x0, x0 + n - 1], ylim=[lo - pad, hi + pad], color=color,
                 runs=[points], fills=[])
    return state


def _series(state: dict) -> list[list[float]]:
    return state["runs"][0]


def draw_segments(base: dict, rng: random.Random):
    """Input: 1-3 gaps (1-2 points missing each); answer: each gap bridged by a straight
    segment from the last point before it to the first point after it."""
    points = _series(base)
    n = len(points)
    for _ in range(100):
        gaps, cursor = [], 2  # every run keeps at least 2 points: its vertices are visible
        for _ in range(rng.randint(1, 3)):
            start = rng.randint(cursor, cursor + 8)
            width = rng.randint(1, 2)
            if start + width + 2 > n:
                break
            gaps.append((start, start + width))
            cursor = start + width + 2
        if gaps:
            break
    else:
        raise RejectedSeed("no room for line gaps")
    missing = {i for a, b in gaps for i in range(a, b)}
    runs, edges = [], [0] + [i for g in gaps for i in g] + [n]
    for a, b in zip(edges[::2], edges[1::2], strict=True):
        runs.append(points[a:b])
    inp = copy.deepcopy(base)
    inp["runs"] = runs
    ans = copy.deepcopy(base)
    ans["runs"] = [[p for i, p in enumerate(points) if i not in missing]]
    count = {1: "one gap", 2: "two gaps", 3: "three gaps"}[len(gaps)]
    which = "it" if len(gaps) == 1 else "each gap"
    instruction = (f"The line has {count}. Bridge {which} with one straight segment from the last point "
                   "before it to the first point after it, in the line's color and width.")
    return inp, ans, instruction, {"gaps": [list(g) for g in gaps]}


def normalize_series(base: dict, rng: random.Random):
    """Rescale the series linearly so its minimum lands on ``lo`` and its maximum on ``hi``."""
    points = _series(base)
    ys = [p[1] for p in points]
    y0, y1 = base["ylim"]
    span = y1 - y0
    for _ in range(100):
        lo = round_sig(y0 + rng.uniform(0.02, 0.45) * span)
        hi = round_sig(y0 + rng.uniform(0.55, 0.98) * span)
        if hi - lo >= 0.3 * span and (abs(lo - min(ys)) + abs(hi - max(ys))) >= 0.1 * span:
            break
    else:
        raise RejectedSeed("no normalisation range that moves the line")
    ymin, ymax = min(ys), max(ys)
    ans = copy.deepcopy(base)
    ans["runs"] = [[[x, lo + (y - ymin) * (hi - lo) / (ymax - ymin)] for x, y in points]]
    instruction = (f"Rescale the line vertically (a linear stretch and shift, x unchanged) so its "
                   f"lowest point is at y = {fmt(lo)} and its highest at y = {fmt(hi)}; keep the axes.")
    return copy.deepcopy(base), ans, instruction, {"lo": lo, "hi": hi}


def clip_polyline(points: list[list[float]], threshold: float, keep_above: bool) -> list[list[list[float]]]:
    """The pieces of a polyline at or above (``keep_above``) / at or below ``threshold``,
    each cut exactly where a segment crosses it. Returns polylines (lists of ``[x, y]``)."""
    def inside(y):
        return y >= threshold if keep_above else y <= threshold

    pieces, current = [], []
    for (xa, ya), (xb, yb) in zip(points, points[1:], strict=False):
        if inside(ya) and not current:
            current = [[xa, ya]]
        if inside(ya) != inside(yb):
            t = (threshold - ya) / (yb - ya)
            cut = [xa + t * (xb - xa), threshold]
            if inside(ya):
                current.append(cut)
                pieces.append(current)
                current = []
            else:
                current = [cut]
        if inside(yb):
            current.append([xb, yb])
    if len(current) >= 2:
        pieces.append(current)
    return [p for p in pieces if len(p) >= 2]


def filter_series(base: dict, rng: random.Random):
    """Keep only the parts of the line above (or below) a threshold, cut at the crossings."""
    points = _series(base)
    ys = sorted(p[1] for p in points)
    lo, hi = ys[0], ys[-1]
    span = hi - lo
    keep_above = rng.random() < 0.5
    for _ in range(100):
        threshold = round_sig(lo + rng.uniform(0.25, 0.75) * span)
        if all(abs(y - threshold) >= 0.01 * span for y in ys):
            break
    else:
        raise RejectedSeed("no threshold clear of the line's vertices")
    ans = copy.deepcopy(base)
    ans["runs"] = clip_polyline(points, threshold, keep_above)
    side = "above" if keep_above else "below"
    instruction = (f"Keep only the parts of the line {side} y = {fmt(threshold)}: cut every segment "
                   f"exactly where it crosses y = {fmt(threshold)} and erase the rest of the line.")
    return copy.deepcopy(base), ans, instruction, {"threshold": threshold, "keep": side}


def interpolate(points: list[list[float]], x: float) -> float:
    """The polyline's y at ``x`` (linear between vertices)."""
    for (xa, ya), (xb, yb) in zip(points, points[1:], strict=False):
        if xa <= x <= xb:
            return ya + (x - xa) * (yb - ya) / (xb - xa)
    raise ValueError(f"x = {x} outside the line")


def shade_interval(base: dict, rng: random.Random):
    """Fill the area under the line, down to the bottom of the plot, between x = a and x = b."""
    points = _series(base)
    x_start, x_end = points[0][0], points[-1][0]
    span = x_end - x_start
    a = round_sig(x_start + rng.uniform(0.05, 0.55) * span)
    b = round_sig(a + rng.uniform(0.15, 0.4) * span)
    if not x_start < a < b < x_end:
        raise RejectedSeed("shading interval outside the line")
    bottom = base["ylim"][0]
    polygon = [[a, bottom], [a, interpolate(points, a)]]
    polygon += [p for p in points if a < p[0] < b]
    polygon += [[b, interpolate(points, b)], [b, bottom]]
    color = sample_color(rng, [*object_avoid(base), base["color"]], min_delta=SHADE_CONTRAST)
    ans = copy.deepcopy(base)
    ans["fills"] = [{"polygon": polygon, "color": color}]
    instruction = (f"Shade the area under the line between x = {fmt(a)} and x = {fmt(b)}, down to the "
                   f"bottom of the plot, in solid {color}; the line stays on top.")
    return copy.deepcopy(base), ans, instruction, {"a": a, "b": b, "color": color}


TASKS = {"draw_segments": draw_segments, "normalize_series": normalize_series,
         "filter_series": filter_series, "shade_interval": shade_interval}
