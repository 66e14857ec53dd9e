"""The reference arithmetic of the metric, and the guard band that makes fast kernels exact.

The metric is defined as float32 NumPy arithmetic written straight from docs/metric-definition.md §3-4
(:func:`reference_lab`, :func:`reference_delta_e`): ``c = v / 255``, the sRGB curve with
``** 2.4``, ``XYZ = M · linear`` then ``/ white``, ``f(t) = cbrt(t)`` or the linear
segment, ``L = 116 f(Y) - 16``, ``a = 500 (f(X) - f(Y))``, ``b = 200 (f(Y) - f(Z))``,
``ΔE = sqrt(dL**2 + da**2 + db**2)`` — each operation a float32 NumPy ufunc, in that order.

The fast kernels compute Lab with a bit-trick cube root and a matrix pre-divided by the
white point: on every one of the 16,777,216 8-bit colours their Lab lies within
:data:`MAX_FAST_LAB_ERROR` (Euclidean) of the reference Lab, and distinct colours never
share a fast Lab value (both checked by ``tests/metrics/test_exact_counts.py``). So a fast
``ΔE`` is within ``2 * MAX_FAST_LAB_ERROR`` (plus a few float32 ulps) of the reference
``ΔE``, and ``ceil`` can only differ when an integer lies in between.

**Guard band rule.** A pixel whose fast ``ΔE`` (to the answer or to the input) lies within
:data:`GUARD_BAND` of an integer tolerance ``t in 1..10`` is not counted by the fast path;
its two ΔE are recomputed here with the reference arithmetic and counted from those. The
band is 1e-3, five times the worst fast error; pixels near ``t = 0`` need no band (a fast
``ΔE`` of exactly 0 means identical colours, distinct colours are at least 0.02 apart), nor
pixels near 11 and above (all counted as "more than 10"). Counts then equal the
reference's bit for bit. About 0.2 % of the pixels with ``0 < ΔE < 10.5`` fall in the band.
"""

from __future__ import annotations

import numpy as np

__all__ = ["GUARD_BAND", "MAX_FAST_LAB_ERROR", "reference_lab", "reference_delta_e",
           "reference_bins"]

#: Half-width of the band around each integer tolerance 1..10 recomputed exactly.
GUARD_BAND = 1e-3
#: Largest Euclidean distance between fast and reference Lab over all 8-bit colours
#: (measured 9.5e-5; rounded up).
MAX_FAST_LAB_ERROR = 1e-4

_F = np.float32
_M = np.array([[0.4124564, 0.3575761, 0.1804375],
               [0.2126729, 0.7151522, 0.0721750],
               [0.0193339, 0.1191920, 0.9503041]], dtype=_F)
_WHITE = (_F(0.95047), _F(1.00000), _F(1.08883))
_EPSILON = _F((6 / 29) ** 3)
_KAPPA = _F((29 / 6) ** 2 / 3)
_OFFSET = _F(4 / 29)


def reference_lab(rgb: np.ndarray) -> np.ndarray:
    """Reference L*a*b* of uint8 ``(..., 3)`` sRGB: float32 ``(..., 3)`` (docs/metric-definition.md §3)."""
    c = np.asarray(rgb).astype(_F) / _F(255)
    linear = np.where(c <= _F(0.04045), c / _F(12.92), ((c + _F(0.055)) / _F(1.055)) ** _F(2.4))
    r, g, b = linear[..., 0], linear[..., 1], linear[..., 2]
    x = (_M[0, 0] * r + _M[0, 1] * g + _M[0, 2] * b) / _WHITE[0]
    y = (_M[1, 0] * r + _M[1, 1] * g + _M[1, 2] * b) / _WHITE[1]
    z = (_M[2, 0] * r + _M[2, 1] * g + _M[2, 2] * b) / _WHITE[2]

    def f(t):
        return np.where(t > _EPSILON, np.cbrt(t), _KAPPA * t + _OFFSET).astype(_F)

    fx, fy, fz = f(x), f(y), f(z)
    return np.stack([_F(116) * fy - _F(16), _F(500) * (fx - fy), _F(200) * (fy - fz)], axis=-1)


def reference_delta_e(rgb_a: np.ndarray, rgb_b: np.ndarray) -> np.ndarray:
    """Reference CIE76 ΔE per pixel of two uint8 ``(..., 3)`` arrays: float32 ``(...)``."""
    d = reference_lab(rgb_a) - reference_lab(rgb_b)
    return np.sqrt(d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2).astype(_F)


def reference_bins(rgb_a: np.ndarray, rgb_b: np.ndarray, num_bins: int = 12) -> np.ndarray:
    """``min(ceil(ΔE), num_bins - 1)`` with the reference arithmetic, int64 ``(...)``."""
    return np.minimum(np.ceil(reference_delta_e(rgb_a, rgb_b)), num_bins - 1).astype(np.int64)
