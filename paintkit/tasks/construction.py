"""Construction: draw a new element (a filled circle, a line or a filled polygon) of a stated
color at stated positions, on top of or beneath the existing shapes.

Positions are given either all as named points (control points of shapes, phrased as in
:mod:`paintkit.language.points`, or the 9 canvas points) or all as whole-pixel coordinates
(50/50, see :mod:`paintkit.edits.construction_points`). Modes:

- ``circle``: a center and a point on the circumference, the two ends of a diameter, or a
  center and a whole-pixel radius (a third each) -> a ``Shape(type="circle")`` with a square
  bbox, radius 5-35% of the shorter canvas side, fully on the canvas;
- ``line``: two points at least 15% of the shorter side apart, painted with a round brush of
  a stated whole-pixel diameter (0.5-2% of the canvas width, at least 3 px) -> a ``Line``;
- ``polygon``: 3-5 vertices listed in order around their centroid (so the polygon is simple)
  -> a filled ``Polygon``; vertices at least 5% of the shorter side apart, none within 3% of
  the line through its neighbours, area at least 2% of the canvas.

The color is a palette color other than the background and stripe colors, one no shape
uses where there is one, always given as ``#RRGGBB``: with its name ("tan (#CBAA85)", 80%)
or alone (20%). The answer is the scene
re-rendered with the new element (exact). A seed is rejected when no valid positions are
found in a bounded number of draws or when less than 5% of the new element (and under 50 px)
would be visible.
"""

from __future__ import annotations

import math

import numpy as np

from paintkit.colors import rgb_to_hex
from paintkit.edits.construction_points import POSITIONS, PointSource, spaced_points
from paintkit.language.phrases import COORDINATE_NOTE, color_code_phrase, join_words, layer_phrase
from paintkit.renderers import render
from paintkit.sampling.condition import condition_scene
from paintkit.scene import BBox, Line, Polygon, Shape
from paintkit.shapes.geometry import polygon_signed_area
from paintkit.tasks.base import Problem, TaskSpec, geometric_min_edit, start

SPEC = TaskSpec(
    name="construction",
    category="structural_manipulation",
    modes=("circle", "line", "polygon"),
    parameters={
        "positions": "all named points (shape control points or canvas points) or all "
                     "whole-pixel coordinates (50/50)",
        "circle": "center + circumference point, diameter ends, or center + whole-px radius; "
                  "radius 5-35% of the shorter canvas side, circle inside the canvas",
        "line": "two points >= 15% of the shorter side apart; round brush, whole-px diameter "
                "0.5-2% of the canvas width (>= 3 px)",
        "polygon": "3-5 vertices in order around their centroid; area >= 2% of the canvas",
        "color": "a palette color other than the background / stripe colors; stated as name "
                 "and #RRGGBB (80%) or #RRGGBB alone (20%)",
        "on_top": "the new element goes on top of (50%) or beneath the existing shapes",
    },
)
CIRCLE_GIVENS = ("center_point", "diameter", "center_radius")
RADIUS_RANGE = (0.05, 0.35)  # fractions of the shorter canvas side
LINE_MIN_LENGTH = 0.15
BRUSH_RANGE = (0.005, 0.02)  # fractions of the canvas width
MIN_BRUSH_PX = 3
POLYGON_VERTICES = (3, 5)
POLYGON_MIN_SPACING = 0.05
POLYGON_MIN_TURN = 0.03  # a vertex's distance from the line through its neighbours
POLYGON_MIN_AREA = 0.02  # fraction of the canvas area
HEX_PROBABILITY = 0.2
DRAWS = 40
NEW_ID = "new"


def _circle_inside(center, r, canvas) -> bool:
    x, y = center
    return r <= x <= canvas.width - r and r <= y <= canvas.height - r


def _circle(ctx, source: PointSource, color, color_text: str, canvas):
    rng = ctx.rng
    short = canvas.shorter_side
    r_lo, r_hi = RADIUS_RANGE[0] * short, RADIUS_RANGE[1] * short
    given = rng.choice(CIRCLE_GIVENS)
    for _ in range(DRAWS):
        if given == "center_radius":
            center = source.draw(rng)
            room = min(center.xy[0], canvas.width - center.xy[0], center.xy[1],
                       canvas.height - center.xy[1], r_hi)
            if room < r_lo:
                continue
            r = rng.randint(math.ceil(r_lo), math.floor(room))
            points, xy = [center], center.xy
            text = f"Draw a filled circle in {color_text} of radius {r} pixels centered on {center.phrase}."
        else:
            a, b = source.draw(rng), source.draw(rng)
            d = math.dist(a.xy, b.xy)
            if given == "center_point":
                xy, r = a.xy, d
                text = (f"Draw a filled circle in {color_text} centered on {a.phrase} whose "
                        f"edge passes through {b.phrase}.")
            else:
                xy, r = ((a.xy[0] + b.xy[0]) / 2, (a.xy[1] + b.xy[1]) / 2), d / 2
                text = (f"Draw a filled circle in {color_text} with {a.phrase} and {b.phrase} "
                        f"as the two ends of a diameter.")
            points = [a, b]
        if r_lo <= r <= r_hi and _circle_inside(xy, r, canvas):
            break
    else:
        raise ctx.reject(f"no {given} circle of radius {r_lo:.0f}-{r_hi:.0f} px fits")
    element = Shape(id=NEW_ID, type="circle", bbox=BBox(xy[0] - r, xy[1] - r, 2 * r, 2 * r),
                    fill=color)
    return element, points, text, {"given": given, "center": list(xy), "radius": r}, math.pi * r * r


def _line(ctx, source: PointSource, color, color_text: str, canvas):
    rng = ctx.rng
    lo = max(MIN_BRUSH_PX, round(BRUSH_RANGE[0] * canvas.width))
    width = rng.randint(lo, max(lo, round(BRUSH_RANGE[1] * canvas.width)))
    points = spaced_points(rng, source, 2, LINE_MIN_LENGTH * canvas.shorter_side, DRAWS)
    if points is None:
        raise ctx.reject("no two points far enough apart for a line")
    a, b = points
    text = (f"Draw a straight line in {color_text} from {a.phrase} to {b.phrase} with a round brush "
            f"{width} pixels in diameter: it covers every point within {width / 2:g} pixels of "
            f"the segment between them, with round ends.")
    element = Line(id=NEW_ID, start=a.xy, end=b.xy, color=color, width=width)
    area = math.dist(a.xy, b.xy) * width + math.pi * width * width / 4
    return element, points, text, {"width": width}, area


def _turn_ok(pts, least: float) -> bool:
    n = len(pts)
    for i in range(n):
        (ax, ay), (bx, by), (cx, cy) = pts[i - 1], pts[i], pts[(i + 1) % n]
        base = math.hypot(cx - ax, cy - ay)
        if base == 0 or abs((cx - ax) * (by - ay) - (cy - ay) * (bx - ax)) / base < least:
            return False
    return True


def _polygon(ctx, source: PointSource, color, color_text: str, canvas):
    rng = ctx.rng
    short = canvas.shorter_side
    k = rng.randint(*POLYGON_VERTICES)
    for _ in range(DRAWS // 4):
        points = spaced_points(rng, source, k, POLYGON_MIN_SPACING * short, DRAWS)
        if points is None:
            continue
        cx = sum(p.xy[0] for p in points) / k
        cy = sum(p.xy[1] for p in points) / k
        points.sort(key=lambda p: math.atan2(p.xy[1] - cy, p.xy[0] - cx))
        xy = [p.xy for p in points]
        area = abs(polygon_signed_area(np.asarray(xy, np.float64)))
        if area >= POLYGON_MIN_AREA * canvas.width * canvas.height and \
                _turn_ok(xy, POLYGON_MIN_TURN * short):
            break
    else:
        raise ctx.reject(f"no well-shaped {k}-vertex polygon found")
    text = (f"Draw a filled polygon in {color_text} whose {k} vertices, in order around it, are "
            f"{join_words([p.phrase for p in points])}.")
    element = Polygon(id=NEW_ID, points=tuple(xy), fill=color)
    return element, points, text, {"vertex_count": k}, area


BUILDERS = {"circle": _circle, "line": _line, "polygon": _polygon}


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    sampled = condition_scene(ctx.rng, ctx.condition, SPEC.counts)
    scene = sampled.scene
    rng = ctx.rng
    used = {s.fill for s in scene.shapes}
    unused = [c.rgb for c in sampled.colors.objects if c.rgb not in used]
    color = rng.choice(unused or [c.rgb for c in sampled.colors.objects])
    # Always the exact code; some instructions give the code alone, the rest name it too.
    color_text = rgb_to_hex(color) if rng.random() < HEX_PROBABILITY else color_code_phrase(color)
    positions = rng.choice(POSITIONS)
    source = PointSource(scene, positions)
    element, points, text, info, area = BUILDERS[ctx.mode](ctx, source, color, color_text,
                                                           scene.canvas)
    on_top = rng.random() < 0.5
    answer_scene = scene.with_elements(element, on_top=on_top)
    parts = [text, layer_phrase(on_top)]
    if positions == "coordinates":
        parts.append(COORDINATE_NOTE)
    return ctx.problem(
        render(scene), render(answer_scene), " ".join(parts), scene=scene,
        answer_scene=answer_scene, targets=(NEW_ID,), min_edit_pixels=geometric_min_edit(area),
        params={"positions": positions, "points": [list(p.xy) for p in points],
                "point_refs": [p.ref for p in points], "color": list(color),
                "color_text": color_text, "on_top": on_top, **info},
    )
