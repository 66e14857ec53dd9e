"""Comparison: remove the shape of a stated size rank among shapes of one type and color.

The scene holds a *group* of ``ctx.count`` shapes (3 / 5 / 7 / 9, "comparison"
counts) of one type and one color that differ in one measure, plus 0-3 distractors of other
(type, color) combinations (never the group's). The instruction names the group by color
and type, the measure and the rank ("Remove the second narrowest of the 5 red
rectangles."); the answer is the scene re-rendered without that shape.

Measures (``params["metric"]``), always of the drawn outline:

- ``area``: :func:`~paintkit.shapes.shape_area`; the group's shapes are similar (one aspect
  ratio), each with its own rotation, so area order is size order;
- ``width`` / ``height``: horizontal / vertical extent of :func:`~paintkit.shapes.shape_bounds`;
  the group is unrotated and aspect-free types get an independent other side, so the rank
  is about that one extent.

Unambiguous by eye: in rank order consecutive measures differ by at least 30% (area) or
15% (width, height), checked on the built shapes. Sizes (longer side) span
``[max(32 px, lo / 2), hi]`` with ``(lo, hi)`` the sampler's size range for the group
count: the lower end is relaxed so nine clearly distinct sizes fit.
"""

from __future__ import annotations

import math
from dataclasses import replace

from paintkit.colors import describe_color
from paintkit.language.phrases import VACATED_NOTE, plural, ranked
from paintkit.renderers import render
from paintkit.sampling.condition import condition_background
from paintkit.sampling.shapes import MIN_SIZE_PX, NEAR_SQUARE, size_range
from paintkit.scene import SHAPE_TYPES, Canvas, Scene, Shape
from paintkit.scene_parts.placement import (
    make_shape,
    min_consecutive_ratio,
    place_distractors,
    place_randomly,
    random_shape,
    size_ladder,
)
from paintkit.shapes import (
    ASPECT_FREE,
    CANONICAL_ASPECT,
    NEAR_SQUARE_EXCLUDED,
    ROTATABLE,
    shape_area,
    shape_bounds,
)
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="comparison",
    category="symbolic_reasoning",
    parameters={
        "metric": "area, width or height of the drawn outline (1/3 each)",
        "rank": "1st to 3rd (at most half the group, rounded up) from the largest or the "
                "smallest end",
        "distractors": "0-3 shapes of other (type, color) combinations",
    },
    counts="comparison",
)
METRICS: tuple[str, ...] = ("area", "width", "height")
SUPERLATIVES = {"area": ("largest", "smallest"), "width": ("widest", "narrowest"),
                "height": ("tallest", "shortest")}
METRIC_NOTES = {"area": "Sizes compare by area.", "width": "Widths are horizontal extents.",
                "height": "Heights are vertical extents."}
# Least ratio between consecutive measures in rank order.
MIN_RATIO = {"area": 1.3, "width": 1.15, "height": 1.15}
MAX_RANK = 3
MAX_DISTRACTORS = 3


def measure(shape: Shape, metric: str) -> float:
    """The measure a rank refers to: area (px^2), width or height (px) of the drawn outline."""
    if metric == "area":
        return shape_area(shape)
    x0, y0, x1, y1 = shape_bounds(shape)
    if metric == "width":
        return x1 - x0
    if metric == "height":
        return y1 - y0
    raise ValueError(f"unknown metric {metric!r}; allowed: {', '.join(METRICS)}")


def _other_side(rng, shape_type: str, side: float, lo: float, hi: float) -> float:
    """The unranked side of an aspect-free shape whose ranked side is ``side``."""
    if shape_type not in ASPECT_FREE:
        return side / CANONICAL_ASPECT[shape_type]
    low, high = max(lo, side / 2.5), min(hi, side * 2.5)
    for _ in range(10):
        other = rng.uniform(low, high)
        if shape_type not in NEAR_SQUARE_EXCLUDED or not NEAR_SQUARE[0] <= side / other <= NEAR_SQUARE[1]:
            break
    return other


def _group(rng, metric: str, shape_type: str, color, n: int, canvas: Canvas) -> list[Shape] | None:
    """``n`` shapes at the origin whose ``metric`` follows a ladder of distinct sizes."""
    spec_lo, hi = size_range(canvas, (n, n))
    lo = max(MIN_SIZE_PX, spec_lo / 2)
    # longer side / ranked side for fixed-aspect types ranked by one extent
    stretch = 1.0
    if metric != "area" and shape_type not in ASPECT_FREE:
        aspect = CANONICAL_ASPECT[shape_type]  # width / height
        stretch = max(1.0, 1 / aspect if metric == "width" else aspect)
    # 0.5% over the least ratio keeps rounding in the measures from breaking it.
    step = (math.sqrt(MIN_RATIO[metric]) if metric == "area" else MIN_RATIO[metric]) * 1.005
    room = hi / stretch / lo / step ** (n - 1)
    if room < 1.0:
        return None
    ladder = size_ladder(rng, n, step, min(1.15, room ** (1 / max(1, n - 1))))
    top = ladder[-1]
    base = rng.uniform(lo, max(lo, hi / stretch / top))
    shapes = []
    if metric == "area":
        probe = random_shape(rng, "probe", shape_type, color, 1.0)  # longer side 1
        w, h = probe.bbox.width, probe.bbox.height
        for i, r in enumerate(ladder):
            rotation = float(rng.randrange(360)) if shape_type in ROTATABLE else 0.0
            shapes.append(make_shape(f"g{i}", shape_type, color, w * base * r, h * base * r,
                                     rotation))
        return shapes
    for i, r in enumerate(ladder):
        side = base * r
        if shape_type in ASPECT_FREE:
            other = _other_side(rng, shape_type, side, lo, hi)
        else:
            aspect = CANONICAL_ASPECT[shape_type]
            other = side / aspect if metric == "width" else side * aspect
        w, h = (side, other) if metric == "width" else (other, side)
        shapes.append(make_shape(f"g{i}", shape_type, color, w, h))
    return shapes


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    rng = ctx.rng
    split, background = condition_background(rng, ctx.condition)
    canvas = Canvas(ctx.condition.width, ctx.condition.height)
    colors = [c.rgb for c in split.objects]
    n = ctx.count
    metric = rng.choice(METRICS)
    shape_type = rng.choice(SHAPE_TYPES)
    color = rng.choice(colors)
    group = _group(rng, metric, shape_type, color, n, canvas)
    if group is None:
        raise ctx.reject(f"{n} distinct {metric}s do not fit the size range")
    # Place the largest first (hardest to fit), then shuffle ids so they do not leak ranks.
    placed, boxes = [], []
    for shape in sorted(group, key=lambda s: -s.bbox.width * s.bbox.height):
        found = place_randomly(rng, shape, canvas, boxes)
        if found is None:
            raise ctx.reject("no room for the group")
        placed.append(found[0])
        boxes.append(found[1])
    rng.shuffle(placed)
    placed = [replace(s, id=f"g{i}") for i, s in enumerate(placed)]
    combos = [(t, c) for t in SHAPE_TYPES for c in colors if (t, c) != (shape_type, color)]
    lo, hi = size_range(canvas, (n, n))
    extra = place_distractors(rng, canvas, combos, rng.randint(0, MAX_DISTRACTORS), (lo, hi), boxes)
    if extra is None:
        raise ctx.reject("no room for the distractors")
    elements = placed + extra
    rng.shuffle(elements)
    scene = Scene(canvas, background, tuple(elements))

    values = {s.id: measure(s, metric) for s in placed}
    if min_consecutive_ratio(list(values.values())) < MIN_RATIO[metric]:
        raise ctx.reject(f"{metric}s of the group are too close to rank by eye")
    from_large = rng.random() < 0.5
    k = rng.randint(1, min(MAX_RANK, math.ceil(n / 2)))
    ascending = sorted(values, key=values.get)
    target = ascending[-k] if from_large else ascending[k - 1]
    word = SUPERLATIVES[metric][0 if from_large else 1]
    rank_words = ranked(word, k)
    instruction = (f"Remove the {rank_words} of the {n} {describe_color(color)} "
                   f"{plural(shape_type)}. {METRIC_NOTES[metric]} {VACATED_NOTE}")
    answer_scene = scene.without(target)
    return ctx.problem(
        render(scene), render(answer_scene), instruction, scene=scene, answer_scene=answer_scene,
        targets=(target,),
        params={"metric": metric, "rank": k, "from": "largest" if from_large else "smallest",
                "superlative": word, "group": ascending, "group_type": shape_type,
                "group_color": list(color), "measures": [values[i] for i in ascending],
                "min_ratio": MIN_RATIO[metric], "distractors": [s.id for s in extra]},
    )
