"""Images in requests: PNG bytes or raw uint8 with their shape, checked before decoding.

Nothing lossy is accepted: a PNG (any bit depth and colour type Pillow reads, alpha dropped
as the metric does, docs/metric-definition.md §1) or raw RGB bytes ``(H, W, 3)`` row-major.
The declared size (PNG header, raw shape) is checked against the service's pixel limit and,
unless a ``fit`` is asked for, against the answer's size, before a pixel is decoded: a
decompression bomb or an image of the wrong size costs nothing.
"""

from __future__ import annotations

import base64
import binascii
import sys

import numpy as np

from paintkit.io.images import ImageDecodeError, decode_rgb_bytes, png_header


class ImageRefused(ValueError):
    """An image that is not scored (wrong size, too large, malformed): one line saying why."""


def from_base64(text: str, where: str) -> bytes:
    """The bytes of a base64 ``text`` (standard alphabet, padded); anything else refused."""
    try:
        if sys.version_info >= (3, 11):  # checked in C as it decodes
            return binascii.a2b_base64(text, strict_mode=True)
        return base64.b64decode(text, validate=True)  # pragma: no cover - Python 3.10
    except (binascii.Error, ValueError) as exc:
        raise ImageRefused(f"{where}: image is not valid base64: {exc}") from None


def svg_pixels(text: str, where: str, max_pixels: int) -> np.ndarray:
    """uint8 ``(H, W, 3)`` of an SVG item (:func:`paintkit.svg.render_svg`: checked on its
    bytes, its canvas at most ``max_pixels``, before anything is drawn)."""
    from paintkit.svg import SvgError, render_svg  # skia, svgelements: SVG items

    try:
        return render_svg(text, max_pixels=max_pixels)
    except SvgError as exc:
        raise ImageRefused(f"{where}: SVG output: {exc}") from None


def state_pixels(state: dict, where: str, max_pixels: int) -> np.ndarray:
    """uint8 ``(H, W, 3)`` of a chart-state item, drawn by the chart renderer after its
    bounds are checked (:func:`paintkit.tinygrafix.state_output.check_output_state`); its
    canvas is the renderer's own (1024 x 768)."""
    from paintkit.tinygrafix.state_output import (  # matplotlib: chart-state items only
        StateError,
        render_output_state,
    )

    try:
        return render_output_state(state, None, None)[0]
    except StateError as exc:
        raise ImageRefused(f"{where}: chart-state output: {exc}") from None


def declared_size(data: bytes, shape, where: str) -> tuple[int, int]:
    """``(W, H)`` an image says it has: from its PNG header, or from the raw ``shape``
    ``(H, W, 3)`` (then ``data`` must hold exactly ``H * W * 3`` bytes)."""
    if shape is None:
        try:
            header = png_header(data, where)
        except ImageDecodeError as exc:
            raise ImageRefused(str(exc)) from None
        if header is None:
            raise ImageRefused(f"{where}: not a PNG (images travel as PNG bytes, or as raw "
                               f"uint8 with their shape)")
        return header[0], header[1]
    if not isinstance(shape, list | tuple) or len(shape) != 3 or shape[2] != 3 or \
            not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in shape):
        raise ImageRefused(f"{where}: shape must be [H, W, 3] (positive ints), got {shape!r}")
    height, width, _ = shape
    if len(data) != height * width * 3:
        raise ImageRefused(f"{where}: shape {height}x{width}x3 needs {height * width * 3} bytes, "
                           f"got {len(data)}")
    return width, height


def check_size(size: tuple[int, int], answer: tuple[int, int], fit: str, max_pixels: int,
               where: str) -> None:
    """Refuse an image over ``max_pixels``, or of another size than its answer (``fit``
    ``"exact"``), naming both sizes."""
    width, height = size
    if width * height > max_pixels:
        raise ImageRefused(f"{where}: {width}x{height} = {width * height} pixels exceeds the "
                           f"service's limit of {max_pixels}; refused before decoding")
    if fit == "exact" and (width, height) != tuple(answer):
        raise ImageRefused(f"{where}: image is {width}x{height} but the answer is "
                           f"{answer[0]}x{answer[1]} (send the answer's size, or ask for "
                           f"fit 'cover' or 'stretch')")


def decode(data: bytes, shape, where: str, max_pixels: int) -> np.ndarray:
    """uint8 ``(H, W, 3)`` pixels of an image whose size was checked; the decoder refuses
    anything over ``max_pixels`` again from what it reads (the service's limit, never the
    decoder's own larger default)."""
    if shape is not None:
        return np.frombuffer(data, dtype=np.uint8).reshape(shape)
    try:
        return decode_rgb_bytes(data, where, max_pixels, "the service's --max-pixels")
    except ImageDecodeError as exc:
        raise ImageRefused(str(exc)) from None
