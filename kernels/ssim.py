"""SSIM on Pillow luma and PSNR on RGB for uint8 images: the Numba CPU kernels behind
:mod:`paintkit.metrics.similarity` (whose docstring states the conventions; the torch path
there runs through kornia on any device).

- :func:`luma`: ``(19595 R + 38470 G + 7471 B + 32768) >> 16`` per pixel (Pillow's
  ``convert("L")``), uint8 ``(H, W)``; :func:`luma_pair` does two images at once and
  marks where they differ (:func:`changed_blocks`: per row, per block of 64 columns).
- :func:`ssim_sum`: sum of the SSIM map over the valid window positions of two luma
  images, float64, with an 11-tap Gaussian (sigma 1.5) applied separably. Windows without
  a difference are exactly 1 and only counted: per band of output rows, each run of
  changed column blocks is computed over the rows and columns its changes can reach.
  The moments are filtered as four planes, ``s = x + y``,
  ``d = x - y``, ``s²`` and ``d²`` (the SSIM terms are sums and differences of their
  means and variances), not five. Each band filters each input row horizontally into a
  ring of the last 11 filtered rows, and as soon as a window's rows are in, filters
  vertically and evaluates the SSIM of that output row: the working set stays in cache and
  each tap sum is written out (:func:`_taps`) so the pixel loops vectorise (float64
  throughout, so no cancellation in ``E[x²] - μ²``).
- :func:`squared_error_sum`: exact int64 sum of squared channel differences.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

__all__ = ["changed_blocks", "gaussian_window", "luma", "luma_pair", "squared_error_sum",
           "ssim_sum"]

_WINDOW = 11  # the kernel is written out for 11 taps
# Output rows per work item, fixed (the sum order, hence the last bit, never depends on the
# thread count); each band re-filters the 10 rows above it, so bands are not small.
_BAND = 128
_BLOCK = 64  # columns per block of the change map


def gaussian_window(size: int = 11, sigma: float = 1.5) -> np.ndarray:
    """Normalised sampled Gaussian, float64 ``(size,)`` (kornia's and scipy's window)."""
    x = np.arange(size, dtype=np.float64) - (size - 1) / 2
    w = np.exp(-(x * x) / (2 * sigma * sigma))
    return w / w.sum()


@njit(parallel=True, cache=True)
def _luma(rgb, out):
    for i in prange(rgb.shape[0]):
        for j in range(rgb.shape[1]):
            out[i, j] = (np.int32(rgb[i, j, 0]) * 19595 + np.int32(rgb[i, j, 1]) * 38470
                         + np.int32(rgb[i, j, 2]) * 7471 + 32768) >> 16


def luma(rgb: np.ndarray) -> np.ndarray:
    """Pillow's 8-bit luma of a uint8 ``(H, W, 3)`` image: uint8 ``(H, W)``."""
    if rgb.dtype != np.uint8 or rgb.ndim != 3 or rgb.shape[2] != 3:
        raise ValueError(f"rgb: expected a uint8 (H, W, 3) image, got {rgb.dtype} {rgb.shape}")
    out = np.empty(rgb.shape[:2], np.uint8)
    _luma(np.ascontiguousarray(rgb), out)
    return out


@njit(inline="always", cache=True)
def _taps(w, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10):
    """One 11-tap weighted sum, written out so the pixel loop around it vectorises; ``w``
    is a tuple of 11 floats (scalars: stores to the row buffers cannot alias them)."""
    return (w[0] * p0 + w[1] * p1 + w[2] * p2 + w[3] * p3 + w[4] * p4 + w[5] * p5
            + w[6] * p6 + w[7] * p7 + w[8] * p8 + w[9] * p9 + w[10] * p10)


@njit(inline="always", cache=True)
def _ssim_box(x, y, win, c1, c2, ra, rb, j0, j1):
    """Sum of the SSIM map over output rows ``ra .. rb - 1`` and columns ``j0 .. j1 - 1``
    (input rows ``ra .. rb + 9``, columns ``j0 .. j1 + 9``)."""
    n = j1 - j0
    w = (win[0], win[1], win[2], win[3], win[4], win[5], win[6], win[7], win[8], win[9],
         win[10])
    planes = np.empty((4, n + _WINDOW - 1))
    ring = np.empty((_WINDOW, 4, n))  # horizontally filtered rows, by row % 11
    moments = np.empty((4, n))
    values = np.empty(n)
    total = 0.0
    for r in range(ra, rb + _WINDOW - 1):
        for j in range(n + _WINDOW - 1):
            a = np.float64(x[r, j0 + j])
            b = np.float64(y[r, j0 + j])
            total_ab = a + b
            diff_ab = a - b
            planes[0, j] = total_ab
            planes[1, j] = diff_ab
            planes[2, j] = total_ab * total_ab
            planes[3, j] = diff_ab * diff_ab
        filtered = ring[r % _WINDOW]
        for c in range(4):
            p = planes[c]
            q = filtered[c]
            for j in range(n):
                q[j] = _taps(w, p[j], p[j + 1], p[j + 2], p[j + 3], p[j + 4], p[j + 5],
                             p[j + 6], p[j + 7], p[j + 8], p[j + 9], p[j + 10])
        top = r - _WINDOW + 1  # the output row whose window ends at row r
        if top < ra:
            continue
        s0, s1, s2 = ring[top % _WINDOW], ring[(top + 1) % _WINDOW], ring[(top + 2) % _WINDOW]
        s3, s4 = ring[(top + 3) % _WINDOW], ring[(top + 4) % _WINDOW]
        s5, s6 = ring[(top + 5) % _WINDOW], ring[(top + 6) % _WINDOW]
        s7, s8 = ring[(top + 7) % _WINDOW], ring[(top + 8) % _WINDOW]
        s9, s10 = ring[(top + 9) % _WINDOW], ring[(top + 10) % _WINDOW]
        for c in range(4):
            q = moments[c]
            for j in range(n):
                q[j] = _taps(w, s0[c, j], s1[c, j], s2[c, j], s3[c, j], s4[c, j],
                             s5[c, j], s6[c, j], s7[c, j], s8[c, j], s9[c, j], s10[c, j])
        for j in range(n):
            # With s = x + y and d = x - y: 2 mx my = (ms² - md²) / 2,
            # mx² + my² = (ms² + md²) / 2, 2 cov = (vs - vd) / 2, vx + vy = (vs + vd) / 2.
            ms2 = moments[0, j] * moments[0, j]
            md2 = moments[1, j] * moments[1, j]
            vs = moments[2, j] - ms2
            vd = moments[3, j] - md2
            values[j] = ((0.5 * (ms2 - md2) + c1) * (0.5 * (vs - vd) + c2)) / (
                (0.5 * (ms2 + md2) + c1) * (0.5 * (vs + vd) + c2))
        for j in range(n):  # kept apart: the loop above vectorises, this sum cannot
            total += values[j]
    return total


@njit(parallel=True, cache=True)
def _ssim_bands(x, y, blocks, win, c1, c2, sums):
    out_h = x.shape[0] - _WINDOW + 1
    out_w = x.shape[1] - _WINDOW + 1
    n_blocks = blocks.shape[1]
    for band in prange(sums.shape[0]):
        r0 = band * _BAND
        r1 = min(out_h, r0 + _BAND)
        # Column blocks with a changed pixel in the band's input rows (r0 .. r1 + 9). Each
        # run of such blocks is computed over the rows and columns whose windows can see
        # one of its changes; every other position has SSIM exactly 1 (x == y on the
        # whole window) and is counted.
        active = np.zeros(n_blocks, np.bool_)
        for r in range(r0, r1 + _WINDOW - 1):
            for b in range(n_blocks):
                active[b] = active[b] or blocks[r, b]
        total = 0.0
        computed = 0
        b = 0
        while b < n_blocks:
            if not active[b]:
                b += 1
                continue
            e = b
            while e + 1 < n_blocks and active[e + 1]:
                e += 1
            first_row = r1 + _WINDOW
            last_row = -1
            for r in range(r0, r1 + _WINDOW - 1):
                for k in range(b, e + 1):
                    if blocks[r, k]:
                        first_row = min(first_row, r)
                        last_row = r
                        break
            ra = max(r0, first_row - _WINDOW + 1)
            rb = min(r1, last_row + 1)
            j0 = max(0, b * _BLOCK - _WINDOW + 1)
            j1 = min(out_w, (e + 1) * _BLOCK)
            total += _ssim_box(x, y, win, c1, c2, ra, rb, j0, j1)
            computed += (rb - ra) * (j1 - j0)
            b = e + 1
        sums[band] = total + np.float64((r1 - r0) * out_w - computed)


@njit(parallel=True, cache=True)
def _changed_blocks(x, y, blocks):
    w = x.shape[1]
    for i in prange(x.shape[0]):
        for b in range(blocks.shape[1]):
            diff = 0
            for j in range(b * _BLOCK, min(w, (b + 1) * _BLOCK)):  # an OR, so it vectorises
                diff |= np.int32(x[i, j]) ^ np.int32(y[i, j])
            blocks[i, b] = diff != 0


def changed_blocks(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Where two ``(h, w)`` images differ, per row and block of 64 columns: bool
    ``(h, ceil(w / 64))``."""
    if x.shape != y.shape or x.ndim != 2:
        raise ValueError(f"x, y: expected two (h, w) images of one shape, got {x.shape} and "
                         f"{y.shape}")
    blocks = np.empty((x.shape[0], -(-x.shape[1] // _BLOCK)), np.bool_)
    _changed_blocks(np.ascontiguousarray(x), np.ascontiguousarray(y), blocks)
    return blocks


@njit(parallel=True, cache=True)
def _luma_pair(rgb_x, rgb_y, x, y, blocks):
    w = x.shape[1]
    for i in prange(x.shape[0]):
        for b in range(blocks.shape[1]):
            diff = np.int32(0)
            for j in range(b * _BLOCK, min(w, (b + 1) * _BLOCK)):
                lx = (np.int32(rgb_x[i, j, 0]) * 19595 + np.int32(rgb_x[i, j, 1]) * 38470
                      + np.int32(rgb_x[i, j, 2]) * 7471 + 32768) >> 16
                ly = (np.int32(rgb_y[i, j, 0]) * 19595 + np.int32(rgb_y[i, j, 1]) * 38470
                      + np.int32(rgb_y[i, j, 2]) * 7471 + 32768) >> 16
                x[i, j] = lx
                y[i, j] = ly
                diff |= lx ^ ly  # an OR, not a branch, so the loop vectorises
            blocks[i, b] = diff != 0


def luma_pair(rgb_x: np.ndarray, rgb_y: np.ndarray):
    """:func:`luma` of two uint8 ``(H, W, 3)`` images and their :func:`changed_blocks`, in
    one pass: ``(x, y, blocks)``."""
    for name, rgb in (("rgb_x", rgb_x), ("rgb_y", rgb_y)):
        if rgb.dtype != np.uint8 or rgb.ndim != 3 or rgb.shape[2] != 3:
            raise ValueError(f"{name}: expected a uint8 (H, W, 3) image, got {rgb.dtype} "
                             f"{rgb.shape}")
    if rgb_x.shape != rgb_y.shape:
        raise ValueError(f"rgb_x, rgb_y: expected one shape, got {rgb_x.shape} and "
                         f"{rgb_y.shape}")
    x = np.empty(rgb_x.shape[:2], np.uint8)
    y = np.empty(rgb_x.shape[:2], np.uint8)
    blocks = np.empty((rgb_x.shape[0], -(-rgb_x.shape[1] // _BLOCK)), np.bool_)
    _luma_pair(np.ascontiguousarray(rgb_x), np.ascontiguousarray(rgb_y), x, y, blocks)
    return x, y, blocks


def ssim_sum(x: np.ndarray, y: np.ndarray, c1: float, c2: float,
             window: np.ndarray | None = None, changed=None) -> tuple[float, int]:
    """Sum of the SSIM map of two luma images ``(h, w)`` (any real dtype) over the window
    positions inside them, and the number of positions. ``window`` (11 weights) defaults to
    :func:`gaussian_window`; ``c1``, ``c2`` are the stabilising constants. ``changed``:
    :func:`changed_blocks` of ``x, y`` if the caller has it.

    Positions whose window holds no differing pixel have SSIM exactly 1 (numerator and
    denominator are the same float expression) and are counted, not computed: per band of
    rows, only the rows and columns near each run of changed 64-column blocks are
    filtered."""
    win = gaussian_window() if window is None else np.asarray(window, np.float64)
    if win.shape != (_WINDOW,):
        raise ValueError(f"window: expected {_WINDOW} weights, got shape {win.shape}")
    if x.shape != y.shape or x.ndim != 2:
        raise ValueError(f"x, y: expected two (h, w) images of one shape, got {x.shape} and "
                         f"{y.shape}")
    out_h, out_w = x.shape[0] - _WINDOW + 1, x.shape[1] - _WINDOW + 1
    if out_h < 1 or out_w < 1:
        raise ValueError(f"x: expected at least {_WINDOW}x{_WINDOW} px, got {x.shape}")
    x, y = np.ascontiguousarray(x), np.ascontiguousarray(y)
    blocks = changed_blocks(x, y) if changed is None else np.asarray(changed, np.bool_)
    if blocks.shape != (x.shape[0], -(-x.shape[1] // _BLOCK)):
        raise ValueError(f"changed: expected changed_blocks(x, y), shape "
                         f"{(x.shape[0], -(-x.shape[1] // _BLOCK))}, got {blocks.shape}")
    sums = np.zeros(math.ceil(out_h / _BAND))
    _ssim_bands(x, y, blocks, win, float(c1), float(c2), sums)
    return float(sums.sum()), out_h * out_w


@njit(parallel=True, cache=True)
def _sse_rows(a, b, rows):
    for i in prange(a.shape[0]):
        acc = np.int64(0)
        for j in range(a.shape[1]):
            d = np.int64(a[i, j]) - np.int64(b[i, j])
            acc += d * d
        rows[i] = acc


def squared_error_sum(a: np.ndarray, b: np.ndarray) -> int:
    """Exact sum of squared differences of two uint8 arrays of one shape (int)."""
    if a.shape != b.shape or a.dtype != np.uint8 or b.dtype != np.uint8:
        raise ValueError(f"a, b: expected uint8 arrays of one shape, got {a.dtype} {a.shape} "
                         f"and {b.dtype} {b.shape}")
    flat_a = np.ascontiguousarray(a).reshape(a.shape[0] if a.ndim > 1 else 1, -1)
    flat_b = np.ascontiguousarray(b).reshape(flat_a.shape)
    rows = np.zeros(flat_a.shape[0], np.int64)
    _sse_rows(flat_a, flat_b, rows)
    return int(rows.sum())
