"""Scaling: resize one shape, uniformly or along one axis, keeping a stated point or line of
its axis-aligned bounding box fixed: by a stated percentage (``amount``) or so that one
bounding-box side matches the same side of a reference shape's bounding box (``match``).

Scaling is axis-aligned in canvas coordinates, also for rotated shapes (the instruction is
about the bounding box), so a one-axis scaling of a tilted shape shears its outline.
Fixed points: for a uniform scaling one of the 9 bounding-box points (corners, edge
midpoints, center); for width only the left edge, right edge or vertical center line; for
height only the top edge, bottom edge or horizontal center line.

Parameters the answer depends on: the target, the factors ``sx``/``sy``, the ``pivot`` in
canvas px (the fixed point; only its x matters for width-only scaling, only its y for
height-only), the reference shape and dimension (``match``), and whether the scaled shape
goes on top of or beneath overlapping shapes.
"""

from __future__ import annotations

import math

from paintkit.edits.geometric import (
    MIN_VISIBLE,
    affine_edit_problem,
    mapped_bounds,
    outline_vertices,
    scaling_about,
    visible_fraction,
)
from paintkit.language.phrases import describe_shape, percent
from paintkit.language.points import own_point_phrase
from paintkit.sampling.condition import condition_scene
from paintkit.shapes import BBOX_POINT_NAMES, box_points, shape_bounds
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="scaling",
    category="geometric_transformation",
    modes=("amount", "match"),
    parameters={
        "amount": "a whole percent, log-uniform in [40%, 250%] (100% redrawn)",
        "match": "the factor that makes the target's bounding-box width or height equal the same "
                 "side of another shape's bounding box, within [40%, 250%] and at least 10% away "
                 "from 100%",
        "axes": "uniform, width only or height only (1/3 each)",
        "fixed": "uniform: one of the 9 bounding-box points; width only: left edge, right edge or "
                 "vertical center line; height only: top edge, bottom edge or horizontal center line",
        "on_top": "the scaled shape goes on top of (50%) or beneath overlapping shapes",
    },
)
FACTOR_RANGE = (0.40, 2.50)
MIN_MATCH_CHANGE = 0.10  # a matched factor differs from 1 by at least this much
AXES: tuple[str, ...] = ("uniform", "width", "height")
WIDTH_LINES: tuple[str, ...] = ("left edge", "right edge", "vertical center line")
HEIGHT_LINES: tuple[str, ...] = ("top edge", "bottom edge", "horizontal center line")
DIMENSIONS: tuple[str, ...] = ("width", "height")


def _fixed_choices(axes, bounds):
    """``(name, pivot, words)`` for every fixed point or line allowed for ``axes``."""
    x0, y0, x1, y1 = bounds
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if axes == "uniform":
        box = box_points(bounds)
        return [(n, box[n], own_point_phrase(n)) for n in BBOX_POINT_NAMES]
    if axes == "width":
        return [(n, (x, cy), f"the {n} of its bounding box")
                for n, x in zip(WIDTH_LINES, (x0, x1, cx), strict=True)]
    return [(n, (cx, y), f"the {n} of its bounding box")
            for n, y in zip(HEIGHT_LINES, (y0, y1, cy), strict=True)]


def _factors(axes, factor):
    return (factor if axes != "height" else 1.0, factor if axes != "width" else 1.0)


def _fixed_point(ctx, canvas, target, bounds, axes, factor):
    """A fixed point for ``axes`` (shuffled) that keeps the scaled shape mostly visible."""
    vertices = outline_vertices(target)
    choices = _fixed_choices(axes, bounds)
    ctx.rng.shuffle(choices)
    sx, sy = _factors(axes, factor)
    for name, pivot, words in choices:
        if visible_fraction(mapped_bounds(vertices, scaling_about(pivot, sx, sy)), canvas) >= MIN_VISIBLE:
            return name, pivot, words
    return None


def sample_percent(rng) -> int:
    """A whole percent, log-uniform in [40, 250], never 100."""
    lo, hi = (math.log(f) for f in FACTOR_RANGE)
    while True:
        value = round(100 * math.exp(rng.uniform(lo, hi)))
        if value != 100 and 40 <= value <= 250:
            return value


def _amount(ctx, scene, target, bounds, phrase):
    axes = ctx.rng.choice(AXES)
    pct = sample_percent(ctx.rng)
    fixed = _fixed_point(ctx, scene.canvas, target, bounds, axes, pct / 100)
    if fixed is None:
        raise ctx.reject("every fixed point sends the scaled shape off the canvas")
    name, pivot, words = fixed
    if axes == "uniform":
        how = f"uniformly to {percent(pct)} of its current size (width and height alike)"
    else:
        other = "height" if axes == "width" else "width"
        how = (f"{'horizontally' if axes == 'width' else 'vertically'} to {percent(pct)} of its "
               f"current bounding-box {axes} (its {other} unchanged)")
    sentence = f"Scale {phrase} {how}, keeping {words} fixed."
    return axes, pct / 100, name, pivot, sentence, {"percent": pct}


def _match(ctx, scene, target, bounds, phrase):
    """Match the drawn bounding-box dimension of a usable reference (else the other one)."""
    rng = ctx.rng
    dimensions = list(DIMENSIONS)
    rng.shuffle(dimensions)
    uniform = rng.random() < 0.5
    others = [s for s in scene.shapes if s.id != target.id]
    rng.shuffle(others)
    ref_bounds: dict[str, tuple[float, float, float, float]] = {}
    for dimension in dimensions:
        axes = "uniform" if uniform else dimension
        k = 0 if dimension == "width" else 1
        side = bounds[k + 2] - bounds[k]
        for ref in others:
            rb = ref_bounds.get(ref.id) or ref_bounds.setdefault(ref.id, shape_bounds(ref))
            ref_side = rb[k + 2] - rb[k]
            factor = ref_side / side
            if not (FACTOR_RANGE[0] <= factor <= FACTOR_RANGE[1]) or abs(factor - 1) < MIN_MATCH_CHANGE:
                continue
            fixed = _fixed_point(ctx, scene.canvas, target, bounds, axes, factor)
            if fixed is None:
                continue
            name, pivot, words = fixed
            ref_words = f"the {dimension} of {describe_shape(ref, scene.shapes)}'s bounding box"
            if uniform:
                how = (f"uniformly (keeping its aspect ratio) so that the {dimension} of its "
                       f"bounding box equals {ref_words}")
            else:
                other = "height" if dimension == "width" else "width"
                how = (f"along one axis so that the {dimension} of its bounding box equals "
                       f"{ref_words} (its {other} unchanged)")
            sentence = f"Scale {phrase} {how}, keeping {words} fixed."
            info = {"dimension": dimension, "reference_shape": ref.id, "reference_size": ref_side,
                    "target_size": side}
            return axes, factor, name, pivot, sentence, info
    raise ctx.reject("no other shape has a usable bounding-box width or height")


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    scene = condition_scene(ctx.rng, ctx.condition, SPEC.counts).scene
    target = ctx.rng.choice(scene.shapes)
    phrase = describe_shape(target, scene.shapes)
    bounds = shape_bounds(target)
    make = _amount if ctx.mode == "amount" else _match
    axes, factor, fixed, pivot, sentence, info = make(ctx, scene, target, bounds, phrase)
    sx, sy = _factors(axes, factor)
    params = {"axes": axes, "factor": factor, "sx": sx, "sy": sy, "fixed": fixed,
              "pivot": [float(pivot[0]), float(pivot[1])], "bounds": list(bounds), **info}
    return affine_edit_problem(ctx, scene, target, scaling_about(pivot, sx, sy), sentence, params)
