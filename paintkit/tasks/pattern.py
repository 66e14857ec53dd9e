"""Pattern: fill the empty cells of a repeating arrangement of shapes.

Modes:

- ``grid``: an ``R`` x ``C`` grid (drawn with thin lines in an *ink* color) whose cells hold
  a 2-D tiling: cell ``(i, j)`` shows motif entry ``(i mod a, j mod b)`` with least row
  period ``a`` and least column period ``b`` in 1..3 (not both 1), each period appearing
  at least twice (``R >= 2a``, ``C >= 2b``);
- ``circular``: ``N`` positions evenly spaced on a circle (drawn as a thin ink ring, the
  first position at the top) repeating a sequence of least period ``p`` in 2..4 that
  divides ``N``, at least three times around.

A motif entry (*token*) is a shape of its own type and color (distinct tokens differ in
(type, color)), aspect ratio and rotation, drawn identically wherever it occurs: its
bounds centered on the cell center or circle position, at one size for all tokens.

The count of the condition ("pattern" counts 1 / 3 / 6 / 10,
docs/generator-rules.md#object-counts) is the number of **empty** cells or positions: the
answer draws the missing tokens there.

Uniqueness: the instruction states the period bounds (1-3 rows and columns; sequences of
2-4 shapes), and the generator checks that every period within those bounds that agrees
with the visible shapes completes every empty cell, and all the same way
(:func:`~paintkit.edits.periodicity.uniquely_determined`). Each class of the true period
keeps at least two visible instances, and the least periods of the full pattern are the
stated ones (``params``).
"""

from __future__ import annotations

import math
from dataclasses import replace

from paintkit.colors import describe_color
from paintkit.edits.periodicity import (
    cyclic_keys,
    cyclic_min_period,
    grid_keys,
    grid_min_periods,
    uniquely_determined,
    visible_per_class,
)
from paintkit.renderers import render
from paintkit.sampling.condition import condition_background
from paintkit.scene import SHAPE_TYPES, BBox, Canvas, Polygon, Scene, Shape, Stroke
from paintkit.scene_parts.glyphs import rectangle
from paintkit.scene_parts.placement import edge_margin, moved, random_shape
from paintkit.shapes import shape_bounds
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="pattern",
    category="symbolic_reasoning",
    modes=("grid", "circular"),
    parameters={
        "count": "number of empty cells / positions to fill (1 / 3 / 6 / 10 by condition)",
        "grid": "R x C cells (2-7 x 2-8, cells >= 60 px), row and column periods 1-3",
        "circular": "N <= 30 positions, sequence period 2-4 dividing N, >= 3 repeats",
        "tokens": "2 to period-many distinct (type, color) shapes, one size, own aspect and "
                  "rotation",
    },
    counts="pattern",
)
MAX_GRID_PERIOD = 3
CYCLE_PERIODS = (2, 3, 4)
MAX_ROWS, MAX_COLS, MIN_CELL = 7, 8, 60
MAX_POSITIONS = 30
MIN_REPEATS = 3
MIN_SHOWN = 2  # visible instances per class of the true period
MIN_SHOWN_PER_EMPTY = 1.5  # visible cells per empty cell, at least
MIN_TOKEN_PX = 32.0
TRIES = 40


def _tokens(rng, count: int, colors) -> list[Shape]:
    """``count`` token shapes at the origin, longer side 1, distinct (type, color)."""
    combos = rng.sample([(t, c) for t in SHAPE_TYPES for c in colors], count)
    return [random_shape(rng, f"token{i}", t, c, 1.0) for i, (t, c) in enumerate(combos)]


def _motif_labels(rng, cells: int, tokens: int) -> list[int]:
    """``cells`` labels using each of ``tokens`` labels at least once."""
    labels = list(range(tokens)) + [rng.randrange(tokens) for _ in range(cells - tokens)]
    rng.shuffle(labels)
    return labels


def _sized(token: Shape, size: float) -> tuple[Shape, tuple[float, float]]:
    """``token`` scaled so its bounds' longer side is ``size`` px, and its bounds' center."""
    x0, y0, x1, y1 = shape_bounds(token)
    scale = size / max(x1 - x0, y1 - y0)
    b = token.bbox
    shape = replace(token, bbox=BBox(0.0, 0.0, b.width * scale, b.height * scale))
    # Outlines are flattened for their drawn size: measure the center at that size.
    x0, y0, x1, y1 = shape_bounds(shape)
    return shape, ((x0 + x1) / 2, (y0 + y1) / 2)


def _token_at(sized: tuple[Shape, tuple[float, float]], shape_id: str,
              center: tuple[float, float]) -> Shape:
    """A sized token (from :func:`_sized`) with its bounds centered on ``center``."""
    shape, (cx, cy) = sized
    return replace(moved(shape, center[0] - cx, center[1] - cy), id=shape_id)


def _hide(rng, labels: list[int], missing: int, classes: list, candidates: list) -> list[bool] | None:
    """A visibility mask hiding ``missing`` cells that leaves the pattern determined."""
    n = len(labels)
    for _ in range(TRIES):
        hidden = set(rng.sample(range(n), missing))
        visible = [i not in hidden for i in range(n)]
        if min(visible_per_class(visible, classes).values()) < MIN_SHOWN:
            continue
        if uniquely_determined(labels, visible, candidates):
            return visible
    return None


def _grid(ctx, canvas: Canvas, colors, ink, missing: int):
    rng = ctx.rng
    m = edge_margin(canvas)
    max_rows = min(MAX_ROWS, int((canvas.height - 2 * m) // MIN_CELL))
    max_cols = min(MAX_COLS, int((canvas.width - 2 * m) // MIN_CELL))
    a, b = rng.choice([(a, b) for a in range(1, MAX_GRID_PERIOD + 1)
                       for b in range(1, MAX_GRID_PERIOD + 1) if a * b > 1])
    least_cells = missing + max(MIN_SHOWN * a * b, math.ceil(MIN_SHOWN_PER_EMPTY * missing))
    for _ in range(TRIES):
        rows = rng.randint(max(2, 2 * a), max(2, 2 * a, max_rows))
        cols = rng.randint(max(2, 2 * b), max(2, 2 * b, max_cols))
        if rows <= max_rows and cols <= max_cols and rows * cols >= least_cells:
            break
    else:
        raise ctx.reject(f"no grid up to {max_rows}x{max_cols} shows periods {a}x{b} with "
                         f"{missing} empty cells")
    for _ in range(TRIES):
        motif = _motif_labels(rng, a * b, rng.randint(2, a * b))
        labels = [motif[(i % a) * b + j % b] for i in range(rows) for j in range(cols)]
        if grid_min_periods([labels[i * cols:(i + 1) * cols] for i in range(rows)]) == (a, b):
            break
    else:
        raise ctx.reject("no motif with the chosen least periods")
    candidates = [grid_keys(rows, cols, p, q) for p in range(1, MAX_GRID_PERIOD + 1)
                  for q in range(1, MAX_GRID_PERIOD + 1)]
    visible = _hide(rng, labels, missing, grid_keys(rows, cols, a, b), candidates)
    if visible is None:
        raise ctx.reject("no set of empty cells leaves the pattern determined")
    cell = int(min((canvas.width - 2 * m) / cols, (canvas.height - 2 * m) / rows))
    x0 = math.ceil(m) + rng.randint(0, int(canvas.width - 2 * m) - cols * cell)
    y0 = math.ceil(m) + rng.randint(0, int(canvas.height - 2 * m) - rows * cell)
    lw = max(2, round(0.03 * cell))
    lines = []
    for r in range(rows + 1):
        y = y0 + r * cell - lw // 2
        lines.append(rectangle(f"row_line{r}", (x0 - lw // 2, y, x0 + cols * cell - lw // 2 + lw,
                                                y + lw), ink))
    for c in range(cols + 1):
        x = x0 + c * cell - lw // 2
        lines.append(rectangle(f"col_line{c}", (x, y0 - lw // 2, x + lw,
                                                y0 + rows * cell - lw // 2 + lw), ink))
    size = rng.uniform(0.6, 0.75) * (cell - lw)
    centers = [(x0 + (j + 0.5) * cell, y0 + (i + 0.5) * cell) for i in range(rows) for j in range(cols)]
    info = {"rows": rows, "cols": cols, "row_period": a, "col_period": b, "cell": cell,
            "origin": [x0, y0], "line_width": lw}
    phrase = (f"The shapes in the {rows}-row, {cols}-column grid follow a pattern that repeats "
              f"every 1 to 3 rows down and every 1 to 3 columns across.")
    return labels, visible, centers, size, lines, info, phrase, ("cell", "cells", "in the grid")


def _circular(ctx, canvas: Canvas, colors, ink, missing: int):
    rng = ctx.rng
    p = rng.choice(CYCLE_PERIODS)
    m = edge_margin(canvas)
    half = canvas.shorter_side / 2 - m
    fill = rng.uniform(0.5, 0.62)  # token size / chord between neighbours: boxes stay apart
    shrink = rng.uniform(0.85, 1.0)

    def radius_size(k: int) -> tuple[float, float]:
        radius = half / (1 + fill * math.sin(math.pi / k)) * shrink
        return radius, min(fill * 2 * radius * math.sin(math.pi / k), 0.22 * canvas.shorter_side)

    # The most positions whose tokens still reach the least token size.
    most = max(k for k in range(2, MAX_POSITIONS + 1) if k == 2 or radius_size(k)[1] >= MIN_TOKEN_PX)
    least_repeats = max(MIN_REPEATS, math.ceil((missing + MIN_SHOWN * p) / p),
                        math.ceil(missing * (1 + MIN_SHOWN_PER_EMPTY) / p))
    if least_repeats * p > most:
        raise ctx.reject(f"period {p} with {missing} empty positions needs more than "
                         f"{most} positions")
    n = p * rng.randint(least_repeats, most // p)
    for _ in range(TRIES):
        sequence = _motif_labels(rng, p, rng.randint(2, p))
        if cyclic_min_period(sequence) == p:
            break
    else:
        raise ctx.reject("no sequence with the chosen least period")
    labels = [sequence[k % p] for k in range(n)]
    candidates = [cyclic_keys(n, q) for q in range(1, max(CYCLE_PERIODS) + 1) if n % q == 0]
    visible = _hide(rng, labels, missing, cyclic_keys(n, p), candidates)
    if visible is None:
        raise ctx.reject("no set of empty positions leaves the sequence determined")
    radius, size = radius_size(n)
    cx, cy = canvas.width / 2, canvas.height / 2
    centers = [(cx + radius * math.sin(2 * math.pi * k / n), cy - radius * math.cos(2 * math.pi * k / n))
               for k in range(n)]
    lw = max(2, round(0.004 * canvas.shorter_side))
    ring = Polygon("guide_circle", tuple(
        (cx + radius * math.cos(2 * math.pi * t / 180), cy + radius * math.sin(2 * math.pi * t / 180))
        for t in range(180)), stroke=Stroke(ink, lw))
    info = {"positions": n, "period": p, "radius": radius, "center": [cx, cy], "line_width": lw}
    phrase = (f"{n} positions are evenly spaced around the circle, the first at the top, and the "
              f"shapes on them repeat one sequence of 2 to 4 shapes all the way around.")
    return labels, visible, centers, size, [ring], info, phrase, ("position", "positions",
                                                                 "on the circle")


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    rng = ctx.rng
    split, background = condition_background(rng, ctx.condition)
    canvas = Canvas(ctx.condition.width, ctx.condition.height)
    colors = [c.rgb for c in split.objects]
    ink = colors.pop(rng.randrange(len(colors)))
    missing = ctx.count
    build = _grid if ctx.mode == "grid" else _circular
    labels, visible, centers, size, guides, info, phrase, (one, many, where) = build(
        ctx, canvas, colors, ink, missing)
    if size < MIN_TOKEN_PX:
        raise ctx.reject(f"tokens would be {size:.0f} px (< {MIN_TOKEN_PX:.0f})")
    tokens = _tokens(rng, max(labels) + 1, colors)
    sized = [_sized(t, size) for t in tokens]
    shapes = [_token_at(sized[label], f"cell{k}", centers[k]) for k, label in enumerate(labels)]
    shown = tuple(s for s, v in zip(shapes, visible, strict=True) if v)
    scene = Scene(canvas, background, tuple(guides) + shown)
    answer_scene = Scene(canvas, background, tuple(guides) + tuple(shapes))
    empty = "One " + one + " is" if missing == 1 else f"{missing} {many} are"
    instruction = (f"{phrase} {empty} empty. Fill each empty {one} with the shape the pattern "
                   f"puts there: the same type, color, size and orientation as that shape "
                   f"elsewhere {where}, centered in its {one} like the others.")
    return ctx.problem(
        render(scene), render(answer_scene), instruction, scene=scene, answer_scene=answer_scene,
        targets=tuple(s.id for s, v in zip(shapes, visible, strict=True) if not v),
        params={**info, "empty": missing, "labels": labels,
                "hidden": [k for k, v in enumerate(visible) if not v],
                "tokens": [{"type": t.type, "color": describe_color(t.fill), "fill": list(t.fill),
                            "aspect": t.bbox.width / t.bbox.height, "rotation": t.rotation}
                           for t in tokens],
                "token_size": size, "ink": list(ink)},
    )
