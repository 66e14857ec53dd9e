"""Copying: copy the shapes inside one outlined square into an equal, empty square, at the
same positions relative to the square.

The input shows two equal axis-aligned squares outlined in a reserved color (see
:mod:`paintkit.scene_parts.marks`), side by side or one above the other (their ranges along that
axis do not overlap, so "the left / right square" or "the top / bottom square" names each
one). Corners are whole pixels and the outline is :data:`~paintkit.scene_parts.marks.OUTLINE_WIDTH`
px wide, so the offset between the squares is a whole number of pixels, stated in the
instruction. The source square holds 1 to ``max(2, count // 8)`` shapes, each fully inside it
(at least 4 px from the outline's inner edge); every other shape lies fully outside both
squares (at least 4 px from their outlines), so the destination is empty. Inside and
outside shapes use disjoint color sets (so (type, color) stays unique in the scene).

The answer is the scene re-rendered with translated copies (new ids ``<id>_copy``) on top;
a seed is rejected unless the copied content is pixel-identical to the source content (the
rasterizer could in principle snap an edge differently after the shift).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from paintkit.colors import describe_color
from paintkit.edits.geometric import transformed, translation
from paintkit.kernels.color_mask import color_mask
from paintkit.kernels.edit_region import changed_mask_numba
from paintkit.language.phrases import join_words
from paintkit.renderers import render
from paintkit.sampling.condition import condition_background
from paintkit.sampling.shapes import sample_shapes
from paintkit.scene import BBox, Canvas, Scene
from paintkit.scene_parts.marks import OUTLINE_WIDTH, outline_mark, reserve_outline_color, square_corners
from paintkit.tasks.base import Problem, TaskSpec, start

SPEC = TaskSpec(
    name="copying",
    category="structural_manipulation",
    parameters={
        "squares": "two equal squares, side 25-40% of the shorter canvas side, side by side "
                   "or stacked (50/50), whole-pixel corners, outlined 4 px in a reserved color",
        "source": "either square (50/50); 1 to max(2, count // 8) shapes inside it",
    },
)
SIDE_RANGE = (0.25, 0.40)  # fractions of the shorter canvas side
MIN_SEPARATION = 0.05  # fraction of the shorter side between the squares along their axis
EDGE_MARGIN = 0.02
INSIDE_GAP = 4  # px between an inside shape's bounds and the outline's inner edge
HALF = OUTLINE_WIDTH // 2
NAMES = {"horizontal": ("left", "right"), "vertical": ("top", "bottom")}


def _squares(ctx, canvas: Canvas):
    """Top-left corners and side of the two squares, in the order of NAMES."""
    rng = ctx.rng
    short = canvas.shorter_side
    arrangement = rng.choice(tuple(NAMES))
    along, across = (canvas.width, canvas.height) if arrangement == "horizontal" else \
        (canvas.height, canvas.width)
    m = math.ceil(EDGE_MARGIN * short) + HALF
    sep = math.ceil(MIN_SEPARATION * short)
    side = rng.randint(math.ceil(SIDE_RANGE[0] * short), math.floor(SIDE_RANGE[1] * short))
    if 2 * side + sep > along - 2 * m or side > across - 2 * m:
        raise ctx.reject(f"two {side} px squares do not fit")
    a0 = rng.randint(m, along - m - 2 * side - sep)
    a1 = rng.randint(a0 + side + sep, along - m - side)
    b0, b1 = rng.randint(m, across - m - side), rng.randint(m, across - m - side)
    corners = [(a0, b0), (a1, b1)] if arrangement == "horizontal" else [(b0, a0), (b1, a1)]
    return arrangement, side, corners


def _inside_shapes(ctx, corner, side: int, count: int, colors):
    """``count`` shapes fully inside the square at ``corner``, placed on a sub-canvas."""
    inset = HALF + INSIDE_GAP
    inner = side - 2 * inset
    shapes = sample_shapes(ctx.rng, Canvas(inner, inner), colors, count, id_prefix="in")
    ox, oy = corner[0] + inset, corner[1] + inset
    return [replace(s, bbox=BBox(s.bbox.x + ox, s.bbox.y + oy, s.bbox.width, s.bbox.height))
            for s in shapes]


def _interior(image: np.ndarray, corner, side: int) -> np.ndarray:
    """A square's interior: the pixels whose centers lie strictly inside the outline's inner
    edge (a view of ``image``)."""
    x, y = corner
    return image[y + HALF:y + side - HALF, x + HALF:x + side - HALF]


def same_content(a: np.ndarray, b: np.ndarray, bg_colors) -> bool:
    """True when two equal-size windows show the same shapes (same pixels wherever either
    shows a non-background color; the background itself, e.g. stripes, may differ)."""
    diff = changed_mask_numba(np.ascontiguousarray(a), np.ascontiguousarray(b))
    if not diff.any():
        return True
    return bool(color_mask(a[diff], bg_colors).all() and
                color_mask(b[diff], bg_colors).all())


def _offset_phrase(dx: int, dy: int) -> str:
    parts = []
    if dx:
        parts.append(f"{abs(dx)} pixels to the {'right' if dx > 0 else 'left'}")
    if dy:
        parts.append(f"{abs(dy)} pixels {'down' if dy > 0 else 'up'}")
    return join_words(parts)


def generate(seed: int, condition: str = "baseline", mode: str | None = None) -> Problem:
    ctx = start(SPEC, seed, condition, mode)
    rng = ctx.rng
    split, background = condition_background(rng, ctx.condition)
    outline, colors = reserve_outline_color(rng, split)
    canvas = Canvas(ctx.condition.width, ctx.condition.height)
    arrangement, side, corners = _squares(ctx, canvas)
    src = rng.randrange(2)
    dst = 1 - src
    total = ctx.count
    k = rng.randint(1, max(2, total // 8))
    rng.shuffle(colors)
    n_inside_colors = 2 if k <= 4 else 3
    inside = _inside_shapes(ctx, corners[src], side, k, colors[:n_inside_colors])
    boxes = [(x - HALF, y - HALF, x + side + HALF, y + side + HALF) for x, y in corners]
    outside = sample_shapes(rng, canvas, colors[n_inside_colors:], total - k, occupied=boxes)
    names = NAMES[arrangement]
    marks = [outline_mark(f"{names[i]}_square", square_corners(x, y, side), outline.rgb)
             for i, (x, y) in enumerate(corners)]
    scene = Scene(canvas, background, (*marks, *inside, *outside))
    dx, dy = corners[dst][0] - corners[src][0], corners[dst][1] - corners[src][1]
    copies = [replace(transformed(s, translation(dx, dy)), id=f"{s.id}_copy") for s in inside]
    answer_scene = scene.with_elements(*copies)
    input_px, answer_px = render(scene), render(answer_scene)
    if not same_content(_interior(answer_px, corners[src], side),
                        _interior(answer_px, corners[dst], side), background.colors):
        raise ctx.reject("the re-rendered copies differ from the source pixels")
    instruction = (
        f"The image shows two equal squares with {describe_color(outline.rgb)} outlines. Copy every "
        f"shape inside the {names[src]} square into the {names[dst]} square, keeping each copy "
        f"at the same position relative to its square: each copy is an exact duplicate (same "
        f"size, color and orientation) moved {_offset_phrase(dx, dy)}. The originals stay where "
        f"they are and nothing else changes."
    )
    return ctx.problem(
        input_px, answer_px, instruction, scene=scene, answer_scene=answer_scene,
        targets=tuple(s.id for s in inside),
        params={"arrangement": arrangement, "side": side, "outline_width": OUTLINE_WIDTH,
                "outline_color": list(outline.rgb), "source": names[src],
                "destination": names[dst], "source_corner": list(corners[src]),
                "destination_corner": list(corners[dst]), "dx": dx, "dy": dy,
                "copies": [c.id for c in copies]},
    )
