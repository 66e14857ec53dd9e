"""Points an instruction may name on a shape, and how it names them.

An intrinsic point (``"apex"``, ``"tip"``) is named only while it is identifiable: for a
shape that is rotated or otherwise transformed only the orientation-free ones
(:data:`~paintkit.shapes.ORIENTATION_FREE_POINTS`) are offered, since "the left base
vertex" of a tilted triangle has no single reading. The 9 bounding-box points are always
offered and are phrased as points of the shape's (axis-aligned) bounding box.
"""

from __future__ import annotations

from random import Random

from paintkit.language.phrases import describe_shape
from paintkit.scene import IDENTITY, Point, Scene, Shape
from paintkit.shapes import (
    BBOX_POINT_NAMES,
    ORIENTATION_FREE_POINTS,
    bbox_points,
    canvas_points,
    control_points,
)


def is_upright(shape: Shape) -> bool:
    """True when the shape is drawn in its canonical orientation (no rotation or warp)."""
    return shape.rotation % 360 == 0 and shape.transform == IDENTITY


def named_points(shape: Shape, *, intrinsic: bool = True, bbox: bool = True) -> dict[str, Point]:
    """Point name -> ``(x, y)`` canvas px for the points an instruction may name on ``shape``."""
    out: dict[str, Point] = {}
    if intrinsic:
        points = control_points(shape)
        if not is_upright(shape):
            allowed = ORIENTATION_FREE_POINTS[shape.type]
            points = {k: v for k, v in points.items() if k in allowed}
        out.update(points)
    if bbox:
        out.update(bbox_points(shape))
    return out


def point_phrase(name: str, shape_phrase: str) -> str:
    """"the apex of the red triangle" / "the top-left corner of the red triangle's
    bounding box"."""
    if name in BBOX_POINT_NAMES:
        box_name = "center" if name == "bounding-box center" else name
        return f"the {box_name} of {shape_phrase}'s bounding box"
    return f"the {name} of {shape_phrase}"


def own_point_phrase(name: str) -> str:
    """"its apex" / "the top-left corner of its bounding box"."""
    if name in BBOX_POINT_NAMES:
        box_name = "center" if name == "bounding-box center" else name
        return f"the {box_name} of its bounding box"
    return f"its {name}"


REFERENCE_SOURCES: tuple[str, ...] = ("shape", "canvas")


def reference_point(rng: Random, scene: Scene, source: str, exclude: str | None = None
                    ) -> tuple[Point, str, dict[str, str | None]]:
    """A random named reference point: of a shape other than ``exclude`` (``source="shape"``)
    or of the canvas (``source="canvas"``).

    Returns ``(point, phrase, info)``: canvas px, the instruction's words for it ("the apex
    of the red triangle", "the top-left corner of the canvas") and JSON-ready
    ``{"reference_shape": id or None, "reference_point": name}``. ``ValueError`` for an
    unknown ``source`` or when the scene has no other shape.
    """
    if source == "canvas":
        points = canvas_points(scene.canvas)
        name = rng.choice(sorted(points))
        return points[name], f"the {name}", {"reference_shape": None, "reference_point": name}
    if source != "shape":
        raise ValueError(f"unknown reference source {source!r}; allowed: {', '.join(REFERENCE_SOURCES)}")
    others = [s for s in scene.shapes if s.id != exclude]
    if not others:
        raise ValueError("the scene has no other shape to take a reference point from")
    shape = rng.choice(others)
    points = named_points(shape)
    name = rng.choice(sorted(points))
    phrase = point_phrase(name, describe_shape(shape, scene.shapes))
    return points[name], phrase, {"reference_shape": shape.id, "reference_point": name}
