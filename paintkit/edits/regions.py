"""Outlined regions: the edit area of the region-based color tasks (flood fill, blending,
gradient, point operations).

A region task draws a closed polygon *outline* on top of the scene: a
:class:`~paintkit.scene.Polygon` with no fill and a :data:`OUTLINE_WIDTH` px stroke, in a
palette color the scene paints nowhere else (the instruction names it; the answer keeps it).
The task then edits pixels inside the outline.

**Inside** (one definition for every region task): the pixels whose centers lie inside the
polygon and that the outline's stroke does not paint, i.e. the pixels enclosed by the drawn
outline, not counting the outline's own pixels. Computed with the renderer as the polygon's
fill mask minus the stroke's pixels (the pixels of the outline's color, which is drawn last
and used by nothing else). Flood fill also checks that this set is exactly what a
4-connected fill from the interior reaches, with the stroke as the fence
(:func:`enclosed_by_fill`), so both readings give the same pixels.

**Scopes** (which inside pixels an instruction edits):

- ``all``: every inside pixel;
- ``background``: inside pixels showing a background color (the solid color or, on a
  striped background, either stripe color);
- ``shapes``: every other inside pixel, i.e. pixels painted by a shape (shape colors never
  equal a background color, and the outline's color appears nowhere else).

Masks here are bool ``(h, w)`` arrays over the region's :attr:`Region.window` (the canvas
rows and columns around the outline), not the whole canvas: edits touch only that window.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from paintkit.colors import ColorSplit, PaletteColor, rgb_to_hex
from paintkit.edits.context import EditContext
from paintkit.kernels.color_mask import color_mask
from paintkit.kernels.edit_region import count_changed
from paintkit.kernels.flood_fill import connected_region_numba
from paintkit.kernels.point_ops import apply_channel_luts
from paintkit.language.phrases import color_code_phrase
from paintkit.renderers import render, render_mask
from paintkit.sampling.condition import condition_scene
from paintkit.scene import IDENTITY, RGB, Canvas, Point, Polygon, Scene, Stroke

OUTLINE_ID = "outline"
OUTLINE_WIDTH = 4.0
SCOPES: tuple[str, ...] = ("all", "background", "shapes")
EDGE_MARGIN = 0.02  # of the shorter canvas side, plus the stroke, between outline and edge
# Convex outline: half-axes as fractions of the shorter canvas side.
HALF_AXES = (0.12, 0.30)
VERTEX_COUNTS = (4, 5, 6, 7)


def palette_colors(split: ColorSplit) -> tuple[PaletteColor, ...]:
    """The condition's whole palette: background, holdout, then the object colors."""
    return (split.background, split.holdout, *split.objects)


def free_colors(split: ColorSplit, scene: Scene) -> list[PaletteColor]:
    """Palette colors ``scene`` paints nowhere (candidates for an outline or a new color)."""
    used = set(scene.colors)
    return [c for c in palette_colors(split) if c.rgb not in used]


def fit_to_canvas(points: Sequence[Point], canvas: Canvas) -> list[Point] | None:
    """Shift ``points`` by whole pixels so the outline (with its stroke) keeps the edge
    margin; None when it is too large to fit."""
    margin = EDGE_MARGIN * canvas.shorter_side + OUTLINE_WIDTH
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    shift = []
    for lo, hi, size in ((min(xs), max(xs), canvas.width), (min(ys), max(ys), canvas.height)):
        if hi - lo > size - 2 * margin:
            return None
        shift.append(math.ceil(margin - lo) if lo < margin else
                     -math.ceil(hi - (size - margin)) if hi > size - margin else 0)
    return [(x + shift[0], y + shift[1]) for x, y in points]


def convex_outline(rng: random.Random, canvas: Canvas, around: Point) -> list[Point] | None:
    """Vertices (whole pixels) of a random convex polygon near ``around``, or None when it
    does not fit the canvas.

    4 to 7 vertices on a rotated ellipse (half-axes :data:`HALF_AXES` of the shorter canvas
    side) at evenly spaced angles jittered by up to 30% of the spacing, so the polygon is
    convex with no sliver corners; shifted to keep the edge margin.
    """
    k = rng.choice(VERTEX_COUNTS)
    rx = rng.uniform(*HALF_AXES) * canvas.shorter_side
    ry = rng.uniform(*HALF_AXES) * canvas.shorter_side
    tilt = rng.uniform(0.0, math.pi)
    cx = around[0] + rng.uniform(-0.5, 0.5) * rx
    cy = around[1] + rng.uniform(-0.5, 0.5) * ry
    start = rng.uniform(0.0, 2 * math.pi)
    step = 2 * math.pi / k
    points = []
    for i in range(k):
        a = start + i * step + rng.uniform(-0.3, 0.3) * step
        ex, ey = rx * math.cos(a), ry * math.sin(a)
        points.append((round(cx + ex * math.cos(tilt) - ey * math.sin(tilt)),
                       round(cy + ex * math.sin(tilt) + ey * math.cos(tilt))))
    return fit_to_canvas(points, canvas)


@dataclass(frozen=True)
class Region:
    """An outline drawn on a scene and the pixels it encloses.

    ``scene`` is the input scene (the shapes plus ``outline`` on top); ``window`` the
    (rows, cols) slices of the canvas around the outline; ``inside`` bool ``(h, w)`` over the
    window; ``stroke`` the outline's own pixels over the window; ``seed`` a ``(row, col)``
    canvas pixel inside (the one holding the mean of the vertices, else the inside pixel
    nearest to it).
    """

    scene: Scene
    outline: Polygon
    window: tuple[slice, slice]
    inside: np.ndarray
    stroke: np.ndarray
    seed: tuple[int, int]

    @property
    def color(self) -> RGB:
        return self.outline.stroke.color

    def crop(self, image: np.ndarray) -> np.ndarray:
        """``image`` (``(H, W, ...)``) restricted to the window (a view)."""
        return image[self.window]

    def paste(self, image: np.ndarray, window_pixels: np.ndarray) -> np.ndarray:
        """A copy of ``image`` with the window replaced by ``window_pixels``."""
        out = image.copy()
        out[self.window] = window_pixels
        return out

    def paint(self, image: np.ndarray, mask: np.ndarray, color: RGB) -> np.ndarray:
        """A copy of ``image`` with the window pixels under ``mask`` (bool ``(h, w)``) set to
        ``color`` (one kernel pass: every channel value maps to the color's)."""
        luts = np.repeat(np.array(color, np.uint8)[:, None], 256, axis=1)
        return self.paste(image, apply_channel_luts(self.crop(image), mask, luts))


def outlined_region(scene: Scene, points: Sequence[Point], color: RGB,
                    ) -> tuple[Region, np.ndarray] | None:
    """Draw the outline through ``points`` in ``color`` on top of ``scene``, render it and
    find the pixels the outline encloses.

    Returns the :class:`Region` and the rendered input pixels (uint8 ``(H, W, 3)``), or None
    when the interior has no pixel off the stroke. ``color`` must be a color ``scene`` does
    not paint: the outline's pixels are then exactly the pixels of that color (it is drawn
    last), which spares rendering its stroke a second time.
    """
    outline = Polygon(OUTLINE_ID, tuple(points), fill=None, stroke=Stroke(color, OUTLINE_WIDTH))
    with_outline = scene.with_elements(outline)
    pts = np.asarray(outline.points)
    pad = math.ceil(OUTLINE_WIDTH / 2) + 2
    r0 = max(0, math.floor(pts[:, 1].min()) - pad)
    r1 = min(scene.canvas.height, math.ceil(pts[:, 1].max()) + pad + 1)
    c0 = max(0, math.floor(pts[:, 0].min()) - pad)
    c1 = min(scene.canvas.width, math.ceil(pts[:, 0].max()) + pad + 1)
    window = (slice(r0, r1), slice(c0, c1))
    image = render(with_outline)
    stroke = color_mask(image[window], [color])
    filled = Polygon("fill", outline.points, fill=(255, 255, 255))
    fill = render_mask(Scene(scene.canvas, scene.background, (filled,)), "fill")[window]
    inside = fill & ~stroke
    cx, cy = pts.mean(axis=0)
    row, col = math.floor(cy) - r0, math.floor(cx) - c0
    if not (0 <= row < inside.shape[0] and 0 <= col < inside.shape[1] and inside[row, col]):
        rows, cols = np.nonzero(inside)  # rare: the mean of the vertices is not inside
        if rows.size == 0:
            return None
        nearest = int(np.argmin((rows + r0 + 0.5 - cy) ** 2 + (cols + c0 + 0.5 - cx) ** 2))
        row, col = int(rows[nearest]), int(cols[nearest])
    region = Region(with_outline, outline, window, inside, stroke, (row + r0, col + c0))
    return region, image


def enclosed_by_fill(region: Region) -> np.ndarray:
    """bool ``(h, w)`` over the window: what a 4-connected flood fill from ``region.seed``
    reaches without entering a pixel the outline paints
    (:func:`paintkit.kernels.flood_fill.connected_region_numba` on the stroke mask)."""
    fence = np.repeat(region.stroke[:, :, None].view(np.uint8), 3, axis=2)
    row = region.seed[0] - region.window[0].start
    col = region.seed[1] - region.window[1].start
    return connected_region_numba(fence, (row, col))


def background_mask(region: Region, image: np.ndarray) -> np.ndarray:
    """bool ``(h, w)`` over the window: pixels of ``image`` showing a background color."""
    return color_mask(region.crop(image), region.scene.background.colors)


def scope_mask(region: Region, image: np.ndarray, scope: str) -> np.ndarray:
    """bool ``(h, w)`` over the window: the inside pixels ``scope`` selects (see module doc)."""
    if scope == "all":
        return region.inside
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}; allowed: {', '.join(SCOPES)}")
    background = background_mask(region, image)
    return region.inside & (background if scope == "background" else ~background)


def outline_phrase(region: Region, what: str = "outline") -> str:
    """"the magenta (#F20DD8) outline" (``what`` may be e.g. "parallelogram outline")."""
    return f"the {color_code_phrase(region.color)} {what}"


def scope_phrase(scope: str, striped: bool) -> str:
    """How an instruction names the pixels a scope selects (before "inside the ...")."""
    if scope == "all":
        return "every pixel"
    if scope == "background":
        return "every background pixel (both stripe colors)" if striped else "every background pixel"
    if scope == "shapes":
        return "every pixel of a shape"
    raise ValueError(f"unknown scope {scope!r}; allowed: {', '.join(SCOPES)}")


def unchanged_note(scope: str) -> str:
    """The sentence saying what stays as it is."""
    kept = {"all": "Pixels outside the outline and the outline itself",
            "background": "The shapes, pixels outside the outline and the outline itself",
            "shapes": "The background, pixels outside the outline and the outline itself"}[scope]
    return f"{kept} stay unchanged."


def region_params(region: Region) -> dict:
    """Metadata of the outline: vertices, color, stroke width, interior pixel ``[row, col]``."""
    return {
        "outline_points": [list(p) for p in region.outline.points],
        "outline_color": rgb_to_hex(region.color),
        "outline_width": OUTLINE_WIDTH,
        "interior_pixel": list(region.seed),
    }


def full_mask(region: Region, window_mask: np.ndarray) -> np.ndarray:
    """A window mask placed on the whole canvas: bool ``(H, W)``."""
    canvas = region.scene.canvas
    out = np.zeros((canvas.height, canvas.width), bool)
    out[region.window] = window_mask
    return out


MIN_REGION_FRACTION = 0.003  # least edited pixels, as a fraction of the canvas area


def min_region_pixels(canvas: Canvas) -> int:
    """Least number of pixels a region task must change (rejects empty or tiny edits)."""
    return math.ceil(MIN_REGION_FRACTION * canvas.width * canvas.height)


def outlined_scene(ctx: EditContext, make_points=convex_outline) -> tuple[ColorSplit, Region, np.ndarray]:
    """Sample the condition's scene and draw an outline around a random shape.

    ``make_points(rng, canvas, around)`` gives the outline's vertices (None: reject). The
    outline's color is a palette color the scene paints nowhere. Returns the palette split,
    the :class:`Region` and the rendered input pixels (uint8 ``(H, W, 3)``). Raises the
    context's rejection when no color is free or the outline does not fit.
    """
    sampled = condition_scene(ctx.rng, ctx.condition, ctx.spec.counts)
    scene = sampled.scene
    free = free_colors(sampled.colors, scene)
    if not free:
        raise ctx.reject("every palette color is in use; no color left for the outline")
    color = ctx.rng.choice(free).rgb
    around = ctx.rng.choice(scene.shapes).bbox.center
    points = make_points(ctx.rng, scene.canvas, around)
    drawn = None if points is None else outlined_region(scene, points, color)
    if drawn is None:
        raise ctx.reject("the outline does not fit the canvas")
    return sampled.colors, *drawn


def colors_near(region: Region) -> set[RGB]:
    """Fills of the shapes that may reach into the region's window (a superset: each shape
    is taken as the circle around its bbox that holds it at any rotation)."""
    rows, cols = region.window
    out: set[RGB] = set()
    for shape in region.scene.shapes:
        if shape.fill is None:
            continue
        if shape.transform != IDENTITY:
            out.add(shape.fill)  # warped: no cheap bound, count it as near
            continue
        (x, y), r = shape.bbox.center, math.hypot(shape.bbox.width, shape.bbox.height) / 2
        if x + r >= cols.start and x - r <= cols.stop and y + r >= rows.start and y - r <= rows.stop:
            out.add(shape.fill)
    return out


def new_color_choices(split: ColorSplit, region: Region, count: int = 1) -> list[PaletteColor]:
    """Palette colors a region edit may paint: not a background color, not the outline's,
    and preferably not the fill of a shape near the region (all of those when fewer than
    ``count`` are left)."""
    banned = set(region.scene.background.colors) | {region.color}
    allowed = [c for c in palette_colors(split) if c.rgb not in banned]
    near = colors_near(region)
    preferred = [c for c in allowed if c.rgb not in near]
    return preferred if len(preferred) >= count else allowed


def first_effective_scope(rng: random.Random, region: Region, image: np.ndarray,
                          edit: Callable[[np.ndarray, np.ndarray], np.ndarray],
                          ) -> tuple[str, np.ndarray] | None:
    """Try the :data:`SCOPES` in a random order and keep the first whose edit changes at
    least :func:`min_region_pixels` pixels.

    ``edit(window_pixels, mask)`` returns the edited window (uint8 ``(h, w, 3)``). Returns
    ``(scope, answer)`` with the full answer image, or None when no scope changes enough
    (e.g. grayscale where every inside pixel is already gray). Cheaper than rejecting the
    seed: the scene is sampled and rendered once.
    """
    window = region.crop(image)
    least = min_region_pixels(region.scene.canvas)
    for scope in rng.sample(SCOPES, len(SCOPES)):
        mask = scope_mask(region, image, scope)
        if np.count_nonzero(mask) < least:
            continue
        edited = edit(window, mask)
        if count_changed(np.ascontiguousarray(window), edited) >= least:
            return scope, region.paste(image, edited)
    return None
