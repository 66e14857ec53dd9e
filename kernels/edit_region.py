"""The edit region of a problem: pixels where input and answer differ (SPEC 1.5).

``changed_mask(a, b)`` is ``np.any(a != b, axis=-1)`` in one Numba pass (about 20x faster
than the NumPy expression, which builds an (H, W, 3) temporary and reduces its last axis).
"""

from __future__ import annotations

import numba
import numpy as np
from paintkit.kernels._validate import check_image


@numba.njit(cache=True, nogil=True)
def _changed_mask(a, b, out):
    h, w, c = a.shape
    n = 0
    for i in range(h):
        for j in range(w):
            diff = False
            for k in range(c):
                if a[i, j, k] != b[i, j, k]:
                    diff = True
            out[i, j] = diff
            n += diff
    return n


def _check_pair(a: np.ndarray, b: np.ndarray) -> None:
    check_image("a", a)
    check_image("b", b)
    if a.shape != b.shape:
        raise ValueError(f"b must have the shape of a {a.shape}, got {b.shape}")


def changed_mask(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """bool ``(H, W)``: True where any channel of uint8 ``(H, W, 3)`` images differs."""
    _check_pair(a, b)
    out = np.empty(a.shape[:2], dtype=np.bool_)
    _changed_mask(a, b, out)
    return out


def count_changed(a: np.ndarray, b: np.ndarray) -> int:
    """Number of pixels where ``a`` and ``b`` (uint8 ``(H, W, 3)``) differ."""
    _check_pair(a, b)
    out = np.empty(a.shape[:2], dtype=np.bool_)
    return int(_changed_mask(a, b, out))
