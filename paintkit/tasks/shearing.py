"""Shearing: shear one shape horizontally or vertically, keeping an edge or the center line
of its axis-aligned bounding box fixed.

Convention (stated in every instruction): in a horizontal shear every point moves
horizontally by ``amount`` times its vertical distance from the fixed line (so with the top
edge fixed and amount 35%, the bottom edge of the bounding box shifts by 35% of the
bounding-box height); a vertical shear is the same with the axes swapped. With a center line
fixed the two halves move in opposite directions and each far edge shifts by half the amount
of the box side. ``amount`` is a whole percent in [20, 80] of the perpendicular side.

Parameters the answer depends on: the target, ``axis``, ``fixed`` (which line) and its
canvas coordinate ``fixed_at``, ``percent``, the signed shear factor ``factor`` (horizontal:
``x' = x + factor * (y - fixed_at)``; vertical: ``y' = y + factor * (x - fixed_at)``), and
whether the sheared shape goes on top of or beneath overlapping shapes.
"""

from __future__ import annotations

from paintkit.edits.geometric import affine_edit_problem, shear_about
from paintkit.language.phrases import describe_shape, percent
from paintkit.sampling.condition import condition_scene
from paintkit.shapes import shape_bounds
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="shearing",
    category="geometric_transformation",
    parameters={
        "axis": "horizontal or vertical (50/50)",
        "fixed": "horizontal shear: the top edge, bottom edge or horizontal center line of the "
                 "bounding box; vertical shear: the left edge, right edge or vertical center line",
        "percent": "whole percent in [20, 80] of the perpendicular bounding-box side",
        "direction": "right/left (horizontal) or down/up (vertical), 50/50",
        "on_top": "the sheared shape goes on top of (50%) or beneath overlapping shapes",
    },
)
PERCENT_RANGE = (20, 80)
AXES: tuple[str, ...] = ("horizontal", "vertical")
# Per axis: fixed line -> (the side whose points move in the stated direction, the far edge
# of that side, or None for a center line); the moving direction pairs; the box side.
FIXED_LINES: dict[str, dict[str, tuple[str, str]]] = {
    "horizontal": {"top edge": ("below", "bottom edge"), "bottom edge": ("above", "top edge"),
                   "horizontal center line": ("below", "bottom edge")},
    "vertical": {"left edge": ("to the right of", "right edge"),
                 "right edge": ("to the left of", "left edge"),
                 "vertical center line": ("to the right of", "right edge")},
}
DIRECTIONS = {"horizontal": ("right", "left"), "vertical": ("down", "up")}
SIDE = {"horizontal": "height", "vertical": "width"}
OPPOSITE = {"below": "above", "to the right of": "to the left of", "right": "left", "left": "right",
            "down": "up", "up": "down", "bottom edge": "top edge", "right edge": "left edge"}
POSITIVE_SIDE = {"below", "to the right of"}  # points there have y - fixed > 0 (x - fixed > 0)
POSITIVE_DIRECTION = {"right", "down"}


def _fixed_coordinate(axis, fixed, bounds):
    x0, y0, x1, y1 = bounds
    if axis == "horizontal":
        return {"top edge": y0, "bottom edge": y1, "horizontal center line": (y0 + y1) / 2}[fixed]
    return {"left edge": x0, "right edge": x1, "vertical center line": (x0 + x1) / 2}[fixed]


def describe_shear(axis: str, fixed: str, direction: str, pct: int) -> str:
    """The words after "Shear the red star ", e.g. "horizontally, keeping the top edge of its
    bounding box fixed: every point moves right by 35% of its distance below that edge, so the
    bottom edge of its bounding box shifts right by 35% of the bounding-box height"."""
    side, far = FIXED_LINES[axis][fixed]
    box_side = f"the bounding-box {SIDE[axis]}"
    head = f"{axis}ly, keeping the {fixed} of its bounding box fixed: "
    if "center" not in fixed:
        return (head + f"every point moves {direction} by {percent(pct)} of its distance {side} "
                f"that edge, so the {far} of its bounding box shifts {direction} by {percent(pct)} "
                f"of {box_side}")
    back = OPPOSITE[direction]
    return (head + f"every point {side} that line moves {direction}, and every point "
            f"{OPPOSITE[side]} it moves {back}, by {percent(pct)} of its distance from the line, "
            f"so the {far} of its bounding box shifts {direction} and the {OPPOSITE[far]} shifts "
            f"{back}, each by {percent(pct / 2)} of {box_side}")


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    rng = ctx.rng
    scene = condition_scene(rng, ctx.condition, SPEC.counts).scene
    target = rng.choice(scene.shapes)
    phrase = describe_shape(target, scene.shapes)
    axis = rng.choice(AXES)
    fixed = rng.choice(sorted(FIXED_LINES[axis]))
    direction = rng.choice(DIRECTIONS[axis])
    pct = rng.randint(*PERCENT_RANGE)
    side, _ = FIXED_LINES[axis][fixed]
    sign = 1 if (side in POSITIVE_SIDE) == (direction in POSITIVE_DIRECTION) else -1
    factor = sign * pct / 100
    bounds = shape_bounds(target)
    fixed_at = _fixed_coordinate(axis, fixed, bounds)
    sentence = f"Shear {phrase} {describe_shear(axis, fixed, direction, pct)}."
    params = {"axis": axis, "fixed": fixed, "fixed_at": fixed_at, "direction": direction,
              "percent": pct, "factor": factor, "bounds": list(bounds)}
    return affine_edit_problem(ctx, scene, target, shear_about(axis, factor, fixed_at), sentence, params)
