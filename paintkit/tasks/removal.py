"""Removal: delete shapes picked by an attribute (``attribute``) or by where one of their
named points lies (``location``); the area they leave shows the background.

- ``attribute``: remove every shape of a type ("every star"), of a color ("every red
  shape") or of both ("every red star"); inverted (30%), remove every shape that does *not*
  match. The criterion is drawn from the scene, and a seed is rejected unless at least one
  shape is removed and at least one is kept (so an inverted criterion never empties the
  canvas, nor removes nothing).
- ``location``: remove the shape whose named control point (intrinsic, orientation-free on
  turned shapes, or bounding-box) lies at a stated whole-pixel coordinate (the point rounded
  half up); inverted (30%), remove every shape except that one, which keeps exactly one
  shape. A seed is rejected when another shape's point of the same name lies within
  :data:`AMBIGUOUS_PX` of the stated coordinate, or when the scene has a single shape.

The answer is the scene re-rendered without the removed shapes (exact; shapes never
overlap in a sampled scene, so nothing they covered needs inventing). Parameters: the
criterion or the point name and coordinate, ``inverted``, and the removed / kept ids.
"""

from __future__ import annotations

import math

from paintkit.colors import describe_color
from paintkit.language.phrases import COORDINATE_NOTE, article, format_point
from paintkit.language.points import named_points
from paintkit.renderers import render
from paintkit.sampling.condition import condition_scene
from paintkit.scene import IDENTITY, Scene, Shape
from paintkit.shapes import BBOX_POINT_NAMES, bbox_points, control_points
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="removal",
    category="structural_manipulation",
    modes=("attribute", "location"),
    parameters={
        "attribute": "criterion: a shape type, a color or both (a third each), drawn from "
                     "the scene; inverted 30% (remove the shapes that do not match)",
        "location": "a named control point (intrinsic or bounding-box) of one shape at a "
                    "stated whole-pixel coordinate; inverted 30% (remove all the others)",
    },
)
INVERT_PROBABILITY = 0.3
CRITERIA = ("type", "color", "both")
AMBIGUOUS_PX = 8.0  # no other shape's same-named point may lie this close to the stated one
REMOVED_NOTE = "The uncovered area shows the background; every other shape stays as it is."


def _matches(shape: Shape, criterion: str, shape_type: str, color) -> bool:
    if criterion == "type":
        return shape.type == shape_type
    if criterion == "color":
        return shape.fill == color
    return shape.type == shape_type and shape.fill == color


def _attribute(ctx, scene: Scene):
    rng = ctx.rng
    pick = rng.choice(scene.shapes)
    criterion = rng.choice(CRITERIA)
    inverted = rng.random() < INVERT_PROBABILITY
    color_name = describe_color(pick.fill)
    matching = [s.id for s in scene.shapes if _matches(s, criterion, pick.type, pick.fill)]
    others = [s.id for s in scene.shapes if s.id not in matching]
    removed, kept = (others, matching) if inverted else (matching, others)
    if not removed or not kept:
        raise ctx.reject(f"criterion {criterion} would remove {len(removed)} and keep "
                         f"{len(kept)} shapes")
    what = {"type": f"{article(pick.type)} {pick.type}", "color": color_name,
            "both": f"{article(color_name)} {color_name} {pick.type}"}
    if inverted:
        sentence = f"Remove every shape that is not {what[criterion]}."
    else:
        sentence = {"type": f"Remove every {pick.type}.",
                    "color": f"Remove every {color_name} shape.",
                    "both": f"Remove every {color_name} {pick.type}."}[criterion]
    params = {"criterion": criterion, "inverted": inverted,
              "shape_type": pick.type if criterion != "color" else None,
              "color": list(pick.fill) if criterion != "type" else None,
              "color_name": color_name if criterion != "type" else None}
    return removed, kept, sentence, params


def _point_named(shape: Shape, name: str):
    if name in BBOX_POINT_NAMES:
        return bbox_points(shape)[name]
    return control_points(shape).get(name)


def _surely_far(shape: Shape, point) -> bool:
    """True when no point of ``shape`` can lie within AMBIGUOUS_PX of ``point``: an
    untransformed shape stays inside the circle around its bbox center through the bbox
    corners, whatever its rotation (a cheap test that skips flattening its outline)."""
    if shape.transform != IDENTITY:
        return False
    (cx, cy), b = shape.bbox.center, shape.bbox
    return math.hypot(point[0] - cx, point[1] - cy) > math.hypot(b.width, b.height) / 2 + AMBIGUOUS_PX


def _whose(name: str, xy: str) -> str:
    """"whose apex is at (412, 230)" / "whose bounding box has its top-left corner at ..."."""
    if name == "bounding-box center":
        return f"whose bounding-box center is at {xy}"
    if name in BBOX_POINT_NAMES:
        return f"whose bounding box has its {name} at {xy}"
    return f"whose {name} is at {xy}"


def _location(ctx, scene: Scene):
    rng = ctx.rng
    if len(scene.shapes) < 2:
        raise ctx.reject("location removal needs at least two shapes")
    target = rng.choice(scene.shapes)
    intrinsic = named_points(target, bbox=False)
    points = intrinsic if intrinsic and rng.random() < 0.5 else bbox_points(target)
    name = rng.choice(sorted(points))
    x, y = points[name]
    stated = (math.floor(x + 0.5), math.floor(y + 0.5))
    for other in scene.shapes:
        if other.id == target.id or _surely_far(other, stated):
            continue
        p = _point_named(other, name)
        if p is not None and math.hypot(p[0] - stated[0], p[1] - stated[1]) < AMBIGUOUS_PX:
            raise ctx.reject(f"{other.id}'s {name} is also near {stated}")
    inverted = rng.random() < INVERT_PROBABILITY
    others = [s.id for s in scene.shapes if s.id != target.id]
    removed, kept = (others, [target.id]) if inverted else ([target.id], others)
    whose = _whose(name, format_point(stated))
    sentence = f"Remove every shape except the one {whose}." if inverted else \
        f"Remove the shape {whose}."
    sentence += f" {COORDINATE_NOTE} The point's coordinates are rounded to the nearest pixel."
    params = {"point": name, "coordinate": list(stated), "exact_point": [x, y],
              "inverted": inverted, "located_shape": target.id}
    return removed, kept, sentence, params


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    scene = condition_scene(ctx.rng, ctx.condition, SPEC.counts).scene
    if ctx.mode == "attribute":
        removed, kept, sentence, info = _attribute(ctx, scene)
    else:
        removed, kept, sentence, info = _location(ctx, scene)
    answer_scene = scene.without(*removed)
    instruction = f"{sentence} {REMOVED_NOTE}"
    return ctx.problem(
        render(scene), render(answer_scene), instruction, scene=scene, answer_scene=answer_scene,
        targets=tuple(removed), params={**info, "removed": removed, "kept": kept},
    )
