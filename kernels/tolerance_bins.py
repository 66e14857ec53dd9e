"""The tolerance bins of the counting kernels (docs/metric-definition.md §4b): shared by the
eager torch kernel (``tolerance_counts_torch``) and the compiled one
(``tolerance_counts_compiled``), which both bin ``ΔE²`` without a square root."""

from __future__ import annotations

import numpy as np

#: Bins per comparison: ``ΔE <= 0``, ``<= 1``, ..., ``<= 10`` and "above 10".
NUM_BINS = 12


def _bin_thresholds():
    """float32 ``(11,)``: ``T_t``, the largest float32 ``x`` with ``sqrt(x) <= t`` (IEEE
    float32 square root, correctly rounded), t = 0..10. ``ΔE <= t`` iff ``ΔE² <= T_t``: the
    bins follow from ``ΔE²`` alone, so no library square root (torch's CPU ``sqrt`` is off by
    an ulp on ~0.7 % of inputs on AVX-512 machines) can move a count."""
    thresholds = []
    for t in range(NUM_BINS - 1):
        x = np.float32(t * t)
        while np.sqrt(np.nextafter(x, np.float32(np.inf))) <= t:
            x = np.nextafter(x, np.float32(np.inf))
        thresholds.append(x)
    return np.array(thresholds, np.float32)


BIN_THRESHOLDS = _bin_thresholds()
