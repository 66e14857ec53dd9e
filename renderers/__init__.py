"""paintkit.renderers: Scene -> exact pixels.

Installed as ``paintkit.renderers``. Imports only :mod:`paintkit.kernels` and the scene data
types (:mod:`paintkit.scene`, :mod:`paintkit.shapes`).

- :func:`render`: scene -> uint8 ``(H, W, 3)``, no anti-aliasing (Skia);
- :func:`render_rgba`: the same into this thread's shared RGBA buffer;
- :func:`render_mask`: bool ``(H, W)`` of the pixels one element paints alone.
"""

from paintkit.renderers.skia_scene import draw_element, render, render_mask, render_rgba

__all__ = ["draw_element", "render", "render_mask", "render_rgba"]
