"""Counting: shorten a tally strip to the number of shapes of a stated type or color.

A tally strip runs along one canvas edge: ``N`` evenly spaced marks (thin axis-aligned
rectangles on whole pixels, one color no shape uses), one per shape in the scene
(``N`` = 5 / 10 / 25 / 60, the "counting" counts). Shapes keep clear of the whole band
along that edge. The instruction names the edge, the end to remove marks from and what to
count, never the count:

- ``shape``: the number of shapes of a stated type ("as there are stars");
- ``color``: the number of shapes of a stated color ("as there are red shapes").

The answer removes marks from that end until as many remain as there are matching shapes.

The target count ``k`` is drawn first, uniformly over the whole feasible range, and the
scene is then sampled with exactly ``k`` matching shapes (at random places in the drawing
order), so every feasible answer is equally likely:

- ``shape``: the type uniform over the 12 types, ``k`` uniform in ``[1, min(N - 1, C)]``
  where ``C`` = 8 object colors (no two shapes share type and color);
- ``color``: the color uniform over the 8 object colors, ``k`` uniform in
  ``[1, min(N - 1, max(2, ceil(N / 3)), 12)]`` (at most that many shapes share a color,
  one per type).

For N = 5 / 10 / 25 / 60 that is 1-4 / 1-8 / 1-8 / 1-8 by type and 1-2 / 1-4 / 1-9 / 1-12
by color. The stated type or color is always present (``k >= 1``) and ``k < N`` (at least
one mark goes).
"""

from __future__ import annotations

import math

from paintkit.colors import describe_color
from paintkit.language.phrases import plural
from paintkit.renderers import render
from paintkit.sampling.condition import condition_background
from paintkit.sampling.shapes import sample_shapes
from paintkit.scene import SHAPE_TYPES, Canvas, Scene
from paintkit.scene_parts.glyphs import rectangle
from paintkit.scene_parts.placement import edge_margin
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="counting",
    category="symbolic_reasoning",
    modes=("shape", "color"),
    parameters={
        "edge": "top, bottom, left or right: the strip runs along it",
        "end": "the end marks are removed from (left/right or top/bottom)",
        "marks": "thickness 3-8 px (thinner when many), gaps of at least 3 px and half the "
                 "thickness, pitch at most 4 thicknesses, length 3-6% of the shorter side",
        "target": "a type (shape) or color (color), uniform; its count uniform over the "
                  "feasible range (shape: 1..min(N-1, 8); color: 1..min(N-1, max(2, "
                  "ceil(N/3)), 12))",
    },
    counts="counting",
)
EDGES: tuple[str, ...] = ("top", "bottom", "left", "right")
MIN_GAP = 3  # px between neighbouring marks (at least half a mark's thickness)
MAX_THICKNESS = 8


def _strip(rng, canvas: Canvas, edge: str, n: int):
    """Mark rectangles ``(x0, y0, x1, y1)`` (whole px, in strip order from left / top) and
    the band along ``edge`` that shapes keep clear of; ``None`` when ``n`` marks do not fit."""
    m = math.ceil(edge_margin(canvas))
    horizontal = edge in ("top", "bottom")
    along = canvas.width if horizontal else canvas.height
    across = canvas.height if horizontal else canvas.width
    usable = along - 2 * m
    thickness = rng.randint(3, MAX_THICKNESS)
    while thickness > 3 and (usable - thickness) // max(1, n - 1) < 2 * thickness:
        thickness -= 1
    pitch_fit = (usable - thickness) // max(1, n - 1)
    least = thickness + max(MIN_GAP, thickness // 2)
    if pitch_fit < least:
        return None
    pitch = rng.randint(least, max(least, min(pitch_fit, 4 * thickness)))
    length = rng.randint(round(0.03 * canvas.shorter_side), round(0.06 * canvas.shorter_side))
    span = (n - 1) * pitch + thickness
    start_at = m + rng.randint(0, usable - span)
    lo = m if edge in ("top", "left") else across - m - length
    marks = []
    for k in range(n):
        a = start_at + k * pitch
        marks.append((a, lo, a + thickness, lo + length) if horizontal
                     else (lo, a, lo + length, a + thickness))
    band = ((0, 0, along, lo + length) if edge in ("top", "left")
            else (0, lo, along, across))
    if not horizontal:
        band = (band[1], band[0], band[3], band[2])
    return marks, band


def target_range(mode: str, n: int, n_colors: int, n_types: int = len(SHAPE_TYPES)) -> range:
    """Feasible counts of matching shapes among ``n`` (see the module docstring).

    ``shape``: one shape per (type, color), so at most ``n_colors`` of one type; ``color``:
    at most ``max(2, ceil(n / 3))`` share a color and at most ``n_types`` (one per type).
    Always fewer than ``n``, so at least one mark goes.
    """
    most = n_colors if mode == "shape" else min(max(2, math.ceil(n / 3)), n_types)
    return range(1, min(n - 1, most) + 1)


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    rng = ctx.rng
    split, background = condition_background(rng, ctx.condition)
    canvas = Canvas(ctx.condition.width, ctx.condition.height)
    objects = [c.rgb for c in split.objects]
    mark_color = objects.pop(rng.randrange(len(objects)))
    n = ctx.count
    edge = rng.choice(EDGES)
    strip = _strip(rng, canvas, edge, n)
    if strip is None:
        raise ctx.reject(f"{n} marks do not fit along the {edge} edge")
    mark_boxes, band = strip
    # The count first, then a scene with exactly that many matching shapes: every feasible
    # answer is equally likely (drawing the scene first makes most counts 1).
    target = rng.choice(target_range(ctx.mode, n, len(objects)))
    if ctx.mode == "shape":
        value = rng.choice(SHAPE_TYPES)
        what = plural(value)
        shapes = sample_shapes(rng, canvas, objects, n, occupied=[band],
                               match=lambda t, c: t == value, match_count=target)
        matching = [s for s in shapes if s.type == value]
    else:
        value = rng.choice(objects)
        what = f"{describe_color(value)} shapes"
        shapes = sample_shapes(rng, canvas, objects, n, occupied=[band],
                               match=lambda t, c: c == value, match_count=target)
        matching = [s for s in shapes if s.fill == value]
    if len(matching) != target or target >= n:
        raise ctx.reject(f"{len(matching)} shapes match instead of {target} of {n}")
    marks = [rectangle(f"m{k}", box, mark_color) for k, box in enumerate(mark_boxes)]
    scene = Scene(canvas, background, tuple(shapes) + tuple(marks))
    horizontal = edge in ("top", "bottom")
    from_far_end = rng.random() < 0.5
    end = ("right" if horizontal else "bottom") if from_far_end else ("left" if horizontal else "top")
    removed = marks[target:] if from_far_end else marks[:n - target]
    answer_scene = scene.without(*(mk.id for mk in removed))
    instruction = (
        f"The tally strip along the {edge} edge of the canvas has one mark for each shape in "
        f"the image. Remove marks from its {end} end until it has as many marks as there are "
        f"{what} in the image. The other marks stay where they are; removed marks leave the "
        f"background."
    )
    return ctx.problem(
        render(scene), render(answer_scene), instruction, scene=scene, answer_scene=answer_scene,
        targets=tuple(mk.id for mk in removed),
        params={"edge": edge, "end": end, "count_by": ctx.mode,
                "value": value if ctx.mode == "shape" else list(value), "count": target,
                "marks": n, "mark_color": list(mark_color), "band": list(band),
                "mark_ids": [mk.id for mk in marks], "matching": [s.id for s in matching]},
    )
