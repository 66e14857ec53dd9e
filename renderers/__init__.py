"""paintkit.renderers: Scene -> exact pixels.

Installed as ``paintkit.renderers``. Imports only :mod:`paintkit.kernels` and the scene data
types (:mod:`paintkit.scene`, :mod:`paintkit.shapes`).

- :func:`render`: scene -> uint8 ``(H, W, 3)``, no anti-aliasing (Skia);
- :func:`render_rgba`: the same into this thread's shared RGBA buffer;
- :func:`render_window`: a window of :func:`render`, drawn only there;
- :func:`render_mask`: bool ``(H, W)`` of the pixels one element paints alone;
- :func:`render_codes`: uint32 ``(H, W)``, which element's fill or stroke each pixel shows;
- :func:`render_background`: the background alone, RGBA.
"""

from paintkit.renderers.skia_scene import (
    MAX_CODED_ELEMENTS,
    coverage_key,
    draw_element,
    render,
    render_background,
    render_codes,
    render_mask,
    render_rgba,
    render_window,
)

__all__ = ["MAX_CODED_ELEMENTS", "coverage_key", "draw_element", "render", "render_background",
           "render_codes", "render_mask", "render_rgba", "render_window"]
