"""Random scenes that follow every PaintBench placement rule (docs/generator-rules.md#placement).

Rules, applied to each shape in turn (sequential placement):

- size: the longer side of the (unrotated) bounding box is drawn uniformly from
  ``[max(0.02, 0.18 / sqrt(n_mid)), min(0.40, 0.55 / sqrt(n_mid))]`` times the shorter canvas
  side, and is at least 32 px (``n_mid`` = midpoint of the count range);
- aspect ratio (width / height): log-uniform in [0.4, 2.5] for aspect-free shapes, where
  rectangle, ring and diamond redraw values in [0.8, 1.25]; the canonical ratio otherwise;
- rotation: a whole number of degrees in [0, 360) for rotatable shapes, 0 otherwise;
- position: the axis-aligned bounds of the placed outline keep 2% of the shorter canvas side
  from every edge, and no closer than 4 px to the bounds of any shape already placed;
- identity: no two shapes share (type, color); at most ``max(2, ceil(n / 3))`` share a color;
- quota (optional, for tasks that need an exact count): exactly ``k`` of the ``n`` shapes, at
  positions drawn at random, satisfy a predicate on (type, color); the rest do not.

A candidate that breaks a rule is redrawn; after a bounded number of tries the sampler
raises :class:`~paintkit.errors.SceneSamplingError` (a ``ValueError`` and a
:class:`~paintkit.errors.RejectedSeed`, so suites move on to the next attempt).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from paintkit.attempts import check_time
from paintkit.errors import SceneSamplingError
from paintkit.scene import (
    RGB,
    SHAPE_TYPES,
    Background,
    BBox,
    Canvas,
    Scene,
    Shape,
    check_color,
)
from paintkit.shapes import ASPECT_FREE, NEAR_SQUARE_EXCLUDED, ROTATABLE, check_shape_type
from paintkit.shapes.geometry import CANONICAL_ASPECT, shape_bounds

GAP_PX = 4.0
EDGE_MARGIN = 0.02
MIN_SIZE_PX = 32.0
ASPECT_RANGE = (0.4, 2.5)
NEAR_SQUARE = (0.8, 1.25)
TRIES_PER_SHAPE = 300
SCENE_RESTARTS = 20


@dataclass(frozen=True)
class PlacementRules:
    """The numbers behind the placement rules; defaults are PaintBench's."""

    gap_px: float = GAP_PX
    edge_margin: float = EDGE_MARGIN
    min_size_px: float = MIN_SIZE_PX
    tries_per_shape: int = TRIES_PER_SHAPE
    scene_restarts: int = SCENE_RESTARTS


DEFAULT_RULES = PlacementRules()


def parse_count_range(count_range: int | tuple[int, int]) -> tuple[int, int]:
    """``3`` -> ``(3, 3)``; ``(2, 5)`` stays; anything else raises ``ValueError``."""
    if isinstance(count_range, int) and not isinstance(count_range, bool):
        count_range = (count_range, count_range)
    try:
        lo, hi = count_range
    except (TypeError, ValueError):
        raise ValueError(f"count_range must be an int or a (min, max) pair, got {count_range!r}") from None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi)) or not 1 <= lo <= hi:
        raise ValueError(f"count_range must satisfy 1 <= min <= max (ints), got {count_range!r}")
    return lo, hi


def size_range(canvas: Canvas, count_range: tuple[int, int],
               min_size_px: float = MIN_SIZE_PX) -> tuple[float, float]:
    """(smallest, largest) longer bbox side in pixels for this canvas and count range."""
    n_mid = (count_range[0] + count_range[1]) / 2
    short = canvas.shorter_side
    lo = max(0.02, 0.18 / math.sqrt(n_mid)) * short
    hi = min(0.40, 0.55 / math.sqrt(n_mid)) * short
    lo = max(lo, min_size_px)
    return lo, max(hi, lo)


def sample_aspect(rng: random.Random, shape_type: str) -> float:
    """Width / height of a new ``shape_type`` (log-uniform for aspect-free shapes)."""
    if shape_type not in ASPECT_FREE:
        return CANONICAL_ASPECT[shape_type]
    log_lo, log_hi = math.log(ASPECT_RANGE[0]), math.log(ASPECT_RANGE[1])
    while True:
        ar = math.exp(rng.uniform(log_lo, log_hi))
        if shape_type not in NEAR_SQUARE_EXCLUDED or not NEAR_SQUARE[0] <= ar <= NEAR_SQUARE[1]:
            return ar


def _check_inputs(canvas: Canvas, object_colors: Sequence[RGB], shape_types: Sequence[str],
                  lo_hi: tuple[int, int], sizes: tuple[float, float], rules: PlacementRules) -> None:
    if not object_colors:
        raise ValueError("object_colors must hold at least one color")
    if not shape_types:
        raise ValueError("shape_types must hold at least one shape type")
    n = lo_hi[1]
    combos = len(set(shape_types)) * len(set(object_colors))
    if combos < n:
        raise ValueError(
            f"cannot place {n} shapes with unique (type, color): only {combos} combinations "
            f"of {len(set(shape_types))} types and {len(set(object_colors))} colors"
        )
    cap = max(2, math.ceil(n / 3))
    if len(set(object_colors)) * cap < n:
        raise ValueError(
            f"cannot place {n} shapes with at most {cap} per color from "
            f"{len(set(object_colors))} colors"
        )
    margin = rules.edge_margin * canvas.shorter_side
    usable_w, usable_h = canvas.width - 2 * margin, canvas.height - 2 * margin
    smallest = sizes[0]
    # The least room a shape can take: its shorter side is at least smallest / 2.5.
    need = n * (smallest + rules.gap_px) * (smallest / ASPECT_RANGE[1] + rules.gap_px)
    if min(usable_w, usable_h) < smallest / ASPECT_RANGE[1] or need > 0.9 * usable_w * usable_h:
        raise ValueError(
            f"{n} shapes of at least {smallest:.0f} px cannot fit a "
            f"{canvas.width}x{canvas.height} canvas with a {margin:.1f} px margin; "
            "use fewer shapes or a larger canvas"
        )


def _candidate(rng: random.Random, shape_id: str, shape_type: str, color: RGB,
               sizes: tuple[float, float], canvas: Canvas, margin: float,
               ) -> tuple[Shape, tuple[float, float, float, float]] | None:
    longer = rng.uniform(*sizes)
    ar = sample_aspect(rng, shape_type)
    w, h = (longer, longer / ar) if ar >= 1 else (longer * ar, longer)
    rotation = float(rng.randrange(360)) if shape_type in ROTATABLE else 0.0
    probe = Shape(id=shape_id, type=shape_type, bbox=BBox(0.0, 0.0, w, h), fill=color,
                  rotation=rotation)
    x0, y0, x1, y1 = shape_bounds(probe)
    free_x = canvas.width - 2 * margin - (x1 - x0)
    free_y = canvas.height - 2 * margin - (y1 - y0)
    if free_x < 0 or free_y < 0:
        return None
    # Shift so the placed bounds start at margin + a uniform offset.
    dx = margin + rng.uniform(0.0, free_x) - x0
    dy = margin + rng.uniform(0.0, free_y) - y0
    shape = Shape(id=shape_id, type=shape_type, bbox=BBox(dx, dy, w, h), fill=color,
                  rotation=rotation)
    # Moving the bbox moves the outline rigidly: shift the probe's bounds instead of
    # flattening the outline again.
    return shape, (x0 + dx, y0 + dy, x1 + dx, y1 + dy)


def _clear_of(box: tuple[float, float, float, float], boxes: np.ndarray, gap: float) -> bool:
    """True when ``box`` keeps at least ``gap`` px (Euclidean, between axis-aligned boxes)
    from every row ``(x0, y0, x1, y1)`` of ``boxes``. Vectorised: scenes hold up to 60."""
    if len(boxes) == 0:
        return True
    dx = np.maximum(np.maximum(boxes[:, 0] - box[2], box[0] - boxes[:, 2]), 0.0)
    dy = np.maximum(np.maximum(boxes[:, 1] - box[3], box[1] - boxes[:, 3]), 0.0)
    return bool(np.hypot(dx, dy).min() >= gap)


def sample_shapes(rng: random.Random, canvas: Canvas, object_colors: Sequence[RGB],
                  count_range: int | tuple[int, int] = 3, *,
                  shape_types: Sequence[str] = SHAPE_TYPES,
                  occupied: Sequence[tuple[float, float, float, float]] = (),
                  id_prefix: str = "s", rules: PlacementRules = DEFAULT_RULES,
                  match: Callable[[str, RGB], bool] | None = None,
                  match_count: int = 0) -> list[Shape]:
    """Draw shapes that follow the placement rules (see the module docstring).

    ``occupied`` holds extra ``(x0, y0, x1, y1)`` boxes (legend keys, tally strips) that
    shapes must also keep ``rules.gap_px`` away from. With ``match`` (a predicate on
    ``(type, color)``), exactly ``match_count`` shapes satisfy it, at random positions in the
    drawing order (counting tasks draw the count first, then the scene). Returns shapes with
    ids ``f"{id_prefix}{i}"`` in drawing order.
    """
    lo_hi = parse_count_range(count_range)
    colors = [check_color(c, "object color") for c in object_colors]
    types = [check_shape_type(t) for t in shape_types]
    sizes = size_range(canvas, lo_hi, rules.min_size_px)
    _check_inputs(canvas, colors, types, lo_hi, sizes, rules)
    margin = rules.edge_margin * canvas.shorter_side
    n = rng.randint(*lo_hi)
    cap = max(2, math.ceil(n / 3))
    matching: set[int] = set()
    if match is not None:
        if not isinstance(match_count, int) or not 0 <= match_count <= n:
            raise ValueError(f"match_count must be an int in [0, {n}], got {match_count!r}")
        matching = set(rng.sample(range(n), match_count))
    for _ in range(rules.scene_restarts):
        check_time()  # a slot's time limit holds within a long attempt (raises, never rejects)
        placed: list[Shape] = []
        boxes = np.empty((len(occupied) + n, 4))
        boxes[:len(occupied)] = np.asarray(occupied, dtype=float).reshape(-1, 4)
        n_boxes = len(occupied)
        per_color: Counter[RGB] = Counter()
        used: set[tuple[str, RGB]] = set()
        for i in range(n):
            combos = [(t, c) for c in colors if per_color[c] < cap for t in types
                      if (t, c) not in used]
            if match is not None:
                combos = [tc for tc in combos if match(*tc) == (i in matching)]
                if not combos:
                    raise ValueError(f"no (type, color) left for shape {i} under the quota of "
                                     f"{match_count} matching shapes out of {n}")
            shape = None
            for _ in range(rules.tries_per_shape):
                shape_type, color = combos[rng.randrange(len(combos))]
                found = _candidate(rng, f"{id_prefix}{i}", shape_type, color, sizes, canvas,
                                   margin)
                if found is None:
                    continue
                shape, box = found
                if _clear_of(box, boxes[:n_boxes], rules.gap_px):
                    break
                shape = None
            if shape is None:
                break
            placed.append(shape)
            boxes[n_boxes] = box
            n_boxes += 1
            per_color[shape.fill] += 1
            used.add((shape.type, shape.fill))
        else:
            return placed
    raise SceneSamplingError(
        f"could not place {n} shapes on a {canvas.width}x{canvas.height} canvas after "
        f"{rules.scene_restarts} restarts of {rules.tries_per_shape} tries per shape"
    )


def sample_scene(rng: random.Random, canvas: Canvas, background: Background,
                 object_colors: Sequence[RGB], count_range: int | tuple[int, int] = 3, *,
                 shape_types: Sequence[str] = SHAPE_TYPES,
                 rules: PlacementRules = DEFAULT_RULES) -> Scene:
    """A random :class:`Scene` on ``canvas`` with ``background`` and rule-abiding shapes.

    Raises ``ValueError`` for impossible requests (too many shapes for the canvas or the
    (type, color) combinations) and :class:`SceneSamplingError` when bounded tries run out.
    """
    shapes = sample_shapes(rng, canvas, object_colors, count_range, shape_types=shape_types,
                           rules=rules)
    return Scene(canvas=canvas, background=background, elements=tuple(shapes))
