"""The 12 PaintBench shapes: constraints, outlines and named control points."""

from paintkit.shapes.catalog import ASPECT_FREE, NEAR_SQUARE_EXCLUDED, ROTATABLE, check_shape_type

__all__ = ["ASPECT_FREE", "NEAR_SQUARE_EXCLUDED", "ROTATABLE", "check_shape_type"]
