"""Decode a scene's *code render* in one pass: which element each pixel shows, each
element's area and box, and whether a stored image is exactly what the scene paints.

A code render draws the scene with every colour replaced by a code (element index ``k``,
0-based: its fill, or a line's colour, is code ``2k + 1``; its stroke ``2k + 2``) on a
background of code 0, into an RGBA buffer whose pixels, read as little-endian uint32, hold
the code in their low 24 bits. Coverage does not depend on colour (aliased, opaque drawing),
so the codes are exactly where each fill and stroke shows, and the real image follows by
lookup: ``palette[code]`` for ``code > 0``, the background's pixel for 0. Checking a stored
image against its scene therefore needs no second, colour render.

Numba, parallel over row bands; each band counts areas and boxes apart, summed after.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

__all__ = ["decode_codes", "index_dtype", "renders_exactly"]

_MAX_BANDED_LABELS = 1 << 16  # above this, one band: per-band tables would grow too big


@njit(inline="always", cache=True)
def _packed(image, i, j):
    return (np.uint32(image[i, j, 0]) | (np.uint32(image[i, j, 1]) << np.uint32(8))
            | (np.uint32(image[i, j, 2]) << np.uint32(16)))


@njit(inline="always", cache=True)
def _row_codes(words, image, palette, background, striped, check, i, index_row):
    """One row: write the element numbers (0 for a code the scene does not draw) and say
    whether the image differs from what the codes paint (or such a code is there).
    Branch-free per pixel (one loop per case), the colours compared as packed
    ``r | g << 8 | b << 16`` words."""
    w = words.shape[1]
    last = np.uint32(palette.shape[0] - 1)
    low = np.uint32(0xFFFFFF)
    one = np.uint32(1)
    zero = np.uint32(0)
    diff = np.uint32(0)
    if not check:
        for j in range(w):
            code = words[i, j] & low
            index_row[j] = (code + one) >> one if code <= last else zero
            diff |= np.uint32(code > last)
    elif not striped:  # code 0 is palette[0], the solid background
        for j in range(w):
            code = words[i, j] & low
            index_row[j] = (code + one) >> one if code <= last else zero
            diff |= np.uint32(code > last) | (palette[min(code, last)] ^ _packed(image, i, j))
    else:
        for j in range(w):
            code = words[i, j] & low
            index_row[j] = (code + one) >> one if code <= last else zero
            expected = palette[min(code, last)] if code != 0 else background[i, j] & low
            diff |= np.uint32(code > last) | (expected ^ _packed(image, i, j))
    return diff != 0


@njit(parallel=True, cache=True, nogil=True)
def _decode(words, image, palette, background, striped, check, index, area, box, bad):
    """Per row: the codes pass (:func:`_row_codes`), then the row's runs of one element,
    each counted once into the band's areas and boxes."""
    h, w = words.shape
    bands = area.shape[0]
    rows = (h + bands - 1) // bands
    for band in prange(bands):
        band_area, band_box = area[band], box[band]
        wrong = 0
        for i in range(band * rows, min(h, (band + 1) * rows)):
            row = index[i]
            wrong += _row_codes(words, image, palette, background, striped, check, i, row)
            j = 0
            while j < w:
                k = row[j]
                start = j
                j += 1
                while j < w and row[j] == k:
                    j += 1
                if k > 0:
                    if band_area[k] == 0:
                        band_box[k, 0], band_box[k, 1] = i, start
                        band_box[k, 2], band_box[k, 3] = i, j - 1
                    else:
                        band_box[k, 1] = min(band_box[k, 1], start)
                        band_box[k, 2] = i  # rows come in order within a band
                        band_box[k, 3] = max(band_box[k, 3], j - 1)
                    band_area[k] += j - start
        bad[band] = wrong


@njit(parallel=True, cache=True, nogil=True)
def _mismatched(words, image, palette, background, striped, bands):
    h, w = words.shape
    rows = (h + bands - 1) // bands
    wrong = np.zeros(bands, np.int64)
    for band in prange(bands):
        scratch = np.empty(w, np.uint32)  # the codes pass writes element numbers: unused
        for i in range(band * rows, min(h, (band + 1) * rows)):
            wrong[band] += _row_codes(words, image, palette, background, striped, True, i,
                                      scratch)
    return wrong.sum()


def _check_words(words: np.ndarray) -> np.ndarray:
    words = np.ascontiguousarray(words)
    if words.dtype != np.uint32 or words.ndim != 2:
        raise ValueError(f"words: expected uint32 (H, W), got {words.dtype} {words.shape}")
    return words


def _painting(shape: tuple, n: int, palette, background, image):
    """Checked ``(image, palette words, background words, striped)`` for the kernels."""
    h, w = shape
    if image.dtype != np.uint8 or image.shape != (h, w, 3):
        raise ValueError(f"image: expected uint8 {(h, w, 3)}, got {image.dtype} {image.shape}")
    if palette is None or background is None:
        raise ValueError("palette and background are needed to check an image")
    if palette.dtype != np.uint8 or palette.shape != (2 * n + 1, 3):
        raise ValueError(f"palette: expected uint8 {(2 * n + 1, 3)}, got {palette.dtype} "
                         f"{palette.shape}")
    if background.dtype != np.uint8 or background.ndim != 3 or background.shape[2] < 3 \
            or background.shape[:2] not in ((1, 1), (h, w)):
        raise ValueError(f"background: expected uint8 (1, 1, C) or {(h, w)} + (C,), got "
                         f"{background.dtype} {background.shape}")
    striped = background.shape[:2] != (1, 1)
    if striped:
        bg = _pack(background)
    else:  # a solid background is code 0's palette entry
        bg = np.zeros((1, 1), np.uint32)
        palette = palette.copy()
        palette[0] = background[0, 0, :3]
    return np.ascontiguousarray(image), _pack(palette[None])[0], bg, striped


def _pack(rgb: np.ndarray) -> np.ndarray:
    """uint32 ``r | g << 8 | b << 16`` of uint8 ``(..., C)``, C >= 3."""
    rgb = rgb[..., :3].astype(np.uint32)
    return np.ascontiguousarray(rgb[..., 0] | (rgb[..., 1] << 8) | (rgb[..., 2] << 16))


def renders_exactly(words: np.ndarray, n_elements: int, palette: np.ndarray,
                    background: np.ndarray, image: np.ndarray) -> bool:
    """Whether ``image`` is exactly what a code render paints (arguments as in
    :func:`decode_codes`), without decoding the footprints: checks a second image against
    a render already decoded (a scene whose elements cover the same pixels)."""
    words = _check_words(words)
    image, palette, background, striped = _painting(words.shape, int(n_elements), palette,
                                                    background, image)
    bands = max(1, min(words.shape[0], 4 * numba.get_num_threads()))
    return _mismatched(words, image, palette, background, striped, bands) == 0


def index_dtype(n_elements: int) -> type:
    """The smallest of uint8, uint16 and int32 that holds element numbers 0..n: the index
    map is written and read over whole images, so its bytes are most of the memory traffic."""
    if n_elements < 1 << 8:
        return np.uint8
    return np.uint16 if n_elements < 1 << 16 else np.int32


def decode_codes(words: np.ndarray, n_elements: int, palette: np.ndarray | None = None,
                 background: np.ndarray | None = None, image: np.ndarray | None = None):
    """Decode a code render (module docstring).

    Args:
        words: uint32 ``(H, W)``, the render's pixels (code in the low 24 bits).
        n_elements: ``n``, the scene's element count (codes run to ``2n``).
        palette: uint8 ``(2n + 1, 3)``, the colour of each code (row 0 unused); needed
            with ``image``.
        background: uint8 ``(1, 1, C)`` (a solid colour) or ``(H, W, C)`` (striped), C >= 3:
            what code 0 shows; needed with ``image``.
        image: uint8 ``(H, W, 3)`` to check, or None to decode only.

    Returns:
        ``(index, area, boxes, exact)``: ``(H, W)`` of :func:`index_dtype` (0 background,
        ``k + 1`` for element ``k``), int64 ``(n + 1,)`` pixels per element, int64
        ``(n + 1, 4)`` boxes ``(top, left, bottom, right)`` inclusive (zeros for elements
        with no pixel, row 0 unused), and whether ``image`` is exactly what the codes paint
        (True when ``image`` is None and every code is one the scene draws).
    """
    words = _check_words(words)
    h, w = words.shape
    n = int(n_elements)
    check = image is not None
    if check:
        image, palette, background, striped = _painting((h, w), n, palette, background, image)
    else:
        image, striped = np.zeros((1, 1, 3), np.uint8), False
        palette, background = np.zeros(2 * n + 1, np.uint32), np.zeros((1, 1), np.uint32)
    bands = 1 if n + 1 > _MAX_BANDED_LABELS else max(1, min(h, 4 * numba.get_num_threads()))
    index = np.empty((h, w), index_dtype(n))
    areas = np.zeros((bands, n + 1), np.int64)
    boxes = np.zeros((bands, n + 1, 4), np.int64)
    bad = np.zeros(bands, np.int64)
    _decode(words, image, palette, background, striped, check, index, areas, boxes, bad)
    return (index, *_merge(areas, boxes), int(bad.sum()) == 0)


def _merge(areas: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sum the bands' areas and join their boxes (bands without a pixel of a label left out)."""
    if areas.shape[0] == 1:
        return areas[0], boxes[0]
    present = areas > 0
    big = np.iinfo(np.int64).max
    top_left = np.where(present[..., None], boxes[..., :2], big).min(axis=0)
    bottom_right = np.where(present[..., None], boxes[..., 2:], -1).max(axis=0)
    area = areas.sum(axis=0)
    box = np.concatenate([top_left, bottom_right], axis=1)
    box[area == 0] = 0
    return area, box
