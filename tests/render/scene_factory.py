"""Random scenes for renderer tests: every element kind, strokes, stripes, transforms."""

from __future__ import annotations

import numpy as np

from paintkit.scene import (
    SHAPE_TYPES,
    Background,
    BBox,
    Canvas,
    Line,
    Polygon,
    Scene,
    Shape,
    Stripes,
    Stroke,
)

PALETTE = [(255, 0, 0), (255, 165, 0), (255, 255, 0), (0, 255, 0), (0, 0, 255),
           (128, 0, 128), (255, 192, 203), (139, 69, 19), (0, 0, 0), (128, 128, 128),
           (255, 255, 255)]


def color(rng: np.random.Generator) -> tuple[int, int, int]:
    return PALETTE[int(rng.integers(len(PALETTE)))]


def random_transform(rng: np.random.Generator, cx: float, cy: float):
    """A shear and/or reflection about (cx, cy), or the identity."""
    kind = int(rng.integers(4))
    if kind == 0:
        return (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)
    k = float(rng.uniform(-0.6, 0.6))
    a, b, d, e = {1: (1.0, k, 0.0, 1.0), 2: (1.0, 0.0, k, 1.0), 3: (-1.0, k, 0.0, 1.0)}[kind]
    # keep (cx, cy) fixed: x' = A (x - c) + c
    return (a, b, cx - a * cx - b * cy, d, e, cy - d * cx - e * cy)


def random_shape(rng, sid, width, height, shape_type=None, stroke=None, transform=True):
    shape_type = shape_type or SHAPE_TYPES[int(rng.integers(len(SHAPE_TYPES)))]
    w, h = rng.uniform(12, 0.6 * width), rng.uniform(12, 0.6 * height)
    box = BBox(float(rng.uniform(-10, width - w + 10)), float(rng.uniform(-10, height - h + 10)),
               float(w), float(h))
    if stroke is None and rng.random() < 0.3:
        stroke = Stroke(color(rng), float(rng.uniform(0.5, 9)))
    fill = None if stroke is not None and rng.random() < 0.3 else color(rng)
    m = random_transform(rng, *box.center) if transform else (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)
    return Shape(sid, shape_type, box, fill, rotation=float(rng.uniform(0, 360)),
                 stroke=stroke, transform=m)


def random_polygon(rng, pid, width, height):
    pts = tuple((float(x), float(y)) for x, y in
                rng.uniform([-10, -10], [width + 10, height + 10], (int(rng.integers(2, 9)), 2)))
    stroke = Stroke(color(rng), float(rng.uniform(0.5, 8))) if rng.random() < 0.6 else None
    fill = color(rng) if stroke is None or rng.random() < 0.5 else None
    return Polygon(pid, pts, fill=fill, stroke=stroke, closed=bool(rng.random() < 0.6))


def random_line(rng, lid, width, height):
    start, end = rng.uniform(0, [width, height], (2, 2))
    return Line(lid, tuple(map(float, start)), tuple(map(float, end)), color(rng),
                float(rng.uniform(0.5, 12)))


def random_background(rng, width, striped):
    bg = color(rng)
    if not striped:
        return Background(bg)
    return Background(bg, Stripes(
        color=PALETTE[(PALETTE.index(bg) + 1) % len(PALETTE)],
        orientation=int(rng.choice([0, 45, 90])),
        band_width=float(rng.choice([0.06, 0.08, 0.10]) * width),
        waveform=str(rng.choice(["line", "sine", "square", "triangle", "sawtooth"])),
        amplitude=float(rng.uniform(0.01, 0.04) * width), frequency=float(rng.uniform(4, 10)),
    ))


def random_scene(rng, width=256, height=256, n=8, striped=None):
    """A scene with ``n`` random elements (mostly shapes), on a solid or striped background."""
    striped = bool(rng.random() < 0.5) if striped is None else striped
    elements = []
    for i in range(n):
        roll = rng.random()
        if roll < 0.7:
            elements.append(random_shape(rng, f"e{i}", width, height))
        elif roll < 0.85:
            elements.append(random_polygon(rng, f"e{i}", width, height))
        else:
            elements.append(random_line(rng, f"e{i}", width, height))
    return Scene(Canvas(width, height), random_background(rng, width, striped), tuple(elements))
