"""Filled outlines -> pixels, under the rules the benchmark's PNGs are drawn by.

Each :class:`~paintkit.svg.geometry.Fill` is drawn the way the scene renderer draws a scene
element (:mod:`paintkit.renderers.skia_scene`): its contours become the row-crossing path of
:func:`paintkit.renderers.skia_paths.scanline_path`, filled by Skia with anti-aliasing off
and the colour written, never blended. A pixel is painted exactly when its centre is inside
the outline (nonzero winding, or even-odd when the SVG says so); only a centre within
1/128 px of an outline along its row can differ from the exact rule, as in the PNGs.
Pixels nothing paints are white.
"""

from __future__ import annotations

import numpy as np

from paintkit.svg.geometry import Fill

__all__ = ["render_fills"]


def render_fills(size: tuple[int, int], fills: list[Fill]) -> np.ndarray:
    """``(width, height)`` and fills in painting order -> uint8 ``(height, width, 3)``."""
    import skia

    from paintkit.renderers.skia_paths import scanline_path  # skia, numba

    width, height = size
    buf = np.full((height, width, 4), 255, np.uint8)
    surface = skia.Surface(buf, colorType=skia.kRGBA_8888_ColorType,
                           alphaType=skia.kPremul_AlphaType)
    canvas = surface.getCanvas()
    clip = (0, 0, width, height)
    for fill in fills:
        path = scanline_path(list(fill.contours), clip)
        if fill.evenodd:
            path.setFillType(skia.PathFillType.kEvenOdd)
        paint = skia.Paint(AntiAlias=False, Color=skia.ColorSetARGB(255, *fill.color))
        paint.setBlendMode(skia.BlendMode.kSrc)
        canvas.drawPath(path, paint)
    surface.flushAndSubmit()
    return np.ascontiguousarray(buf[..., :3])
