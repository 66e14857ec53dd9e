"""Scatter plot: state and its four tasks (draw_best_fit_line, swap_axes, remove_outlier,
recolor_class).

State (besides :mod:`paintkit.charts.common`): ``xlim``, ``ylim`` (fixed axis ranges),
``classes``: ``[{"name", "color", "points": [[x, y], ...], "line": [[x0, y0], [x1, y1]] | None}]``.
Class A (first) lies along a line with Gaussian noise, one point pushed 3.5 noise standard
deviations further along the sign of its own residual (clipped back into the axes), and its
least-squares line drawn across the plot; class B (second) is scattered with no line. Every
two points are at least :data:`MIN_SPACING` (of the axis ranges) apart.
"""

from __future__ import annotations

import copy
import math
import random

from paintkit.charts.common import base_style, least_squares, nice_limit, object_avoid
from paintkit.charts.style import distinct_labels, sample_color, sample_colors, sample_magnitude
from paintkit.errors import RejectedSeed

CHART = "scatter_plot"
MIN_SPACING = 0.03  # normalised (x / xmax, y / ymax) distance between any two points
NOISE = 0.04  # noise standard deviation of class A, of ymax
OUTLIER_PUSH = 3.5  # noise standard deviations
OUTLIER_MARGIN = 1.5  # the outlier's residual is at least this times every other one


def line_through(slope: float, intercept: float, xlim: list[float]) -> list[list[float]]:
    """The segment of ``y = slope * x + intercept`` over the whole x range."""
    return [[xlim[0], slope * xlim[0] + intercept], [xlim[1], slope * xlim[1] + intercept]]


def residuals(points: list[list[float]], line: list[list[float]]) -> list[float]:
    """Vertical residuals ``y - line(x)`` of ``points`` from the segment's line."""
    (x0, y0), (x1, y1) = line
    slope = (y1 - y0) / (x1 - x0)
    return [p[1] - (y0 + slope * (p[0] - x0)) for p in points]


def _place(rng, points, make, xmax, ymax, tries=200):
    for _ in range(tries):
        x, y = make()
        if all(math.hypot((x - p[0]) / xmax, (y - p[1]) / ymax) >= MIN_SPACING for p in points):
            return [x, y]
    raise RejectedSeed("no room for a scatter point")


def base_state(rng: random.Random) -> dict:
    """A fresh scatter plot (see the module docstring)."""
    state = base_style(CHART, rng)
    xmax = nice_limit(sample_magnitude(rng) * rng.uniform(1.0, 9.9))
    ymax = nice_limit(sample_magnitude(rng) * rng.uniform(1.0, 9.9))
    y_left, y_right = rng.uniform(0.2, 0.8) * ymax, rng.uniform(0.2, 0.8) * ymax
    sigma = NOISE * ymax
    points: list[list[float]] = []
    class_a = []
    for _ in range(rng.randint(12, 20)):
        def along():
            x = rng.uniform(0.05, 0.95) * xmax
            return x, y_left + (y_right - y_left) * x / xmax + rng.gauss(0.0, sigma)
        class_a.append(_place(rng, points, along, xmax, ymax))
        points.append(class_a[-1])
    # Push one point 3.5 sigma along the sign of its natural residual, clipped to the axes.
    j = rng.randrange(len(class_a))
    natural = class_a[j][1] - (y_left + (y_right - y_left) * class_a[j][0] / xmax)
    pushed = class_a[j][1] + math.copysign(OUTLIER_PUSH * sigma, natural)
    class_a[j][1] = min(max(pushed, 0.02 * ymax), 0.98 * ymax)
    others = [p for i, p in enumerate(points) if p is not class_a[j]]
    if any(math.hypot((class_a[j][0] - p[0]) / xmax, (class_a[j][1] - p[1]) / ymax) < MIN_SPACING
           for p in others):
        raise RejectedSeed("pushed outlier too close to another point")
    class_b = []
    for _ in range(rng.randint(8, 16)):
        class_b.append(_place(rng, points, lambda: (rng.uniform(0.05, 0.95) * xmax,
                                                    rng.uniform(0.05, 0.95) * ymax), xmax, ymax))
        points.append(class_b[-1])
    xlim, ylim = [0.0, xmax], [0.0, ymax]
    line = line_through(*least_squares(class_a), xlim)
    res = [abs(r) for r in residuals(class_a, line)]
    if any(r * OUTLIER_MARGIN > res[j] for i, r in enumerate(res) if i != j):
        raise RejectedSeed("the pushed point is not clearly the largest residual")
    names = distinct_labels(rng, 2)
    colors = sample_colors(rng, 2, object_avoid(state))
    state.update(xlim=xlim, ylim=ylim, outlier=j, classes=[
        {"name": names[0], "color": colors[0], "points": class_a, "line": line},
        {"name": names[1], "color": colors[1], "points": class_b, "line": None}])
    return state


def draw_best_fit_line(base: dict, rng: random.Random):
    """Draw class B's least-squares line across the plot, in class B's colour."""
    cls = base["classes"][1]
    ans = copy.deepcopy(base)
    slope, intercept = least_squares(cls["points"])
    ans["classes"][1]["line"] = line_through(slope, intercept, base["xlim"])
    instruction = (f'Draw the least-squares best-fit line of the "{cls["name"]}" points as a solid '
                   f'line in their colour {cls["color"]}, across the full width of the plot, in the same '
                   f'style as the "{base["classes"][0]["name"]}" line.')
    return copy.deepcopy(base), ans, instruction, {"class": cls["name"], "slope": slope,
                                                  "intercept": intercept}


def swap_axes(base: dict, rng: random.Random):
    """Mirror everything across y = x: points, the drawn line, axis ranges and axis labels."""
    ans = copy.deepcopy(base)
    ans["xlim"], ans["ylim"] = base["ylim"], base["xlim"]
    ans["xlabel"], ans["ylabel"] = base["ylabel"], base["xlabel"]
    for cls in ans["classes"]:
        cls["points"] = [[y, x] for x, y in cls["points"]]
        if cls["line"] is not None:
            cls["line"] = [[y, x] for x, y in cls["line"]]
    instruction = ("Swap the x and y axes: every point (x, y) moves to (y, x), the drawn line is "
                   "mirrored the same way, and the two axis ranges and axis labels trade places.")
    return copy.deepcopy(base), ans, instruction, {}


def remove_outlier(base: dict, rng: random.Random):
    """Remove the class-A point with the largest absolute residual from its drawn line."""
    cls = base["classes"][0]
    res = [abs(r) for r in residuals(cls["points"], cls["line"])]
    j = max(range(len(res)), key=res.__getitem__)
    ans = copy.deepcopy(base)
    ans["classes"][0]["points"] = [p for i, p in enumerate(cls["points"]) if i != j]
    instruction = (f'Remove the outlier of the "{cls["name"]}" points: the one farthest (vertically) '
                   "from their best-fit line. Keep the line as it is.")
    return copy.deepcopy(base), ans, instruction, {"class": cls["name"], "point": cls["points"][j],
                                                  "residual": res[j]}


def recolor_class(base: dict, rng: random.Random):
    """Recolour one class: its points, its line (if drawn) and its legend marker."""
    k = rng.randrange(2)
    cls = base["classes"][k]
    color = sample_color(rng, [*object_avoid(base), *(c["color"] for c in base["classes"])])
    ans = copy.deepcopy(base)
    ans["classes"][k]["color"] = color
    extra = " and its best-fit line" if cls["line"] is not None else ""
    instruction = (f'Recolour every "{cls["name"]}" point{extra} to {color}, legend marker included; '
                   "change nothing else.")
    return copy.deepcopy(base), ans, instruction, {"class": cls["name"], "color": color,
                                                  "old_color": cls["color"]}


TASKS = {"draw_best_fit_line": draw_best_fit_line, "swap_axes": swap_axes,
         "remove_outlier": remove_outlier, "recolor_class": recolor_class}
