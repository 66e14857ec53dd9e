"""The 12 PaintBench shapes: constraints, outlines and named control points.

- :mod:`~paintkit.shapes.catalog`: rotatable / aspect-ratio-free flags;
- :mod:`~paintkit.shapes.designs`: canonical geometry in the unit box, canonical aspects;
- :mod:`~paintkit.shapes.flatten`: adaptive arc flattening (chord error < 1/256 px);
- :mod:`~paintkit.shapes.outlines`: outlines in the unit box and on the canvas;
- :mod:`~paintkit.shapes.strokes`: stroke regions (round joins and caps) and line capsules;
- :mod:`~paintkit.shapes.geometry`: bounds and area of placed shapes;
- :mod:`~paintkit.shapes.named_points`: intrinsic, bounding-box and canvas points.
"""

from paintkit.shapes.catalog import ASPECT_FREE, NEAR_SQUARE_EXCLUDED, ROTATABLE, check_shape_type
from paintkit.shapes.designs import CANONICAL_ASPECT
from paintkit.shapes.flatten import DEFAULT_TOLERANCE
from paintkit.shapes.geometry import outline_area, outline_bounds, shape_area, shape_bounds
from paintkit.shapes.named_points import (
    BBOX_POINT_NAMES,
    CANVAS_POINT_NAMES,
    CONTROL_POINT_NAMES,
    ORIENTATION_FREE_POINTS,
    bbox_points,
    box_points,
    canvas_points,
    control_points,
)
from paintkit.shapes.outlines import shape_outline, transform_points, unit_outline
from paintkit.shapes.strokes import capsule_outline, stroke_outline

__all__ = [
    "ASPECT_FREE", "BBOX_POINT_NAMES", "CANONICAL_ASPECT", "CANVAS_POINT_NAMES",
    "CONTROL_POINT_NAMES", "DEFAULT_TOLERANCE", "NEAR_SQUARE_EXCLUDED",
    "ORIENTATION_FREE_POINTS", "ROTATABLE", "bbox_points", "box_points", "canvas_points",
    "capsule_outline",
    "check_shape_type", "control_points", "outline_area", "outline_bounds", "shape_area",
    "shape_bounds", "shape_outline", "stroke_outline", "transform_points", "unit_outline",
]
