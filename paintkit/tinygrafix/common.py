"""What every chart state shares: the theme and the gibberish title / axis labels.

A chart *state* is plain JSON data (dicts, lists, floats, hex strings), so it goes into the
problem metadata as is and the renderer (:mod:`paintkit.tinygrafix.render`) is a pure
function of it. Every state holds ``chart`` (the chart type), ``theme`` (``background``,
``text``, ``dark``), ``title``, ``xlabel`` and ``ylabel``.
"""

from __future__ import annotations

import math
import random

from paintkit.tinygrafix.style import gibberish_label, sample_theme


def base_style(chart: str, rng: random.Random, axis_labels: bool = True) -> dict:
    """The shared part of a fresh state of ``chart``."""
    theme = sample_theme(rng)
    state = {"chart": chart, "theme": theme.to_dict(), "title": gibberish_label(rng, (1, 3))}
    state["xlabel"] = gibberish_label(rng, (1, 2)) if axis_labels else ""
    state["ylabel"] = gibberish_label(rng, (1, 2)) if axis_labels else ""
    return state


def object_avoid(state: dict) -> list[str]:
    """Colours every object colour must stay away from: background and text."""
    return [state["theme"]["background"], state["theme"]["text"]]


def least_squares(points: list[list[float]]) -> tuple[float, float]:
    """``(slope, intercept)`` of the ordinary least-squares line ``y = slope * x + intercept``
    through ``points`` (plain Python, exactly reproducible on any machine)."""
    n = len(points)
    mx = math.fsum(p[0] for p in points) / n
    my = math.fsum(p[1] for p in points) / n
    sxx = math.fsum((p[0] - mx) ** 2 for p in points)
    sxy = math.fsum((p[0] - mx) * (p[1] - my) for p in points)
    slope = sxy / sxx
    return slope, my - slope * mx


def sample_range(rng: random.Random, magnitude: float) -> tuple[float, float]:
    """An axis range ``(lo, hi)`` of a nice span ``magnitude * [1, 9.9]`` rounded up, starting
    at 0 (1/3), at a positive offset of 0.5-2 spans (1/3) or at a negative value, 0.2-0.75
    of a span below 0 (1/3): data ranges like the paper's charts, not always from 0."""
    span = nice_limit(magnitude * rng.uniform(1.0, 9.9))
    kind = rng.randrange(3)
    if kind == 0:
        return 0.0, span
    if kind == 1:
        lo = float(f"{span * rng.choice((0.5, 1.0, 2.0)):.6g}")
    else:
        lo = -float(f"{span * rng.choice((0.2, 0.25, 0.5, 0.75)):.6g}")
    return lo, float(f"{lo + span:.6g}")


def nice_limit(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5, 10 x 10**k that is >= ``value`` (> 0)."""
    exponent = math.floor(math.log10(value))
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        limit = float(f"{step * 10.0 ** exponent:.6g}")
        if limit >= value:
            return limit
    return float(f"{10.0 ** (exponent + 1):.6g}")
