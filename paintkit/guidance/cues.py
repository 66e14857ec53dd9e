"""Drawn cues that point at one shape: a ring around it or an arrow pointing at it.

Both are plain scene elements (polygons and a line), so they render exactly and appear in
the scene JSON and the SVG. Geometry, in canvas pixels, for a target whose bounds have
centre ``c`` and half-diagonal ``h``, on a canvas whose shorter side is ``S``:

- ring: a circle of radius ``h + gap`` about ``c`` (``gap = max(4, 0.012 S)``), drawn as
  a 96-gon outline of width ``w = max(3, 0.006 S)``;
- arrow: along a random unit direction ``u`` from ``c``, with ``b`` the distance at which
  that ray leaves the target's bounds: a triangular head whose tip is at ``c + (b + gap) u``
  and a shaft of width ``w`` from ``c + (b + gap + L) u`` to ``c + (b + gap + head) u``
  (``L = 0.12 S``, ``head = 4 w``).

:func:`place_cue` rejects a cue that leaves the canvas, touches another shape, or could be
read as marking another shape (another shape's centre inside the ring; another shape as
close to the arrow's tip as ``3 gap``).
"""

from __future__ import annotations

import math
import random

import numpy as np

from paintkit.renderers import render_mask
from paintkit.scene import BBox, Line, Polygon, Scene, Shape, Stroke
from paintkit.shapes import shape_bounds

CUES: tuple[str, ...] = ("ring", "arrow")
CUE_ID = "cue"  # ids of the cue's elements start with this
RING_SIDES = 96
ARROW_LENGTH = 0.12
ARROW_TRIES = 12


class NoCue(Exception):
    """No cue of this kind fits around this target (the seed moves on)."""


def _sizes(scene: Scene) -> tuple[float, float]:
    side = scene.canvas.shorter_side
    return max(4.0, 0.012 * side), max(3.0, 0.006 * side)


def _centre_and_reach(target: Shape) -> tuple[tuple[float, float], float]:
    x0, y0, x1, y1 = shape_bounds(target)
    return ((x0 + x1) / 2, (y0 + y1) / 2), math.hypot(x1 - x0, y1 - y0) / 2


def ring_elements(scene: Scene, target: Shape, color) -> tuple[Polygon, ...]:
    gap, width = _sizes(scene)
    (cx, cy), reach = _centre_and_reach(target)
    r = reach + gap
    t = np.arange(RING_SIDES) * (2 * math.pi / RING_SIDES)
    points = tuple(zip((cx + r * np.cos(t)).tolist(), (cy + r * np.sin(t)).tolist(), strict=True))
    return (Polygon(f"{CUE_ID}_ring", points, fill=None, stroke=Stroke(color, width), closed=True),)


def arrow_elements(scene: Scene, target: Shape, color, angle: float):
    gap, width = _sizes(scene)
    x0, y0, x1, y1 = shape_bounds(target)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ux, uy = math.cos(angle), math.sin(angle)
    head = 4 * width
    # where the ray from the centre leaves the target's bounds, then the gap
    leave = min((x1 - x0) / 2 / abs(ux) if abs(ux) > 1e-12 else math.inf,
                (y1 - y0) / 2 / abs(uy) if abs(uy) > 1e-12 else math.inf)
    tip = leave + gap
    tail = tip + ARROW_LENGTH * scene.canvas.shorter_side

    def at(d: float, side: float = 0.0) -> tuple[float, float]:
        return (cx + d * ux - side * uy, cy + d * uy + side * ux)

    shaft = Line(f"{CUE_ID}_shaft", at(tail), at(tip + head), color, width)
    arrowhead = Polygon(f"{CUE_ID}_head", (at(tip), at(tip + head, head * 0.6),
                                           at(tip + head, -head * 0.6)), fill=color)
    return shaft, arrowhead


def _on_canvas(scene: Scene, elements) -> bool:
    w, h = scene.canvas.width, scene.canvas.height
    pts = [p for e in elements for p in (e.points if isinstance(e, Polygon) else (e.start, e.end))]
    margin = _sizes(scene)[1]
    return all(margin <= x <= w - margin and margin <= y <= h - margin for x, y in pts)


def place_cue(rng: random.Random, scene: Scene, target: Shape, kind: str, color):
    """The cue's elements, checked (see the module docstring); raises :class:`NoCue`.
    An arrow tries up to :data:`ARROW_TRIES` random directions."""
    if kind not in CUES:
        raise ValueError(f"unknown cue {kind!r}; allowed: {', '.join(CUES)}")
    gap, _ = _sizes(scene)
    (cx, cy), reach = _centre_and_reach(target)
    others = [s for s in scene.shapes if s.id != target.id]
    if kind == "ring":
        elements = ring_elements(scene, target, color)
        for s in others:
            (ox, oy), _ = _centre_and_reach(s)
            if math.hypot(ox - cx, oy - cy) <= reach + gap:
                raise NoCue(f"shape {s.id} has its centre inside the ring")
        _check_clear(scene, elements, kind)
        return elements
    last = None
    for _ in range(ARROW_TRIES):  # crowded scenes: try other directions
        elements = arrow_elements(scene, target, color, rng.uniform(0, 2 * math.pi))
        tip = elements[1].points[0]
        try:
            for s in others:
                x0, y0, x1, y1 = shape_bounds(s)
                if BBox(x0, y0, x1 - x0, y1 - y0).gap_to(BBox(tip[0] - 0.5, tip[1] - 0.5, 1, 1)) \
                        < 3 * gap:
                    raise NoCue(f"shape {s.id} lies as close to the arrow's tip")
            _check_clear(scene, elements, kind)
            return elements
        except NoCue as exc:
            last = exc
    raise NoCue(f"no arrow direction in {ARROW_TRIES} tries; last: {last}")


def _check_clear(scene: Scene, elements, kind: str) -> None:
    """The cue stays on the canvas and touches no shape; raises :class:`NoCue`."""
    if not _on_canvas(scene, elements):
        raise NoCue(f"the {kind} would leave the canvas")
    probe = scene.with_elements(*elements)
    cue_mask = np.zeros((scene.canvas.height, scene.canvas.width), bool)
    for e in elements:
        cue_mask |= render_mask(probe, e.id)
    pts = np.asarray([p for e in elements for p in
                      (e.points if isinstance(e, Polygon) else (e.start, e.end))])
    pad = 4 * _sizes(scene)[1]  # stroke and arrowhead reach
    cx0, cy0 = pts.min(axis=0) - pad
    cx1, cy1 = pts.max(axis=0) + pad
    for s in scene.shapes:
        x0, y0, x1, y1 = shape_bounds(s)
        if x1 < cx0 or x0 > cx1 or y1 < cy0 or y0 > cy1:
            continue  # bounds apart: cannot touch (saves rendering its mask)
        if (render_mask(scene, s.id) & cue_mask).any():
            raise NoCue(f"the {kind} touches shape {s.id}")
