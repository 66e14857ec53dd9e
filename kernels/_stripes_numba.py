"""Numba CPU passes behind :mod:`paintkit.kernels.stripes` (imported lazily: numba is slow to
import and solid backgrounds never need it).

Each pass takes the per-``s`` boundary displacement ``disp`` (1-D float64, px) computed once
by the caller and evaluates, per pixel, ``v = (d + disp[k]) / band_width`` and the parity of
``floor(v)`` in exactly the float64 operation order that the module docstring of
``stripes`` defines. ``layout`` selects how (row i, col j) map to ``d`` and to the index
``k`` of ``s``:

- 0 (0 deg):  ``d = i + 0.5``,              ``k = j``
- 1 (45 deg): ``d = SQRT_HALF * (i - j)``,  ``k = i + j``
- 2 (90 deg): ``d = -(j + 0.5)``,           ``k = i``

All passes are serial (no ``prange``): one core per canvas, parallelism across canvases.
"""

from __future__ import annotations

import math

import numba
import numpy as np

SQRT_HALF = math.sqrt(0.5)  # cos 45 deg = sin 45 deg, correctly rounded float64


@numba.njit(cache=True, inline="always")
def _holdout_row(parity, i, layout, disp, band_width):
    """Write into ``parity`` (W,) uint8 whether each pixel of row ``i`` is in band 1."""
    width = parity.shape[0]
    if layout == 0:
        d = i + 0.5
        for j in range(width):
            k = math.floor((d + disp[j]) / band_width)
            parity[j] = k - 2.0 * math.floor(0.5 * k) == 1.0
    elif layout == 1:
        for j in range(width):
            k = math.floor((SQRT_HALF * (i - j) + disp[i + j]) / band_width)
            parity[j] = k - 2.0 * math.floor(0.5 * k) == 1.0
    else:
        shift = disp[i]
        for j in range(width):
            k = math.floor((-(j + 0.5) + shift) / band_width)
            parity[j] = k - 2.0 * math.floor(0.5 * k) == 1.0


@numba.njit(cache=True)
def band_mask(mask, layout, disp, band_width):
    """Fill ``mask`` (H, W) uint8 with 1 where the holdout band is, else 0."""
    for i in range(mask.shape[0]):
        _holdout_row(mask[i], i, layout, disp, band_width)
    return mask


@numba.njit(cache=True)
def paint_rgb(out, color, holdout, layout, disp, band_width):
    """Paint ``out`` (H, W, 3) uint8 with ``color`` / ``holdout`` ((3,) uint8) bands."""
    height, width = out.shape[0], out.shape[1]
    parity = np.empty(width, np.uint8)
    r0, g0, b0 = color[0], color[1], color[2]
    r1, g1, b1 = holdout[0], holdout[1], holdout[2]
    for i in range(height):
        # Parity first, bytes second: the float loop vectorises, the byte loop stays simple.
        _holdout_row(parity, i, layout, disp, band_width)
        row = out[i]
        for j in range(width):
            if parity[j]:
                row[j, 0] = r1
                row[j, 1] = g1
                row[j, 2] = b1
            else:
                row[j, 0] = r0
                row[j, 1] = g0
                row[j, 2] = b0
    return out


@numba.njit(cache=True)
def paint_packed(out, color, holdout, layout, disp, band_width):
    """Paint ``out`` (H, W) uint32, one packed RGBA pixel per word, with two packed colors."""
    height, width = out.shape
    parity = np.empty(width, np.uint8)
    for i in range(height):
        _holdout_row(parity, i, layout, disp, band_width)
        row = out[i]
        for j in range(width):
            row[j] = holdout if parity[j] else color
    return out
