"""SSIM on Pillow luma and PSNR on RGB for uint8 images: the Numba CPU kernels behind
:mod:`paintkit.metrics.similarity` (whose docstring states the conventions; the torch path
there runs through kornia on any device).

- :func:`luma`: ``(19595 R + 38470 G + 7471 B + 32768) >> 16`` per pixel (Pillow's
  ``convert("L")``), uint8 ``(H, W)``.
- :func:`ssim_sum`: sum of the SSIM map over the valid window positions of a box of
  two luma images, float64, with an 11-tap Gaussian (sigma 1.5) applied separably. Work is
  split in bands of output rows; each band filters its rows horizontally into its own
  buffer, then vertically, taps outermost so the pixel loops vectorise (float64
  throughout, so no cancellation in ``E[x²] - μ²``).
- :func:`squared_error_sum`: exact int64 sum of squared channel differences.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

__all__ = ["gaussian_window", "luma", "squared_error_sum", "ssim_sum"]

_BAND = 64  # output rows per work item


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


@njit(parallel=True, cache=True)
def _ssim_bands(x, y, win, c1, c2, sums):
    size = win.shape[0]
    width = x.shape[1]
    out_h = x.shape[0] - size + 1
    out_w = width - size + 1
    for band in prange(sums.shape[0]):
        r0 = band * _BAND
        r1 = min(out_h, r0 + _BAND)
        rows = r1 - r0 + size - 1
        # Horizontal pass: taps outermost, pixels innermost (contiguous, so it vectorises).
        hx = np.zeros((5, rows, out_w))
        planes = np.empty((5, width))
        for r in range(rows):
            for j in range(width):
                a = np.float64(x[r0 + r, j])
                b = np.float64(y[r0 + r, j])
                planes[0, j] = a
                planes[1, j] = b
                planes[2, j] = a * a
                planes[3, j] = b * b
                planes[4, j] = a * b
            for c in range(5):
                for k in range(size):
                    wk = win[k]
                    for j in range(out_w):
                        hx[c, r, j] += wk * planes[c, j + k]
        # Vertical pass into five row accumulators, then the SSIM of each position.
        acc = np.empty((5, out_w))
        total = 0.0
        for r in range(r1 - r0):
            acc[:] = 0.0
            for c in range(5):
                for k in range(size):
                    wk = win[k]
                    for j in range(out_w):
                        acc[c, j] += wk * hx[c, r + k, j]
            for j in range(out_w):
                mx = acc[0, j]
                my = acc[1, j]
                vx = acc[2, j] - mx * mx
                vy = acc[3, j] - my * my
                cov = acc[4, j] - mx * my
                total += ((2 * mx * my + c1) * (2 * cov + c2)) / (
                    (mx * mx + my * my + c1) * (vx + vy + c2))
        sums[band] = total


def ssim_sum(x: np.ndarray, y: np.ndarray, c1: float, c2: float,
                   window: np.ndarray | None = None) -> tuple[float, int]:
    """Sum of the SSIM map of two luma images ``(h, w)`` (any real dtype) over the window
    positions inside them, and the number of positions. ``window`` defaults to
    :func:`gaussian_window`; ``c1``, ``c2`` are the stabilising constants."""
    win = gaussian_window() if window is None else np.asarray(window, np.float64)
    if x.shape != y.shape or x.ndim != 2:
        raise ValueError(f"x, y: expected two (h, w) images of one shape, got {x.shape} and "
                         f"{y.shape}")
    out_h, out_w = x.shape[0] - win.size + 1, x.shape[1] - win.size + 1
    if out_h < 1 or out_w < 1:
        raise ValueError(f"x: expected at least {win.size}x{win.size} px, got {x.shape}")
    sums = np.zeros(math.ceil(out_h / _BAND))
    _ssim_bands(np.ascontiguousarray(x), np.ascontiguousarray(y), win, float(c1), float(c2),
                sums)
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
