"""SVG outputs of code-editing models, drawn under the benchmark's pixel rules.

``render_svg(text)`` checks the document's bytes (:mod:`paintkit.svg.limits`: size, element
count, depth, no DOCTYPE or entities, no references, the supported subset), parses it with
svgelements (:mod:`paintkit.svg.geometry`) and fills its outlines as the scene renderer fills
a scene's (:mod:`paintkit.svg.render`): the answer SVG that ``paintkit generate --svg``
writes renders to the answer PNG's pixels. docs/svg.md lists the subset.
"""

from __future__ import annotations

import numpy as np

from paintkit.svg.limits import MAX_DEPTH, MAX_ELEMENTS, MAX_SVG_BYTES, SvgError, check_svg

__all__ = ["MAX_DEPTH", "MAX_ELEMENTS", "MAX_SVG_BYTES", "SvgError", "check_svg", "render_svg"]


def render_svg(data: bytes | str, *, width: int | None = None, height: int | None = None,
               max_pixels: int | None = None) -> np.ndarray:
    """An SVG document -> uint8 ``(height, width, 3)`` pixels.

    Args:
        data: the SVG, as bytes or text.
        width, height: the canvas it must have (a problem's), or None to take its own.
        max_pixels: refuse a larger canvas before drawing (below the built-in 8192 x 8192).

    Raises:
        SvgError: one line, when the SVG is outside the limits or the supported subset;
            nothing is fetched, read or expanded on the way.
    """
    from paintkit.svg.geometry import svg_fills  # svgelements, skia: parsed on first use
    from paintkit.svg.render import render_fills  # skia: drawn on first use

    raw = check_svg(data)
    size, fills = svg_fills(raw, width=width, height=height,
                            **({} if max_pixels is None else {"max_pixels": max_pixels}))
    return render_fills(size, fills)
