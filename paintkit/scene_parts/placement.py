"""Placing given shapes on a canvas under the PaintBench spacing rules.

For tasks that build their scenes from parts (groups of one type and color, grids, circles,
tally strips, legend keys) instead of :func:`paintkit.sampling.shapes.sample_shapes` alone. Boxes
are ``(x0, y0, x1, y1)`` in canvas pixels; placed shapes keep :data:`GAP_PX` from each other
and from reserved boxes, and :data:`EDGE_MARGIN` of the shorter canvas side from every edge
(docs/generator-rules.md#placement). Shapes built here have the identity ``transform``,
so moving their bbox moves their outline rigidly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace

from paintkit.sampling.shapes import EDGE_MARGIN, GAP_PX, sample_aspect
from paintkit.scene import RGB, BBox, Canvas, Shape
from paintkit.shapes import ROTATABLE, shape_bounds

Box = tuple[float, float, float, float]
PLACE_TRIES = 200


def edge_margin(canvas: Canvas) -> float:
    """Pixels every shape keeps from each canvas edge (2% of the shorter side)."""
    return EDGE_MARGIN * canvas.shorter_side


def box_gap(a: Box, b: Box) -> float:
    """Euclidean distance between two boxes (0 when they touch or overlap)."""
    dx = max(b[0] - a[2], a[0] - b[2], 0.0)
    dy = max(b[1] - a[3], a[1] - b[3], 0.0)
    return math.hypot(dx, dy)


def clear_of(box: Box, boxes: Sequence[Box], gap: float = GAP_PX) -> bool:
    """True when ``box`` keeps at least ``gap`` px from every box of ``boxes``."""
    return all(box_gap(box, other) >= gap for other in boxes)


def on_canvas(box: Box, canvas: Canvas) -> bool:
    """True when ``box`` keeps the edge margin from every canvas edge."""
    m = edge_margin(canvas)
    return box[0] >= m and box[1] >= m and box[2] <= canvas.width - m and box[3] <= canvas.height - m


def shifted(box: Box, dx: float, dy: float) -> Box:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def moved(shape: Shape, dx: float, dy: float) -> Shape:
    """``shape`` translated by ``(dx, dy)`` px through its bbox (identity transform only)."""
    b = shape.bbox
    return replace(shape, bbox=BBox(b.x + dx, b.y + dy, b.width, b.height))


def make_shape(shape_id: str, shape_type: str, fill: RGB, width: float, height: float,
               rotation: float = 0.0) -> Shape:
    """A shape with bbox ``(0, 0, width, height)``: place it with :func:`moved`."""
    return Shape(id=shape_id, type=shape_type, bbox=BBox(0.0, 0.0, float(width), float(height)),
                 fill=fill, rotation=float(rotation))


def random_shape(rng: random.Random, shape_id: str, shape_type: str, fill: RGB,
                 longer_side: float) -> Shape:
    """A shape at the origin with the sampler's aspect and rotation rules
    (docs/generator-rules.md#placement)."""
    ar = sample_aspect(rng, shape_type)
    w, h = (longer_side, longer_side / ar) if ar >= 1 else (longer_side * ar, longer_side)
    rotation = float(rng.randrange(360)) if shape_type in ROTATABLE else 0.0
    return make_shape(shape_id, shape_type, fill, w, h, rotation)


def place_randomly(rng: random.Random, shape: Shape, canvas: Canvas, boxes: Sequence[Box],
                   tries: int = PLACE_TRIES) -> tuple[Shape, Box] | None:
    """Move ``shape`` to a uniformly random spot on the canvas (within the edge margin) that
    keeps :data:`GAP_PX` from ``boxes``; ``None`` when ``tries`` spots all fail."""
    x0, y0, x1, y1 = shape_bounds(shape)
    m = edge_margin(canvas)
    free_x = canvas.width - 2 * m - (x1 - x0)
    free_y = canvas.height - 2 * m - (y1 - y0)
    if free_x < 0 or free_y < 0:
        return None
    for _ in range(tries):
        dx = m + rng.uniform(0.0, free_x) - x0
        dy = m + rng.uniform(0.0, free_y) - y0
        box = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
        if clear_of(box, boxes):
            return moved(shape, dx, dy), box
    return None


def place_distractors(rng: random.Random, canvas: Canvas, combos: Sequence[tuple[str, RGB]],
                      count: int, sizes: tuple[float, float], boxes: Sequence[Box],
                      id_prefix: str = "d") -> list[Shape] | None:
    """``count`` shapes of distinct (type, color) ``combos`` at random free spots.

    Sizes (longer side, px) are uniform in ``sizes``; aspect and rotation follow the sampler.
    Returns ``None`` when one of them finds no room.
    """
    chosen = rng.sample(list(combos), min(count, len(combos)))
    taken = list(boxes)
    out = []
    for i, (shape_type, color) in enumerate(chosen):
        shape = random_shape(rng, f"{id_prefix}{i}", shape_type, color, rng.uniform(*sizes))
        found = place_randomly(rng, shape, canvas, taken)
        if found is None:
            return None
        out.append(found[0])
        taken.append(found[1])
    return out


def size_ladder(rng: random.Random, n: int, min_ratio: float, spread: float = 1.15) -> list[float]:
    """``n`` increasing relative sizes starting at 1.0, each at least ``min_ratio`` (and at
    most ``min_ratio * spread``) times the one before."""
    if n < 1 or min_ratio <= 1.0 or spread < 1.0:
        raise ValueError(f"size_ladder needs n >= 1, min_ratio > 1 and spread >= 1, "
                         f"got {n}, {min_ratio}, {spread}")
    out = [1.0]
    for _ in range(n - 1):
        out.append(out[-1] * min_ratio * rng.uniform(1.0, spread))
    return out


def min_consecutive_ratio(values: Sequence[float]) -> float:
    """Least ratio between consecutive values once sorted (``inf`` for fewer than two)."""
    ordered = sorted(values)
    if ordered and ordered[0] <= 0:
        return 0.0
    return min((b / a for a, b in zip(ordered, ordered[1:], strict=False)), default=math.inf)
