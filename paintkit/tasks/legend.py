"""Legend: apply a color key drawn on the canvas to every shape.

A key panel in one canvas corner (a background-colored rectangle with a frame in an *ink*
color) holds one row per color the scene's shapes have, each exactly once: a swatch of the
shape color, an arrow, then either a swatch of the new color or a cross (removal). Shapes
keep clear of the panel. The instruction explains how to read the key but never the
mapping; the answer recolors or removes every shape by the row of its own (input) color,
all rows at once, and leaves the key's pixels unchanged.

Color rule (no ambiguous chains): the ink, the shape colors and the new colors are
distinct palette object colors, so a new color is never a source color (no row's output
feeds another row) and no two rows share a new color. Shapes use 2-5 colors (enough for ``n`` shapes under
the sampler's distinct (type, color) and shapes-per-color rules), leaving at least 3 new colors;
at least one row recolors. Counts: the default table (3 / 10 / 25 / 60,
docs/generator-rules.md#object-counts).
"""

from __future__ import annotations

import math
from dataclasses import replace

from paintkit.colors import rgb_to_hex
from paintkit.renderers import render
from paintkit.sampling.condition import condition_background
from paintkit.sampling.shapes import sample_shapes
from paintkit.scene import SHAPE_TYPES, Canvas, Polygon, Scene, Stroke
from paintkit.scene_parts.glyphs import cross, rectangle, right_arrow
from paintkit.scene_parts.placement import edge_margin
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="legend",
    category="symbolic_reasoning",
    parameters={
        "corner": "top-left, top-right, bottom-left or bottom-right: where the key sits",
        "rows": "one per shape color (2-5 colors); each maps to a new color or to removal, at "
                "least one recolor",
        "new colors": "palette object colors used by no shape and not the key's ink",
    },
)
CORNERS: tuple[str, ...] = ("top-left", "top-right", "bottom-left", "bottom-right")
MAX_COLORS = 5
FRAME_WIDTH = 2


def _color_count(rng, n: int) -> int:
    per_color = max(2, math.ceil(n / 3))  # the sampler's cap of shapes sharing a color
    lo = max(2, math.ceil(n / len(SHAPE_TYPES)), math.ceil(n / per_color))
    return rng.randint(lo, max(lo, min(n, MAX_COLORS)))


def _key_geometry(canvas: Canvas, rows: int, corner: str):
    """Panel box, swatch size and the top-left of the first source swatch (whole px)."""
    s = max(16, round(0.04 * canvas.shorter_side))
    pad, row_gap, arrow = round(0.4 * s), round(0.5 * s), round(1.6 * s)
    width = 2 * pad + 2 * s + arrow
    height = 2 * pad + rows * s + (rows - 1) * row_gap
    m = math.ceil(edge_margin(canvas)) + FRAME_WIDTH
    x0 = m if corner.endswith("left") else canvas.width - m - width
    y0 = m if corner.startswith("top") else canvas.height - m - height
    return (x0, y0, x0 + width, y0 + height), s, pad, row_gap, arrow


def _key(panel, s, pad, row_gap, arrow, rows, background, ink):
    """Key elements and per-row swatch boxes for ``rows`` = [(source, new or None)]."""
    x0, y0, x1, y1 = panel
    frame = Polygon("key_panel", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), fill=background,
                    stroke=Stroke(ink, FRAME_WIDTH))
    elements, boxes = [frame], []
    for i, (source, new) in enumerate(rows):
        top = y0 + pad + i * (s + row_gap)
        src = (x0 + pad, top, x0 + pad + s, top + s)
        dst = (src[2] + arrow, top, src[2] + arrow + s, top + s)
        elements.append(rectangle(f"key_from{i}", src, source))
        gap = round(0.25 * s)
        elements.append(right_arrow(f"key_arrow{i}", src[2] + gap, dst[0] - gap, top + s / 2,
                                    max(2, round(s / 8)), round(0.45 * s), ink))
        if new is None:
            inset = round(0.1 * s)
            elements.extend(cross(f"key_cross{i}", (dst[0] + inset, dst[1] + inset,
                                                    dst[2] - inset, dst[3] - inset),
                                  max(3, round(s / 6)), ink))
        else:
            elements.append(rectangle(f"key_to{i}", dst, new))
        boxes.append((src, dst))
    return elements, boxes


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    rng = ctx.rng
    split, background = condition_background(rng, ctx.condition)
    canvas = Canvas(ctx.condition.width, ctx.condition.height)
    pool = [c.rgb for c in split.objects]
    rng.shuffle(pool)
    n = ctx.count
    k = _color_count(rng, n)
    ink, sources, free = pool[0], pool[1:1 + k], pool[1 + k:]
    corner = rng.choice(CORNERS)
    # Reserve room for k rows; the key drawn below is as tall as the colors actually used.
    room = _key_geometry(canvas, k, corner)[0]
    half = FRAME_WIDTH / 2
    reserved = (room[0] - half, room[1] - half, room[2] + half, room[3] + half)
    shapes = sample_shapes(rng, canvas, sources, n, occupied=[reserved])

    used = sorted({sh.fill for sh in shapes}, key=sources.index)
    rng.shuffle(used)
    recolored = set(rng.sample(range(len(used)), rng.randint(1, min(len(used), len(free)))))
    new_colors = iter(rng.sample(free, len(recolored)))
    rows = [(c, next(new_colors) if i in recolored else None) for i, c in enumerate(used)]
    panel, s, pad, row_gap, arrow = _key_geometry(canvas, len(rows), corner)
    key_elements, swatches = _key(panel, s, pad, row_gap, arrow, rows, background.color, ink)
    scene = Scene(canvas, background, tuple(shapes) + tuple(key_elements))

    mapping = dict(rows)
    kept = [replace(sh, fill=mapping[sh.fill]) for sh in shapes if mapping[sh.fill] is not None]
    answer_scene = Scene(canvas, background, tuple(kept) + tuple(key_elements))
    instruction = (
        f"The key in the {corner} corner has one row for each shape color in the image: a "
        f"swatch of that color, an arrow, then either a swatch of the color those shapes "
        f"become or a cross meaning those shapes are removed. Apply the whole key at once: "
        f"recolor or remove every shape as the row of its current color says. Removed shapes "
        f"leave the background; the key itself stays unchanged."
    )
    return ctx.problem(
        render(scene), render(answer_scene), instruction, scene=scene, answer_scene=answer_scene,
        targets=tuple(sh.id for sh in shapes),
        params={"corner": corner, "key_box": list(panel), "ink": rgb_to_hex(ink),
                "rows": [{"from": rgb_to_hex(c), "to": None if new is None else rgb_to_hex(new),
                          "from_box": list(src), "to_box": list(dst)}
                         for (c, new), (src, dst) in zip(rows, swatches, strict=True)],
                "removed": [sh.id for sh in shapes if mapping[sh.fill] is None]},
    )
