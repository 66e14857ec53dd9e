"""Scatter plot: state and its four tasks (draw_best_fit_line, swap_axes, remove_outlier,
recolor_class).

State (besides :mod:`paintkit.tinygrafix.common`): ``xlim``, ``ylim`` (fixed axis ranges),
``classes``: ``[{"name", "color", "points": [[x, y], ...], "line": [[x0, y0], [x1, y1]] | None}]``.
The x range starts at 0, at a positive offset or below 0
(:func:`~paintkit.tinygrafix.common.sample_range`); the y range is ``[0, ymax]``. Class A
(first) lies along a line with Gaussian noise, one point pushed 3.5 noise standard
deviations further along the sign of its own residual (clipped back into the axes), and its
least-squares line drawn across the plot; class B (second) is scattered with no line. Every
two points are at least :data:`MIN_SPACING` (of the axis ranges) apart.
"""

from __future__ import annotations

import copy
import math
import random

from paintkit.errors import RejectedSeed
from paintkit.tinygrafix.common import base_style, least_squares, nice_limit, object_avoid, sample_range
from paintkit.tinygrafix.style import distinct_labels, sample_color, sample_colors, sample_magnitude

CHART = "scatter_plot"
MIN_SPACING = 0.03  # distance between any two points, in axis spans (x / x span, y / y span)
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


def _place(rng, points, make, xspan, yspan, tries=200):
    for _ in range(tries):
        x, y = make()
        if all(math.hypot((x - p[0]) / xspan, (y - p[1]) / yspan) >= MIN_SPACING for p in points):
            return [x, y]
    raise RejectedSeed("no room for a scatter point")


def base_state(rng: random.Random) -> dict:
    """A fresh scatter plot (see the module docstring)."""
    state = base_style(CHART, rng)
    x0, x1 = sample_range(rng, sample_magnitude(rng))
    xspan = x1 - x0
    ymax = nice_limit(sample_magnitude(rng) * rng.uniform(1.0, 9.9))
    y_left, y_right = rng.uniform(0.2, 0.8) * ymax, rng.uniform(0.2, 0.8) * ymax
    sigma = NOISE * ymax
    points: list[list[float]] = []
    class_a = []
    for _ in range(rng.randint(12, 20)):
        def along():
            x = x0 + rng.uniform(0.05, 0.95) * xspan
            return x, y_left + (y_right - y_left) * (x - x0) / xspan + rng.gauss(0.0, sigma)
        class_a.append(_place(rng, points, along, xspan, ymax))
        points.append(class_a[-1])
    # Push one point 3.5 sigma along the sign of its natural residual, clipped to the axes.
    j = rng.randrange(len(class_a))
    natural = class_a[j][1] - (y_left + (y_right - y_left) * (class_a[j][0] - x0) / xspan)
    pushed = class_a[j][1] + math.copysign(OUTLIER_PUSH * sigma, natural)
    class_a[j][1] = min(max(pushed, 0.02 * ymax), 0.98 * ymax)
    others = [p for i, p in enumerate(points) if p is not class_a[j]]
    if any(math.hypot((class_a[j][0] - p[0]) / xspan, (class_a[j][1] - p[1]) / ymax) < MIN_SPACING
           for p in others):
        raise RejectedSeed("pushed outlier too close to another point")
    class_b = []
    for _ in range(rng.randint(8, 16)):
        class_b.append(_place(rng, points, lambda: (x0 + rng.uniform(0.05, 0.95) * xspan,
                                                    rng.uniform(0.05, 0.95) * ymax), xspan, ymax))
        points.append(class_b[-1])
    xlim, ylim = [x0, x1], [0.0, ymax]
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
                   f'line in their color {cls["color"]}, across the full width of the plot, in the same '
                   f'style as the "{base["classes"][0]["name"]}" line.')
    return copy.deepcopy(base), ans, instruction, {"class": cls["name"], "slope": slope,
                                                  "intercept": intercept}


def on_square_axes(state: dict) -> dict:
    """``state`` with its y data mapped linearly onto the x range, ``ylim = xlim`` (a relabelled
    y axis: every mark stays where it is drawn; least-squares lines and the outlier are kept,
    as the map is affine)."""
    out = copy.deepcopy(state)
    (x0, x1), (y0, y1) = state["xlim"], state["ylim"]

    def remap(y: float) -> float:
        return x0 + (y - y0) * (x1 - x0) / (y1 - y0)

    for cls in out["classes"]:
        cls["points"] = [[x, remap(y)] for x, y in cls["points"]]
        if cls["line"] is not None:
            cls["line"] = [[x, remap(y)] for x, y in cls["line"]]
    out["ylim"] = list(state["xlim"])
    return out


def swap_axes(base: dict, rng: random.Random):
    """Mirror the data across y = x on equal axis ranges (the frame stays): points and the
    drawn line move, the axis labels trade places, class B stays drawn over class A."""
    inp = on_square_axes(base)
    ans = copy.deepcopy(inp)
    ans["xlabel"], ans["ylabel"] = inp["ylabel"], inp["xlabel"]
    for cls in ans["classes"]:
        cls["points"] = [[y, x] for x, y in cls["points"]]
        if cls["line"] is not None:
            cls["line"] = [[y, x] for x, y in cls["line"]]
    a, b = (c["name"] for c in inp["classes"])
    instruction = ("Swap the x and y axes: every point (x, y) moves to (y, x), the drawn line is "
                   "mirrored the same way and the two axis labels trade places; both axes keep their "
                   f'(equal) ranges. The "{b}" points stay drawn on top of the "{a}" points and line.')
    return inp, ans, instruction, {"on_top": b}


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
    """Recolour the class the fitted line belongs to (class A): its points, its line and its
    legend marker together."""
    cls = base["classes"][0]
    color = sample_color(rng, [*object_avoid(base), *(c["color"] for c in base["classes"])])
    ans = copy.deepcopy(base)
    ans["classes"][0]["color"] = color
    instruction = (f'Recolor the "{cls["name"]}" class to {color}: every "{cls["name"]}" point, their '
                   "best-fit line and their legend marker; change nothing else.")
    return copy.deepcopy(base), ans, instruction, {"class": cls["name"], "color": color,
                                                  "old_color": cls["color"]}


TASKS = {"draw_best_fit_line": draw_best_fit_line, "swap_axes": swap_axes,
         "remove_outlier": remove_outlier, "recolor_class": recolor_class}
