"""Ordering: sort shapes of one type and color by size along the line they sit on.

The scene holds a *group* of ``ctx.count`` similar shapes (3 / 5 / 7 / 9, "ordering"
counts: one type, one color, one aspect ratio and one rotation, different sizes) whose
named control point (a bounding-box edge midpoint or center, or an orientation-free
intrinsic point such as "apex") lies on one horizontal or vertical line at evenly spaced
*anchor* positions, in a shuffled size order; plus 0-2 distractors of other (type, color)
combinations placed clear of the group's input and answer positions.

The instruction names the group, the control point, the line and the order ("ascending
from left to right"); the answer moves the shapes so the i-th anchor holds the i-th shape
in the requested order: the shapes swap places, the set of anchor positions is unchanged
and each shape keeps its size and orientation. Sizes are areas; consecutive sizes differ
by at least 15% in linear size (32% in area), and the input is never already in the
requested order.
"""

from __future__ import annotations

from dataclasses import replace

from paintkit.colors import describe_color
from paintkit.language.phrases import plural
from paintkit.language.points import named_points, own_point_phrase
from paintkit.renderers import render
from paintkit.sampling.condition import condition_background
from paintkit.sampling.shapes import GAP_PX, MIN_SIZE_PX, size_range
from paintkit.scene import SHAPE_TYPES, BBox, Canvas, Scene, Shape
from paintkit.scene_parts.placement import (
    clear_of,
    edge_margin,
    min_consecutive_ratio,
    moved,
    on_canvas,
    place_distractors,
    random_shape,
    size_ladder,
)
from paintkit.shapes import shape_area, shape_bounds
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="ordering",
    category="symbolic_reasoning",
    parameters={
        "line": "horizontal or vertical (the canvas's longer direction; either on a square "
                "canvas)",
        "control_point": "a bounding-box point on the line's axis (edge midpoints across it, "
                         "center) or an orientation-free intrinsic point",
        "direction": "ascending or descending size, left to right / top to bottom",
        "distractors": "0-2 shapes of other (type, color) combinations",
    },
    counts="ordering",
)
LINES: tuple[str, ...] = ("horizontal", "vertical")
DIRECTIONS: tuple[str, ...] = ("ascending", "descending")
LINEAR_RATIO = 1.15  # least linear size ratio between consecutive group shapes
MIN_AREA_RATIO = LINEAR_RATIO ** 2 * 0.999
BOX_POINTS = {"horizontal": ("top edge midpoint", "bounding-box center", "bottom edge midpoint"),
              "vertical": ("left edge midpoint", "bounding-box center", "right edge midpoint")}
MAX_DISTRACTORS = 2


def _line(rng, canvas: Canvas) -> str:
    if canvas.width == canvas.height:
        return rng.choice(LINES)
    return "horizontal" if canvas.width > canvas.height else "vertical"


def _point_name(rng, probe: Shape, line: str) -> str:
    intrinsic = sorted(named_points(probe, bbox=False))
    return rng.choice(list(BOX_POINTS[line]) + intrinsic)


def _arrangements(rng, n: int, direction: str) -> tuple[list[int], list[int]]:
    """(input, answer): the size index (0 = smallest) at each slot along the line."""
    answer = list(range(n)) if direction == "ascending" else list(range(n - 1, -1, -1))
    shuffled = answer[:]
    while shuffled == answer:
        rng.shuffle(shuffled)
    return shuffled, answer


def _layout(rng, canvas: Canvas, line: str, probe: Shape, point: tuple[float, float],
            ladder: list[float], slots: tuple[list[int], list[int]], n: int):
    """Scale of the smallest shape (px, longer side), anchor spacing, first anchor and
    line coordinate; ``None`` when the group cannot fit."""
    ax = 0 if line == "horizontal" else 1
    b = shape_bounds(probe)
    a_lo, a_hi = b[ax] - point[ax], b[ax + 2] - point[ax]  # along the line, per unit scale
    c_lo, c_hi = b[1 - ax] - point[1 - ax], b[3 - ax] - point[1 - ax]
    need = max(ladder[arr[j]] * a_hi - ladder[arr[j + 1]] * a_lo
               for arr in slots for j in range(n - 1))
    start_ext = min(ladder[arr[0]] * a_lo for arr in slots)
    end_ext = max(ladder[arr[-1]] * a_hi for arr in slots)
    m = edge_margin(canvas)
    length = (canvas.width, canvas.height)[ax] - 2 * m
    across = (canvas.height, canvas.width)[ax] - 2 * m
    gap = max(GAP_PX, 0.008 * canvas.shorter_side)
    top = ladder[-1]
    lo, hi = size_range(canvas, (n, n))
    s_lo = max(MIN_SIZE_PX, lo / 2)
    s_hi = min((length - (n - 1) * gap) / ((n - 1) * need + end_ext - start_ext),
               across / (top * (c_hi - c_lo)), hi / top)
    if s_hi < s_lo:
        return None
    s = rng.uniform(s_lo, s_hi)
    d_min = s * need + gap
    d_max = (length - s * (end_ext - start_ext)) / (n - 1)
    d = rng.uniform(d_min, d_min + 0.5 * max(0.0, d_max - d_min))
    u0_lo = m - s * start_ext
    u0_hi = m + length - s * end_ext - (n - 1) * d
    u0 = rng.uniform(u0_lo, max(u0_lo, u0_hi))
    v = rng.uniform(m - s * top * c_lo, max(m - s * top * c_lo, m + across - s * top * c_hi))
    return s, d, u0, v


def _placed(probe: Shape, shape_id: str, scale: float, point_name: str,
            point: tuple[float, float], anchor: tuple[float, float]) -> Shape:
    """``probe`` scaled by ``scale`` with its control point ``point_name`` (``point`` at unit
    scale) on ``anchor``. Outlines are flattened for their drawn size, so bounds-based points
    do not scale exactly: the shape is shifted once more by the measured residual."""
    w, h = probe.bbox.width * scale, probe.bbox.height * scale
    shape = replace(probe, id=shape_id,
                    bbox=BBox(anchor[0] - point[0] * scale, anchor[1] - point[1] * scale, w, h))
    x, y = named_points(shape)[point_name]
    return moved(shape, anchor[0] - x, anchor[1] - y)


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    rng = ctx.rng
    split, background = condition_background(rng, ctx.condition)
    canvas = Canvas(ctx.condition.width, ctx.condition.height)
    colors = [c.rgb for c in split.objects]
    n = ctx.count
    shape_type, color = rng.choice(SHAPE_TYPES), rng.choice(colors)
    probe = random_shape(rng, "probe", shape_type, color, 1.0)  # longer side 1 px
    line = _line(rng, canvas)
    point_name = _point_name(rng, probe, line)
    point = named_points(probe)[point_name]
    direction = rng.choice(DIRECTIONS)
    # Long groups get near-minimal steps: nine shapes span 1.15^8 ~ 3x already.
    ladder = size_ladder(rng, n, LINEAR_RATIO * 1.005, 1.08 if n <= 5 else 1.0)
    slots = _arrangements(rng, n, direction)
    fit = _layout(rng, canvas, line, probe, point, ladder, slots, n)
    if fit is None:
        raise ctx.reject(f"{n} distinct sizes do not fit along a {line} line")
    s, d, u0, v = fit
    anchors = [(u0 + j * d, v) if line == "horizontal" else (v, u0 + j * d) for j in range(n)]
    ids = [f"g{j}" for j in range(n)]  # by input slot
    id_of_size = {size: ids[j] for j, size in enumerate(slots[0])}
    before = [_placed(probe, ids[j], s * ladder[size], point_name, point, anchors[j])
              for j, size in enumerate(slots[0])]
    after = [_placed(probe, id_of_size[size], s * ladder[size], point_name, point,
                     anchors[j])
             for j, size in enumerate(slots[1])]
    boxes_before = [shape_bounds(e) for e in before]
    boxes_after = [shape_bounds(e) for e in after]
    for boxes in (boxes_before, boxes_after):
        if not all(on_canvas(bx, canvas) and clear_of(bx, boxes[:i]) for i, bx in enumerate(boxes)):
            raise ctx.reject("group shapes would overlap or leave the margin")
    areas = {e.id: shape_area(e) for e in before}
    if min_consecutive_ratio(list(areas.values())) < MIN_AREA_RATIO:
        raise ctx.reject("group sizes too close")
    combos = [(t, c) for t in SHAPE_TYPES for c in colors if (t, c) != (shape_type, color)]
    extra = place_distractors(rng, canvas, combos, rng.randint(0, MAX_DISTRACTORS),
                              size_range(canvas, (n, n)), boxes_before + boxes_after)
    if extra is None:
        raise ctx.reject("no room for the distractors")
    elements = before + extra
    rng.shuffle(elements)
    scene = Scene(canvas, background, tuple(elements))
    answer_scene = scene
    for shape in after:
        answer_scene = answer_scene.replace_element(shape.id, shape)

    names = plural(shape_type)
    group = f"{describe_color(color)} {names}"
    span = "from left to right" if line == "horizontal" else "from top to bottom"
    first_end = "left" if line == "horizontal" else "top"
    first = "smallest" if direction == "ascending" else "largest"
    at = "on the" if line == "horizontal" else "at the"
    instruction = (
        f"Each of the {n} {group} has {own_point_phrase(point_name)} on one {line} line. "
        f"Rearrange the {group} along that line in {direction} order of size (area) {span}, "
        f"{first} {at} {first_end}: they swap places, so those {n} points keep their "
        f"positions, and each shape keeps its size and orientation. Vacated areas show the "
        f"background."
    )
    return ctx.problem(
        render(scene), render(answer_scene), instruction, scene=scene, answer_scene=answer_scene,
        targets=tuple(ids),
        params={"line": line, "control_point": point_name, "direction": direction,
                "anchors": [list(a) for a in anchors], "input_order": ids,
                "answer_order": [e.id for e in after], "areas": [areas[i] for i in ids],
                "group_type": shape_type, "group_color": list(color),
                "distractors": [e.id for e in extra]},
    )
