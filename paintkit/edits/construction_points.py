"""Points a construction instruction places a new element at: named or explicit.

A :class:`PointSource` draws points of one kind for a whole instruction (positions are
never mixed): ``"named"`` draws a control point of a random shape (intrinsic points only
where identifiable, see :func:`paintkit.language.points.named_points`, plus the 9
bounding-box points) or, with probability :data:`CANVAS_SHARE`, one of the 9 canvas points;
``"coordinates"`` draws a whole-pixel point at least 2% of the shorter side from every edge.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from paintkit.language.phrases import coordinate_phrase, describe_shape, point_on_canvas
from paintkit.language.points import named_points, point_phrase
from paintkit.scene import Point, Scene
from paintkit.shapes import canvas_points

POSITIONS: tuple[str, ...] = ("named", "coordinates")
CANVAS_SHARE = 0.2
COORDINATE_MARGIN = 0.02  # fraction of the shorter canvas side


@dataclass(frozen=True)
class StatedPoint:
    """A point as the instruction states it: canvas px, its words, and what it refers to
    (``{"shape": id or None, "point": name}`` for named points, None for coordinates)."""

    xy: Point
    phrase: str
    ref: dict[str, Any] | None


class PointSource:
    """Draws :class:`StatedPoint` s of one kind (``"named"`` or ``"coordinates"``) on
    ``scene``; ``ValueError`` for another kind."""

    def __init__(self, scene: Scene, positions: str) -> None:
        if positions not in POSITIONS:
            raise ValueError(f"unknown positions {positions!r}; allowed: {', '.join(POSITIONS)}")
        self.scene = scene
        self.positions = positions
        self._named: dict[str, dict[str, Point]] = {}

    def draw(self, rng: random.Random) -> StatedPoint:
        canvas = self.scene.canvas
        if self.positions == "coordinates":
            m = COORDINATE_MARGIN * canvas.shorter_side
            x = rng.randint(math.ceil(m), math.floor(canvas.width - m))
            y = rng.randint(math.ceil(m), math.floor(canvas.height - m))
            return StatedPoint((float(x), float(y)), coordinate_phrase((x, y)), None)
        shapes = self.scene.shapes
        if not shapes or rng.random() < CANVAS_SHARE:
            points = canvas_points(canvas)
            name = rng.choice(sorted(points))
            return StatedPoint(points[name], point_on_canvas(name), {"shape": None, "point": name})
        shape = rng.choice(shapes)
        points = self._named.get(shape.id)
        if points is None:
            points = self._named[shape.id] = named_points(shape)
        name = rng.choice(sorted(points))
        phrase = point_phrase(name, describe_shape(shape, shapes))
        return StatedPoint(points[name], phrase, {"shape": shape.id, "point": name})


def spaced_points(rng: random.Random, source: PointSource, count: int, min_spacing: float,
                  draws: int) -> list[StatedPoint] | None:
    """``count`` points from ``source``, pairwise at least ``min_spacing`` px apart and with
    distinct phrases; None when ``draws`` draws do not find them."""
    out: list[StatedPoint] = []
    for _ in range(draws):
        p = source.draw(rng)
        if all(q.phrase != p.phrase and math.dist(q.xy, p.xy) >= min_spacing for q in out):
            out.append(p)
            if len(out) == count:
                return out
    return None
