"""Scene -> exact pixels with Skia: no anti-aliasing anywhere.

Every pixel gets exactly one scene color: the background (or a holdout stripe), or the
color of the topmost element covering the pixel center. Skia's aliased rasterizer fills
paths built by :func:`~paintkit.renderers.skia_paths.scanline_path` (the outline's crossings
with the pixel-center rows, rounded to 1/64 px), which it draws without error, so coverage
matches the exact geometry except for pixel centers within 1/128 px of an edge.

What each element paints (drawn in scene order, later on top):

- :class:`~paintkit.scene.Shape`: its outline (:func:`paintkit.shapes.shape_outline`,
  flattened to < 1/256 px chord error at the drawn size) filled with the nonzero rule, then
  the optional stroke;
- :class:`~paintkit.scene.Polygon`: fill (nonzero; an open polyline is filled as if closed),
  then the optional stroke, open when ``closed`` is False;
- :class:`~paintkit.scene.Line`: every point within ``width / 2`` of the segment (a capsule
  polygon with round caps, flattened like shape arcs).

Strokes are centered on the geometry: every point within ``stroke.width / 2`` of the outline
(round joins; round caps on open polylines), built by :func:`paintkit.shapes.stroke_outline`
as exact pieces and filled, so no rasterizer stroker approximates them.

Buffers: each thread draws into its own preallocated RGBA buffer that Skia and NumPy share
(one per canvas size), so calls from several threads never share a surface.
"""

from __future__ import annotations

import os
import threading

import numpy as np
import skia

from paintkit.kernels.pixels import rgba_to_rgb
from paintkit.kernels.stripes import paint_background
from paintkit.renderers.skia_paths import contours_path, scanline_path
from paintkit.scene import RGB, Background, Element, Line, Polygon, Scene, Shape
from paintkit.shapes.outlines import shape_outline
from paintkit.shapes.strokes import capsule_outline, stroke_outline

_local = threading.local()
_MAX_CACHED_SIZES = 4


def _surface(width: int, height: int, mask: bool) -> tuple[np.ndarray, skia.Surface]:
    """This thread's (buffer, surface) for the size: RGBA8888 or, for masks, Alpha8."""
    cache = getattr(_local, "surfaces", None)
    if cache is None or getattr(_local, "pid", None) != os.getpid():
        cache = _local.surfaces = {}
        _local.pid = os.getpid()
    key = (width, height, mask)
    hit = cache.get(key)
    if hit is None:
        if len(cache) >= _MAX_CACHED_SIZES:
            cache.pop(next(iter(cache)))
        if mask:
            buf = np.zeros((height, width), np.uint8)
            surface = skia.Surface(buf, colorType=skia.kAlpha_8_ColorType,
                                   alphaType=skia.kPremul_AlphaType)
        else:
            buf = np.zeros((height, width, 4), np.uint8)
            surface = skia.Surface(buf, colorType=skia.kRGBA_8888_ColorType,
                                   alphaType=skia.kPremul_AlphaType)
        hit = cache[key] = (buf, surface)
    return hit


def _fill_paint(color: RGB) -> skia.Paint:
    paint = skia.Paint(AntiAlias=False, Color=skia.ColorSetARGB(255, *color))
    paint.setBlendMode(skia.BlendMode.kSrc)  # opaque colors: write, never blend
    return paint


Clip = tuple[int, int, int, int]


def _stroke_pieces(contours: list[np.ndarray], width: float, closed: bool) -> list[np.ndarray]:
    return [piece for c in contours for piece in stroke_outline(c, width, closed)]


def _exact_clip(canvas: skia.Canvas) -> Clip | None:
    """The canvas' device clip ``(left, top, right, bottom)``, or None when the canvas has
    a matrix (then paths are drawn as given, not pixel-exact)."""
    if not canvas.getTotalMatrix().isIdentity():
        return None
    r = canvas.getDeviceClipBounds()
    return r.left(), r.top(), r.right(), r.bottom()


def _fill(canvas: skia.Canvas, contours: list, color: RGB, clip: Clip | None) -> None:
    path = contours_path(contours) if clip is None else scanline_path(contours, clip)
    canvas.drawPath(path, _fill_paint(color))


def coverage_key(element: Element) -> tuple:
    """What decides the pixels an element covers and which of them are fill or stroke:
    everything but its id and colours. Elements with one key draw the same paths."""
    if isinstance(element, Shape):
        return ("shape", element.type, element.bbox, element.rotation, element.transform,
                element.fill is None, None if element.stroke is None else element.stroke.width)
    if isinstance(element, Polygon):
        return ("polygon", element.points, element.closed, element.fill is None,
                None if element.stroke is None else element.stroke.width)
    if isinstance(element, Line):
        return ("line", element.start, element.end, element.width)
    raise ValueError(
        f"cannot draw {type(element).__name__}; elements are Shape, Polygon or Line"
    )


_PIECES: dict = {}  # coverage_key -> (fill contours, stroke contours), oldest first
_PIECES_LOCK = threading.Lock()
_MAX_PIECES = 1024


def _build_pieces(element: Element) -> tuple[list | None, list | None]:
    if isinstance(element, Shape):
        outline = shape_outline(element)
        stroke = None if element.stroke is None else \
            _stroke_pieces(outline, element.stroke.width, closed=True)
        return (outline if element.fill is not None else None), stroke
    if isinstance(element, Polygon):
        points = np.asarray(element.points, np.float64)
        stroke = None if element.stroke is None else \
            _stroke_pieces([points], element.stroke.width, element.closed)
        return ([points] if element.fill is not None else None), stroke
    return [capsule_outline(element.start, element.end, element.width)], None


def _pieces(element: Element) -> tuple[list | None, list | None]:
    """``(fill contours, stroke contours)`` of an element (None where it paints none),
    kept for the last :data:`_MAX_PIECES` coverages (:func:`coverage_key`): the input and
    answer scenes of a problem, their code renders and the renders without one element
    share most elements. Read-only: the path builders copy what they keep."""
    key = coverage_key(element)
    hit = _PIECES.get(key)
    if hit is None:
        hit = _build_pieces(element)
        with _PIECES_LOCK:
            while len(_PIECES) >= _MAX_PIECES:
                del _PIECES[next(iter(_PIECES))]
            _PIECES[key] = hit
    return hit


def _draw(canvas: skia.Canvas, element: Element, fill: RGB | None, stroke: RGB | None,
          clip: Clip | None) -> None:
    """Draw ``element``; ``fill`` / ``stroke`` (None: the element's own) override the colour
    of its fill (or a line's colour) and of its stroke."""
    fill_pieces, stroke_pieces = _pieces(element)
    if fill_pieces is not None:
        own = element.color if isinstance(element, Line) else element.fill
        _fill(canvas, fill_pieces, fill or own, clip)
    if stroke_pieces is not None:
        _fill(canvas, stroke_pieces, stroke or element.stroke.color, clip)


def draw_element(canvas: skia.Canvas, element: Element, color: RGB | None = None) -> None:
    """Draw one element onto a Skia canvas, aliased.

    ``color`` overrides every color the element paints (masks draw with one color). On a
    canvas without a matrix the coverage is pixel-exact (see the module docstring).
    """
    _draw(canvas, element, color, color, _exact_clip(canvas))


def _check_scene(scene: Scene) -> Scene:
    if not isinstance(scene, Scene):
        raise ValueError(f"scene must be a paintkit.scene.Scene, got {type(scene).__name__}")
    return scene


def _paint_background(rgba: np.ndarray, bg: Background) -> None:
    stripes = bg.stripes
    if stripes is None:
        paint_background(rgba, bg.color)
    else:
        paint_background(
            rgba, bg.color, stripes.color, orientation=stripes.orientation,
            band_width=stripes.band_width, waveform=stripes.waveform,
            amplitude=stripes.amplitude, frequency=stripes.frequency, phase=stripes.phase,
        )


def render_rgba(scene: Scene) -> np.ndarray:
    """Draw ``scene`` into this thread's shared RGBA buffer and return it.

    Returns the uint8 ``(H, W, 4)`` buffer itself (alpha 255 everywhere); it is
    overwritten by the next render of the same size on this thread, so copy it to keep it.
    """
    _check_scene(scene)
    w, h = scene.canvas.width, scene.canvas.height
    rgba, surface = _surface(w, h, mask=False)
    _paint_background(rgba, scene.background)
    canvas = surface.getCanvas()
    clip = _exact_clip(canvas)
    for element in scene.elements:
        _draw(canvas, element, None, None, clip)
    return rgba


def _code_color(code: int) -> RGB:
    """The colour whose RGBA pixel, read as a little-endian uint32, holds ``code`` in its
    low 24 bits (R lowest)."""
    return code & 255, (code >> 8) & 255, (code >> 16) & 255


MAX_CODED_ELEMENTS = (1 << 23) - 1  # codes 2k + 1, 2k + 2 must fit in 24 bits


def render_codes(scene: Scene) -> np.ndarray:
    """The scene's *code render*: what each pixel shows, as a number.

    Element ``k`` (0-based, scene order) paints its fill (a line: its colour) as code
    ``2k + 1`` and its stroke as ``2k + 2`` with exactly the coverage :func:`render` gives
    it (coverage does not depend on colour); the background is 0. So the rendered image is
    ``palette[code]`` (the background's pixel where 0) and ``(code + 1) // 2`` is the index
    + 1 of the topmost element.

    Returns a uint32 ``(H, W)`` view of this thread's RGBA buffer (the code in the low 24
    bits of each little-endian pixel); the next render of that size on this thread
    overwrites it.
    """
    _check_scene(scene)
    if len(scene.elements) > MAX_CODED_ELEMENTS:
        raise ValueError(f"scene: a code render tells at most {MAX_CODED_ELEMENTS} elements "
                         f"apart, got {len(scene.elements)}")
    w, h = scene.canvas.width, scene.canvas.height
    rgba, surface = _surface(w, h, mask=False)
    paint_background(rgba, (0, 0, 0))
    canvas = surface.getCanvas()
    clip = _exact_clip(canvas)
    for k, element in enumerate(scene.elements):
        _draw(canvas, element, _code_color(2 * k + 1), _code_color(2 * k + 2), clip)
    return rgba.view("<u4")[..., 0]


def render_background(scene: Scene) -> np.ndarray:
    """The scene's background alone (solid or striped): a new uint8 ``(H, W, 4)`` RGBA
    array, alpha 255."""
    _check_scene(scene)
    rgba = np.empty((scene.canvas.height, scene.canvas.width, 4), np.uint8)
    _paint_background(rgba, scene.background)
    return rgba


def render_window(scene: Scene, top: int, left: int, bottom: int, right: int) -> np.ndarray:
    """``render(scene)[top:bottom, left:right]``, drawing only inside that window (the
    paths are built for its rows alone, under a clip): a new uint8 ``(h, w, 3)`` array.
    For looking at a few elements' pixels without paying for the whole canvas."""
    _check_scene(scene)
    w, h = scene.canvas.width, scene.canvas.height
    if not (isinstance(top, (int, np.integer)) and isinstance(left, (int, np.integer))
            and 0 <= top < bottom <= h and 0 <= left < right <= w):
        raise ValueError(f"window: expected 0 <= top < bottom <= {h} and 0 <= left < right <= "
                         f"{w}, got top={top} left={left} bottom={bottom} right={right}")
    top, left, bottom, right = int(top), int(left), int(bottom), int(right)
    rgba, surface = _surface(w, h, mask=False)
    if scene.background.stripes is None:  # only the window needs the solid colour
        word = np.array([*scene.background.color, 255], np.uint8).view(np.uint32)[0]
        rgba.view(np.uint32)[top:bottom, left:right] = word
    else:
        _paint_background(rgba, scene.background)
    canvas = surface.getCanvas()
    canvas.save()
    try:
        canvas.clipRect(skia.Rect.MakeLTRB(left, top, right, bottom))
        clip = _exact_clip(canvas)
        for element in scene.elements:
            _draw(canvas, element, None, None, clip)
    finally:
        canvas.restore()
    return np.ascontiguousarray(rgba[top:bottom, left:right, :3])


def render(scene: Scene) -> np.ndarray:
    """Render ``scene`` exactly: a new uint8 ``(H, W, 3)`` RGB array.

    Background via :func:`paintkit.kernels.stripes.paint_background`, then every element
    in order, all without anti-aliasing, so each pixel is one of ``scene.colors``.

    Example::

        >>> from paintkit.scene import Background, Canvas, Scene
        >>> render(Scene(Canvas(4, 3), Background((255, 0, 0)))).shape
        (3, 4, 3)
    """
    return rgba_to_rgb(render_rgba(scene))


def render_mask(scene: Scene, element_id: str) -> np.ndarray:
    """Pixels element ``element_id`` paints when drawn alone (fill and stroke).

    Returns a new bool ``(H, W)`` array. Raises ``KeyError`` naming the ids when the scene
    has no such element.
    """
    _check_scene(scene)
    element = scene.element(element_id)
    buf, surface = _surface(scene.canvas.width, scene.canvas.height, mask=True)
    buf.fill(0)
    draw_element(surface.getCanvas(), element, color=(255, 255, 255))
    return buf.astype(bool)
