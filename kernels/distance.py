"""Exact Euclidean distance from every pixel to a mask.

Definition: for a bool mask ``(H, W)`` with at least one True pixel, the squared distance
of pixel ``(i, j)`` is ``min over True pixels (k, l) of (i - k)**2 + (j - l)**2`` (an exact
integer: distances between pixel centers, in px), and the distance is ``sqrt`` of it in
float64 (0 on the mask). ``within_distance(mask, radius)`` is the ring of pixels with
``0 < d <= radius``, decided exactly on integers: ``d2 <= floor(radius**2)`` with
``radius**2`` evaluated exactly (``fractions.Fraction``), so no float rounding moves a pixel
in or out of the ring.

Algorithm (Numba, CPU): Felzenszwalb & Huttenlocher's separable squared EDT, all in int64.
Pass 1 scans each column for the nearest True pixel above/below (``g = dy**2``); pass 2
takes, per row, the lower envelope of the parabolas ``g[q] + (x - q)**2``. The envelope's
breakpoints ``s = ((g[q] + q**2) - (g[p] + p**2)) / (2 (q - p))`` are kept as integer
fractions and compared by cross-multiplication, so the result is exact (no float ties).
Cost O(H W) on the window it runs over.

Windows: ``distance_to_mask(mask, roi=...)`` computes only inside ``roi = (top, left,
bottom, right)`` (half-open: rows ``top..bottom-1``, cols ``left..right-1``), which must
contain every True pixel (then values inside are exact); outside it the result is +inf.
``within_distance`` picks its window itself: the mask's bounding box grown by
``ceil(radius)``, outside of which no pixel can be within ``radius``.

No torch version: answers are computed on CPU in the task generators, where this runs in a
few ms on a window; the envelope pass is a sequential stack per row, and the data-parallel
alternative (min-plus over all pairs, O(H W (H + W))) would cost more than it saves.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numba
import numpy as np

from ._validate import check_mask

__all__ = ["FAR", "distance_to_mask", "squared_distance_to_mask", "within_distance"]

FAR = np.iinfo(np.int64).max
"""Squared distance reported outside the window (no mask pixel considered there)."""


@numba.njit(cache=True)
def _column_pass(mask, far):
    """Squared vertical distance to the nearest True pixel in the same column, or ``far``.
    Sweeps rows (not columns) with per-column state, to walk memory in order."""
    h, w = mask.shape
    g = np.empty((h, w), np.int64)
    last = np.full(w, -1, np.int64)
    for i in range(h):  # distance to the nearest True pixel above (or at) i
        for j in range(w):
            if mask[i, j]:
                last[j] = i
            g[i, j] = i - last[j] if last[j] >= 0 else -1
    last[:] = -1
    for i in range(h - 1, -1, -1):  # ... or below, whichever is nearer; then square
        for j in range(w):
            if mask[i, j]:
                last[j] = i
            d = g[i, j]
            if last[j] >= 0 and (d < 0 or last[j] - i < d):
                d = last[j] - i
            g[i, j] = d * d if d >= 0 else far
    return g


@numba.njit(cache=True)
def _row_envelope(f, out, far, v, zn, zd):
    """out[x] = min_q f[q] + (x - q)**2 over q with f[q] < far (all int64, exact)."""
    n = f.shape[0]
    k = -1
    for q in range(n):
        if f[q] >= far:
            continue
        if k < 0:
            k = 0
            v[0] = q
            continue
        while True:
            p = v[k]
            sn = (f[q] + q * q) - (f[p] + p * p)
            sd = 2 * (q - p)
            # drop parabola k while the new breakpoint s <= z[k] (z[0] is -inf)
            if k > 0 and sn * zd[k] <= zn[k] * sd:
                k -= 1
            else:
                break
        k += 1
        v[k] = q
        zn[k] = sn
        zd[k] = sd
    if k < 0:
        for x in range(n):
            out[x] = far
        return
    j = 0
    for x in range(n):
        while j < k and zn[j + 1] < x * zd[j + 1]:  # breakpoint z[j + 1] < x
            j += 1
        d = x - v[j]
        out[x] = d * d + f[v[j]]


@numba.njit(cache=True)
def _squared_edt(mask, far):
    h, w = mask.shape
    g = _column_pass(mask, far)
    out = np.empty((h, w), np.int64)
    v = np.empty(w, np.int64)
    zn = np.empty(w, np.int64)
    zd = np.empty(w, np.int64)
    for i in range(h):
        _row_envelope(g[i], out[i], far, v, zn, zd)
    return out


@numba.njit(cache=True)
def _sqrt_or_inf(d2, far):
    out = np.empty(d2.shape, np.float64)
    for i in range(d2.shape[0]):
        for j in range(d2.shape[1]):
            out[i, j] = np.sqrt(np.float64(d2[i, j])) if d2[i, j] != far else np.inf
    return out


def _check_roi(roi, mask: np.ndarray) -> tuple[int, int, int, int]:
    h, w = mask.shape
    try:
        values = list(roi)
    except TypeError:
        values = None
    if (
        values is None
        or len(values) != 4
        or any(isinstance(v, bool) or not isinstance(v, numbers.Integral) for v in values)
        or not (0 <= values[0] < values[2] <= h and 0 <= values[1] < values[3] <= w)
    ):
        raise ValueError(
            "roi must be 4 ints (top, left, bottom, right) with 0 <= top < bottom <= "
            f"{h} and 0 <= left < right <= {w}; got {roi!r}"
        )
    top, left, bottom, right = (int(v) for v in values)
    if int(np.count_nonzero(mask[top:bottom, left:right])) != int(np.count_nonzero(mask)):
        raise ValueError(
            f"roi {roi!r} must contain every True pixel of mask (else distances inside it "
            "would miss nearer mask pixels); grow it to cover the mask's bounding box"
        )
    return top, left, bottom, right


def squared_distance_to_mask(mask: np.ndarray, roi=None) -> np.ndarray:
    """Exact squared Euclidean distance (px**2) to the nearest True pixel of ``mask``.

    Args:
        mask: bool ``(H, W)`` with at least one True pixel.
        roi: optional window ``(top, left, bottom, right)`` (half-open) containing every
            True pixel; only pixels inside are computed.

    Returns:
        int64 ``(H, W)``: 0 on the mask, :data:`FAR` outside ``roi``.
    """
    check_mask("mask", mask, nonempty=True)
    if roi is None:
        return _squared_edt(np.ascontiguousarray(mask), FAR)
    top, left, bottom, right = _check_roi(roi, mask)
    out = np.full(mask.shape, FAR, np.int64)
    out[top:bottom, left:right] = _squared_edt(
        np.ascontiguousarray(mask[top:bottom, left:right]), FAR
    )
    return out


def distance_to_mask(mask: np.ndarray, roi=None) -> np.ndarray:
    """Exact Euclidean distance (px, float64 ``(H, W)``) from every pixel center to the
    nearest True pixel center of ``mask`` (bool ``(H, W)``, non-empty): 0 on the mask,
    ``+inf`` outside ``roi`` when one is given (see :func:`squared_distance_to_mask`).

    Example:
        >>> m = np.zeros((1, 4), bool); m[0, 0] = True
        >>> distance_to_mask(m).tolist()
        [[0.0, 1.0, 2.0, 3.0]]
    """
    return _sqrt_or_inf(squared_distance_to_mask(mask, roi), FAR)


def within_distance(mask: np.ndarray, radius: float) -> np.ndarray:
    """Ring of pixels outside ``mask`` within ``radius`` px of it: ``0 < d <= radius``.

    Args:
        mask: bool ``(H, W)`` with at least one True pixel.
        radius: finite real >= 0, in px (pixel-center distance).

    Returns:
        bool ``(H, W)``. Computed on the mask's bounding box grown by ``ceil(radius)``.
    """
    h, w = check_mask("mask", mask, nonempty=True)
    if (
        isinstance(radius, bool)
        or not isinstance(radius, numbers.Real)
        or not math.isfinite(float(radius))
        or radius < 0
    ):
        raise ValueError(f"radius must be a finite real >= 0 (px); got {radius!r}")
    limit = math.floor(Fraction(radius) ** 2)  # d2 <= radius**2  <=>  d2 <= floor(radius**2)
    rows = np.flatnonzero(mask.any(axis=1))
    cols = np.flatnonzero(mask.any(axis=0))
    grow = math.ceil(radius)
    top, bottom = max(0, rows[0] - grow), min(h, rows[-1] + 1 + grow)
    left, right = max(0, cols[0] - grow), min(w, cols[-1] + 1 + grow)
    d2 = _squared_edt(np.ascontiguousarray(mask[top:bottom, left:right]), FAR)
    ring = np.zeros((h, w), bool)
    ring[top:bottom, left:right] = (d2 > 0) & (d2 <= limit)
    return ring
