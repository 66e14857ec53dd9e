"""The bins and thresholds of every counting kernel, defined once (docs/metric-definition.md §4-6).

A pixel's ``ΔE`` lands in one of :data:`NUM_BINS` bins, ``min(ceil(ΔE), 11)``: ``ΔE <= 0``,
``<= 1``, ..., ``<= 10`` and "above 10". A problem's histogram is int64 ``(3, NUM_BINS)``:
row :data:`HIST_EDIT` bins ``ΔE(O, A)`` over the edit region ``E``, row
:data:`HIST_PRESERVATION` the same over the preservation region ``P`` and row
:data:`HIST_CHANGED` bins ``ΔE(O, I)`` over all pixels. A pixel is correct at tolerance ``t``
iff ``ceil(ΔE) <= t``, so cumulative sums give every count of the 11 tolerances at once
(:func:`counts_from_histograms`).

The kernels that bin ``ΔE²`` without a square root (torch, CUDA) compare it with
:data:`BIN_THRESHOLDS`; the fast Numba kernel sets aside the pixels within
:data:`GUARD_BAND` of a tolerance and recounts them with the canonical arithmetic.

**Guard band.** The guard band that makes the fast Numba kernel's counts canonical.

The metric's L*a*b* is the canonical arithmetic of docs/metric-definition.md §3
(:mod:`paintkit.kernels.color.lab_canonical`): float64 basic operations, about 150 per colour.
The Numba counting kernel computes a *fast* Lab instead (float32, a bit-trick cube root and a
matrix pre-divided by the white point, ~10x cheaper and vectorised). On every one of the
16,777,216 8-bit colours the fast Lab lies within :data:`MAX_FAST_LAB_ERROR` (Euclidean) of
the canonical Lab, and distinct colours never share a fast Lab value (both checked by
``tests/metrics/test_exact_counts.py``). So a fast ``ΔE`` is within
``2 * MAX_FAST_LAB_ERROR`` (plus a few float32 ulps) of the canonical ``ΔE``, and ``ceil``
can only differ when an integer lies in between.

**Guard band rule.** A pixel whose fast ``ΔE`` (to the answer or to the input) lies within
:data:`GUARD_BAND` of an integer tolerance ``t in 1..10`` is not counted by the fast path;
its two ΔE are recomputed with the canonical arithmetic
(:func:`~paintkit.kernels.color.lab_canonical.canonical_bins`) and counted from those. The band is
1e-3, five times the worst fast error; pixels near ``t = 0`` need no band (a fast ``ΔE`` of
exactly 0 means identical colours, distinct colours are at least 0.02 apart), nor pixels
near 11 and above (all counted as "more than 10"). Counts then equal the canonical ones bit
for bit. About 0.2 % of the pixels with ``0 < ΔE < 10.5`` fall in the band.
"""

from __future__ import annotations

import numpy as np

__all__ = ["BIN_THRESHOLDS", "GUARD_BAND", "HIST_CHANGED", "HIST_EDIT", "HIST_PRESERVATION",
           "MAX_FAST_LAB_ERROR", "NUM_BINS", "NUM_TOLERANCES", "counts_from_histograms"]

#: Tolerances t = 0, 1, ..., 10.
NUM_TOLERANCES = 11
#: Bins per comparison: ``ceil(ΔE)`` = 0..10, and 11 for ``ΔE > 10``.
NUM_BINS = NUM_TOLERANCES + 1
#: The rows of a problem's ``(3, NUM_BINS)`` histogram.
HIST_EDIT, HIST_PRESERVATION, HIST_CHANGED = 0, 1, 2
#: Half-width of the band around each integer tolerance 1..10 recomputed exactly.
GUARD_BAND = 1e-3
#: Largest Euclidean distance between fast and canonical Lab over all 8-bit colours
#: (measured 7.8e-5; rounded up).
MAX_FAST_LAB_ERROR = 1e-4


def _bin_thresholds():
    """float32 ``(11,)``: ``T_t``, the largest float32 ``x`` with ``sqrt(x) <= t`` (IEEE
    float32 square root, correctly rounded), t = 0..10. ``ΔE <= t`` iff ``ΔE² <= T_t``: the
    bins follow from ``ΔE²`` alone, so no library square root (torch's CPU ``sqrt`` is off by
    an ulp on ~0.7 % of inputs on AVX-512 machines) can move a count."""
    thresholds = []
    for t in range(NUM_TOLERANCES):
        x = np.float32(t * t)
        while np.sqrt(np.nextafter(x, np.float32(np.inf))) <= t:
            x = np.nextafter(x, np.float32(np.inf))
        thresholds.append(x)
    return np.array(thresholds, np.float32)


BIN_THRESHOLDS = _bin_thresholds()


def counts_from_histograms(hist):
    """Tolerance counts from ``(B, 3, 12)`` histograms, in the histograms' type (NumPy array
    or torch tensor; NumPy never touches torch).

    Returns a dict of ``edit_pixels`` ``(B,)``, ``preservation_pixels`` ``(B,)`` and, each
    ``(B, 11)`` for t = 0..10, ``edit_correct`` (CE_t), ``preservation_correct`` (CP_t)
    and ``changed`` (pixels with ``ΔE(O, I) > t``).
    """
    if isinstance(hist, np.ndarray):
        cum = np.cumsum(hist, axis=-1)
    else:
        cum = hist.cumsum(dim=-1)
    edit_pixels = cum[:, HIST_EDIT, -1]
    preservation_pixels = cum[:, HIST_PRESERVATION, -1]
    total = cum[:, HIST_CHANGED, -1]
    return {
        "edit_pixels": edit_pixels,
        "preservation_pixels": preservation_pixels,
        "edit_correct": cum[:, HIST_EDIT, :NUM_TOLERANCES],
        "preservation_correct": cum[:, HIST_PRESERVATION, :NUM_TOLERANCES],
        "changed": total[:, None] - cum[:, HIST_CHANGED, :NUM_TOLERANCES],
    }
