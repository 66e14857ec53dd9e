"""Canonical geometry of the 12 PaintBench shapes in the unit box ``[0, 1]^2`` (y down).

Each :class:`ShapeDesign` holds the outline as contours of pieces (vertices and arcs, see
:mod:`paintkit.shapes.flatten`) whose tight bounds are exactly the unit box, and the shape's
named intrinsic control points in the same coordinates. Outer contours run clockwise on
screen (positive shoelace area with y down); the ring's hole runs the other way, so the
nonzero winding rule fills exactly the annulus.

Point names describe the shape in its canonical orientation (before rotation and transform):
"top tip" of a star is the tip that points up when the star is unrotated, and stays that same
tip when the star is turned. Hexagon vertices are named by their angle as on a protractor,
counterclockwise from the 3 o'clock direction ("90-degree vertex" is the top one).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from paintkit.scene import SHAPE_TYPES
from paintkit.shapes.catalog import ASPECT_FREE
from paintkit.shapes.flatten import Arc, Contour, contour_bounds, map_contour
from paintkit.shapes.lobed import cloud_design, heart_design

Point = tuple[float, float]

RING_INNER_RATIO = 0.6  # inner radius / outer radius, both axes
ARROW_SHAFT = (0.3, 0.7)  # shaft spans this y range of the unit box
ARROW_HEAD_START = 0.55  # x where the head begins
CROSS_ARM = (1.0 / 3.0, 2.0 / 3.0)  # each arm spans the middle third
STAR_INNER_RATIO = math.cos(math.radians(72)) / math.cos(math.radians(36))  # regular pentagram
TWO_PI = 2.0 * math.pi


@dataclass(frozen=True)
class ShapeDesign:
    """Outline and named points of one shape type in the unit box.

    ``contours``: tuple of contours (pieces in unit-box coordinates); ``points``: name ->
    ``(x, y)`` in unit-box coordinates; ``aspect``: canonical width / height for fixed-ratio
    shapes, ``None`` for aspect-ratio-free ones.
    """

    contours: tuple[Contour, ...]
    points: Mapping[str, Point]
    aspect: float | None


def _normalised(contours: tuple[Contour, ...], points: dict[str, Point]) -> ShapeDesign:
    """Map a design-frame shape so its tight bounds become the unit box; keep its aspect."""
    x0, y0, x1, y1 = contour_bounds(contours)
    w, h = x1 - x0, y1 - y0
    out = tuple(map_contour(c, x0, y0, 1.0 / w, 1.0 / h) for c in contours)
    pts = {
        name: (0.5, 0.5) if math.isnan(p[0]) else ((p[0] - x0) / w, (p[1] - y0) / h)
        for name, p in points.items()
    }
    return ShapeDesign(out, MappingProxyType(pts), w / h)


def _polygon(points: dict[str, Point], *vertices: Point, aspect: float | None) -> ShapeDesign:
    return ShapeDesign(((*vertices,),), MappingProxyType(points), aspect)


def _circle() -> ShapeDesign:
    contour = (Arc(0.5, 0.5, 0.5, 0.5, 0.0, TWO_PI),)
    points = {"center": (0.5, 0.5), "top point": (0.5, 0.0), "right point": (1.0, 0.5),
              "bottom point": (0.5, 1.0), "left point": (0.0, 0.5)}
    return ShapeDesign((contour,), MappingProxyType(points), 1.0)


def _ring() -> ShapeDesign:
    k = RING_INNER_RATIO * 0.5
    outer = (Arc(0.5, 0.5, 0.5, 0.5, 0.0, TWO_PI),)
    inner = (Arc(0.5, 0.5, k, k, TWO_PI, 0.0),)  # opposite direction: a hole
    points = {"center": (0.5, 0.5),
              "outer top point": (0.5, 0.0), "outer right point": (1.0, 0.5),
              "outer bottom point": (0.5, 1.0), "outer left point": (0.0, 0.5),
              "inner top point": (0.5, 0.5 - k), "inner right point": (0.5 + k, 0.5),
              "inner bottom point": (0.5, 0.5 + k), "inner left point": (0.5 - k, 0.5)}
    return ShapeDesign((outer, inner), MappingProxyType(points), None)


def _semicircle() -> ShapeDesign:
    contour = (Arc(0.5, 1.0, 0.5, 1.0, math.pi, TWO_PI),)  # dome up, diameter at the bottom
    points = {"arc midpoint": (0.5, 0.0), "diameter midpoint": (0.5, 1.0),
              "left diameter end": (0.0, 1.0), "right diameter end": (1.0, 1.0)}
    return ShapeDesign((contour,), MappingProxyType(points), 2.0)


def _rectangle() -> ShapeDesign:
    points = {"center": (0.5, 0.5), "top-left vertex": (0.0, 0.0),
              "top-right vertex": (1.0, 0.0), "bottom-right vertex": (1.0, 1.0),
              "bottom-left vertex": (0.0, 1.0)}
    return _polygon(points, (0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), aspect=None)


def _diamond() -> ShapeDesign:
    points = {"center": (0.5, 0.5), "top vertex": (0.5, 0.0), "right vertex": (1.0, 0.5),
              "bottom vertex": (0.5, 1.0), "left vertex": (0.0, 0.5)}
    return _polygon(points, (0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5), aspect=None)


def _triangle() -> ShapeDesign:
    # Isosceles, base as long as the height: the apex stays identifiable after rotation.
    points = {"apex": (0.5, 0.0), "left base vertex": (0.0, 1.0),
              "right base vertex": (1.0, 1.0), "base midpoint": (0.5, 1.0),
              "centroid": (0.5, 2.0 / 3.0), "left side midpoint": (0.25, 0.5),
              "right side midpoint": (0.75, 0.5)}
    return _polygon(points, (0.5, 0.0), (1.0, 1.0), (0.0, 1.0), aspect=1.0)


def _arrow() -> ShapeDesign:
    y0, y1 = ARROW_SHAFT
    hx = ARROW_HEAD_START
    # Pointing right; "left"/"right" barb as seen looking along the arrow.
    points = {"tip": (1.0, 0.5), "tail midpoint": (0.0, 0.5), "center": (0.5, 0.5),
              "left barb tip": (hx, 0.0), "right barb tip": (hx, 1.0)}
    return _polygon(points, (0.0, y0), (hx, y0), (hx, 0.0), (1.0, 0.5), (hx, 1.0), (hx, y1),
                    (0.0, y1), aspect=None)


def _cross() -> ShapeDesign:
    a, b = CROSS_ARM
    m = 0.5
    points = {"center": (m, m), "top arm end": (m, 0.0), "right arm end": (1.0, m),
              "bottom arm end": (m, 1.0), "left arm end": (0.0, m)}
    return _polygon(points, (a, 0.0), (b, 0.0), (b, a), (1.0, a), (1.0, b), (b, b), (b, 1.0),
                    (a, 1.0), (a, b), (0.0, b), (0.0, a), (a, a), aspect=None)


def _hexagon() -> ShapeDesign:
    # Pointy top: vertices every 60 degrees starting straight up, clockwise on screen.
    vertices = []
    points: dict[str, Point] = {"center": (0.0, 0.0)}
    for k in range(6):
        alpha = math.radians(60 * k)  # clockwise from up
        v = (math.sin(alpha), -math.cos(alpha))
        vertices.append(v)
        points[f"{(90 - 60 * k) % 360}-degree vertex"] = v
    return _normalised(((*vertices,),), points)


def _star() -> ShapeDesign:
    tip_names = ("top tip", "upper-right tip", "lower-right tip", "lower-left tip",
                 "upper-left tip")
    vertices = []
    points: dict[str, Point] = {"center": (0.0, 0.0)}
    for k in range(10):
        alpha = math.radians(36 * k)  # clockwise from up
        rho = 1.0 if k % 2 == 0 else STAR_INNER_RATIO
        v = (rho * math.sin(alpha), -rho * math.cos(alpha))
        vertices.append(v)
        if k % 2 == 0:
            points[tip_names[k // 2]] = v
    return _normalised(((*vertices,),), points)


def _cloud() -> ShapeDesign:
    contour, points = cloud_design()
    return _normalised((contour,), points)


def _heart() -> ShapeDesign:
    contour, points = heart_design()
    return _normalised((contour,), points)


_BUILDERS = {
    "circle": _circle, "rectangle": _rectangle, "cloud": _cloud, "hexagon": _hexagon,
    "triangle": _triangle, "ring": _ring, "arrow": _arrow, "heart": _heart, "star": _star,
    "semicircle": _semicircle, "cross": _cross, "diamond": _diamond,
}

DESIGNS: Mapping[str, ShapeDesign] = MappingProxyType({t: _BUILDERS[t]() for t in SHAPE_TYPES})

# Canonical width / height of every fixed-ratio shape (the types not in ASPECT_FREE); the
# scene sampler draws the longer side and derives the other from this.
CANONICAL_ASPECT: Mapping[str, float] = MappingProxyType(
    {t: d.aspect for t, d in DESIGNS.items() if t not in ASPECT_FREE and d.aspect is not None}
)
