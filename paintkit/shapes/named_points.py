"""Named control points: intrinsic ones per shape, bounding-box ones, canvas ones.

All points are ``(x, y)`` in canvas pixels (x right, y down; pixel edges at integers, so the
canvas spans ``[0, W] x [0, H]``). Names are plain English and unique across the three
families, so an instruction can quote any of them unambiguously:

- intrinsic points (:func:`control_points`) follow the shape through rotation and transform;
  their names describe the canonical, unrotated shape (see :mod:`paintkit.shapes.designs`);
- bounding-box points (:func:`bbox_points`) belong to the axis-aligned bounding box of the
  *placed* outline (after rotation and transform), as the paper's "axis-aligned
  bounding-box control points";
- canvas points (:func:`canvas_points`) are the canvas corners, edge midpoints and center.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from paintkit.scene import SHAPE_TYPES, Canvas, Shape, apply_affine
from paintkit.shapes.designs import DESIGNS
from paintkit.shapes.geometry import shape_bounds

Point = tuple[float, float]

# Intrinsic point names per shape type, in a stable order.
CONTROL_POINT_NAMES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {t: tuple(DESIGNS[t].points) for t in SHAPE_TYPES}
)

# Intrinsic points that stay identifiable whatever the shape's rotation (and reflection):
# safe to name in an instruction about a rotated shape.
ORIENTATION_FREE_POINTS: Mapping[str, frozenset[str]] = MappingProxyType({
    "circle": frozenset({"center"}),
    "rectangle": frozenset({"center"}),
    "cloud": frozenset({"center"}),
    "hexagon": frozenset({"center"}),
    "triangle": frozenset({"apex", "base midpoint", "centroid"}),
    "ring": frozenset({"center"}),
    "arrow": frozenset({"tip", "tail midpoint", "center"}),
    "heart": frozenset({"tip", "cleft"}),
    "star": frozenset({"center"}),
    "semicircle": frozenset({"arc midpoint", "diameter midpoint"}),
    "cross": frozenset({"center"}),
    "diamond": frozenset({"center"}),
})

# Unit-square position of each bounding-box / canvas point, row by row from the top left.
_NINE: tuple[tuple[str, float, float], ...] = (
    ("top-left corner", 0.0, 0.0),
    ("top edge midpoint", 0.5, 0.0),
    ("top-right corner", 1.0, 0.0),
    ("left edge midpoint", 0.0, 0.5),
    ("center", 0.5, 0.5),
    ("right edge midpoint", 1.0, 0.5),
    ("bottom-left corner", 0.0, 1.0),
    ("bottom edge midpoint", 0.5, 1.0),
    ("bottom-right corner", 1.0, 1.0),
)


def _bbox_name(name: str) -> str:
    return "bounding-box center" if name == "center" else name


BBOX_POINT_NAMES: tuple[str, ...] = tuple(_bbox_name(n) for n, _, _ in _NINE)
CANVAS_POINT_NAMES: tuple[str, ...] = tuple(
    "center of the canvas" if n == "center" else f"{n} of the canvas" for n, _, _ in _NINE
)


def control_points(shape: Shape) -> dict[str, Point]:
    """Intrinsic control points of ``shape``: name -> ``(x, y)`` canvas pixels.

    The canonical unit-box points mapped through ``shape.placement`` (bbox, rotation,
    transform). Names per type: :data:`CONTROL_POINT_NAMES`.
    """
    m = shape.placement
    return {name: apply_affine(m, p) for name, p in DESIGNS[shape.type].points.items()}


def bbox_points(shape: Shape) -> dict[str, Point]:
    """The 9 points of the axis-aligned bounding box of the placed outline.

    Corners, edge midpoints and ``"bounding-box center"`` of :func:`shape_bounds`, in
    canvas pixels; names: :data:`BBOX_POINT_NAMES`. For an unrotated, untransformed shape
    the box is ``shape.bbox``.
    """
    return box_points(shape_bounds(shape))


def box_points(bounds: tuple[float, float, float, float]) -> dict[str, Point]:
    """The 9 bounding-box points of the box ``(x0, y0, x1, y1)``, named as in
    :data:`BBOX_POINT_NAMES`."""
    x0, y0, x1, y1 = bounds
    if not (x1 >= x0 and y1 >= y0):
        raise ValueError(f"box must satisfy x0 <= x1 and y0 <= y1, got {bounds!r}")
    return {
        name: (x0 + u * (x1 - x0), y0 + v * (y1 - y0))
        for name, (_, u, v) in zip(BBOX_POINT_NAMES, _NINE, strict=True)
    }


def canvas_points(canvas: Canvas) -> dict[str, Point]:
    """The 9 canvas reference points (corners at pixel edges, e.g. bottom-right is
    ``(W, H)``; center ``(W / 2, H / 2)``); names: :data:`CANVAS_POINT_NAMES`."""
    return {
        name: (u * canvas.width, v * canvas.height)
        for name, (_, u, v) in zip(CANVAS_POINT_NAMES, _NINE, strict=True)
    }
