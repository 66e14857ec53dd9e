"""The guard band that makes the fast Numba kernel's counts canonical.

The metric's L*a*b* is the canonical arithmetic of docs/metric-definition.md §3
(:mod:`paintkit.kernels.lab_canonical`): float64 basic operations, about 150 per colour.
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
(:func:`~paintkit.kernels.lab_canonical.canonical_bins`) and counted from those. The band is
1e-3, five times the worst fast error; pixels near ``t = 0`` need no band (a fast ``ΔE`` of
exactly 0 means identical colours, distinct colours are at least 0.02 apart), nor pixels
near 11 and above (all counted as "more than 10"). Counts then equal the canonical ones bit
for bit. About 0.2 % of the pixels with ``0 < ΔE < 10.5`` fall in the band.
"""

from __future__ import annotations

__all__ = ["GUARD_BAND", "MAX_FAST_LAB_ERROR"]

#: Half-width of the band around each integer tolerance 1..10 recomputed exactly.
GUARD_BAND = 1e-3
#: Largest Euclidean distance between fast and canonical Lab over all 8-bit colours
#: (measured 7.8e-5; rounded up).
MAX_FAST_LAB_ERROR = 1e-4
