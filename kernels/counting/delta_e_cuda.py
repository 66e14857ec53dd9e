"""CIE94 and CIEDE2000 as CUDA device functions: the canonical float64 arithmetic, bit for bit.

The fused counting kernel (:mod:`paintkit.kernels.counting.cie76_cuda_kernels`) bins a
pixel's ΔE with one of these for ``delta_e="cie94"`` / ``"ciede2000"``. Each is the CPU
twin (:mod:`paintkit.kernels.color.delta_e_numba` with
:mod:`paintkit.kernels.color.canonical_math`) transcribed operation by operation: the same
constants, the same order, every float64 ``+ - x /`` and ``sqrt`` a round-to-nearest
intrinsic of :mod:`paintkit.kernels.counting.cuda_rn` (never contracted into an FMA), the
polynomials by Horner's rule from global coefficient arrays (Numba places them in the
kernel's constant data; read in place, never ``cuda.const``, which the simulator provides
only to the kernel's own module), no CUDA transcendental. So a
pixel's float64 ΔE, and its bin, are the CPU's bits (docs/metric-definition.md §4b).

Argument order: ``(L, a, b)`` float32 of the output (the sample) first, then of the
reference (the answer or the input); CIE94's weights come from the reference.
"""

from __future__ import annotations

import math

import numpy as np
from numba import cuda, float64, int64

from paintkit.kernels.color.canonical_math import (
    ATAN_COEFFS,
    COS_COEFFS,
    EXP_COEFFS,
    EXP_FLOOR,
    HALF_PI,
    INV_LN2,
    LN2_HI,
    LN2_LO,
    PI,
    PIO2_HI,
    PIO2_LO,
    POW2_NEG,
    SIN_COEFFS,
    SIXTH_PI,
    SQRT3,
    TAN_PI_12,
    TWO_OVER_PI,
    TWO_PI,
)
from paintkit.kernels.color.delta_e import (
    DEG_PER_RAD,
    K1_GRAPHIC,
    K2_GRAPHIC,
    POW25_7,
    RAD6,
    RAD30,
    RAD63,
)
from paintkit.kernels.counting.bins import NUM_BINS
from paintkit.kernels.counting.cuda_rn import add, div, floor, mul, sqrt, sub

__all__ = ["bin_cie94", "bin_ciede2000", "cie94", "ciede2000", "cos_canonical",
           "exp_neg_canonical", "hue_angle_canonical", "sin_canonical"]

_SIN_C = np.array(SIN_COEFFS, np.float64)
_COS_C = np.array(COS_COEFFS, np.float64)
_EXP_C = np.array(EXP_COEFFS, np.float64)
_ATAN_C = np.array(ATAN_COEFFS, np.float64)
_POW2_NEG = np.ascontiguousarray(POW2_NEG, np.float64)
_N_SIN, _N_COS, _N_EXP, _N_ATAN = len(SIN_COEFFS), len(COS_COEFFS), len(EXP_COEFFS), \
    len(ATAN_COEFFS)
_NAN = math.nan


@cuda.jit(device=True)
def _sin_poly(r):
    """``r + (r z) P_s(z)``, ``z = r r``: the sine of a reduced argument."""
    coeffs = _SIN_C
    z = mul(r, r)
    p = coeffs[0]
    for j in range(1, _N_SIN):
        p = add(mul(p, z), coeffs[j])
    return add(r, mul(mul(r, z), p))


@cuda.jit(device=True)
def _cos_poly(r):
    """``1 + z P_c(z)``, ``z = r r``: the cosine of a reduced argument."""
    coeffs = _COS_C
    z = mul(r, r)
    p = coeffs[0]
    for j in range(1, _N_COS):
        p = add(mul(p, z), coeffs[j])
    return add(1.0, mul(z, p))


@cuda.jit(device=True)
def _reduce(x):
    """``(r, k mod 4)`` with ``x = k pi/2 + r`` (Cody-Waite; ``|x| < 2^20``)."""
    k = floor(add(mul(x, TWO_OVER_PI), 0.5))
    r = sub(sub(x, mul(k, PIO2_HI)), mul(k, PIO2_LO))
    return r, int64(k) & 3  # two's complement: k mod 4 in 0..3 for negative k too


@cuda.jit(device=True)
def sin_canonical(x):
    """:func:`~paintkit.kernels.color.canonical_math.sin_numba` of a float64 ``x``."""
    if not abs(x) < 1048576.0:
        return _NAN
    r, q = _reduce(x)
    if q == 0:
        return _sin_poly(r)
    if q == 1:
        return _cos_poly(r)
    if q == 2:
        return -_sin_poly(r)
    return -_cos_poly(r)


@cuda.jit(device=True)
def cos_canonical(x):
    """:func:`~paintkit.kernels.color.canonical_math.cos_numba` of a float64 ``x``."""
    if not abs(x) < 1048576.0:
        return _NAN
    r, q = _reduce(x)
    if q == 0:
        return _cos_poly(r)
    if q == 1:
        return -_sin_poly(r)
    if q == 2:
        return -_cos_poly(r)
    return _sin_poly(r)


@cuda.jit(device=True)
def exp_neg_canonical(x):
    """:func:`~paintkit.kernels.color.canonical_math.exp_neg_numba`: ``exp(x)`` for
    ``x <= 0`` (``x < -700`` as -700, ``x > 0`` as 0, NaN stays NaN)."""
    if x != x:
        return x
    if x < EXP_FLOOR:
        x = EXP_FLOOR
    if x > 0.0:
        x = 0.0
    k = floor(add(mul(x, INV_LN2), 0.5))
    r = sub(sub(x, mul(k, LN2_HI)), mul(k, LN2_LO))
    coeffs = _EXP_C
    p = coeffs[0]
    for j in range(1, _N_EXP):
        p = add(mul(p, r), coeffs[j])
    scale = _POW2_NEG
    return mul(p, scale[-int64(k)])


@cuda.jit(device=True)
def hue_angle_canonical(a, b):
    """:func:`~paintkit.kernels.color.canonical_math.hue_angle_numba`: ``atan2(b, a)`` in
    ``[0, 2 pi]``, 0 for ``a = b = 0``."""
    ax = abs(a)
    ay = abs(b)
    if ax == 0.0 and ay == 0.0:
        return 0.0
    swap = ay > ax
    t = div(ax, ay) if swap else div(ay, ax)
    base = 0.0
    if t > TAN_PI_12:
        t = div(sub(mul(t, SQRT3), 1.0), add(t, SQRT3))
        base = SIXTH_PI
    z = mul(t, t)
    coeffs = _ATAN_C
    p = coeffs[0]
    for j in range(1, _N_ATAN):
        p = add(mul(p, z), coeffs[j])
    theta = add(base, add(t, mul(mul(t, z), p)))
    if swap:
        theta = sub(HALF_PI, theta)
    if a < 0.0:
        theta = sub(PI, theta)
    if b < 0.0:
        theta = sub(TWO_PI, theta)
    return theta


@cuda.jit(device=True)
def cie94(l1, a1, b1, l2, a2, b2):
    """Canonical CIE94 (graphic arts) of float64 Lab, colour 1 the reference."""
    c1 = sqrt(add(mul(a1, a1), mul(b1, b1)))
    c2 = sqrt(add(mul(a2, a2), mul(b2, b2)))
    dl = sub(l1, l2)
    dc = sub(c1, c2)
    da = sub(a1, a2)
    db = sub(b1, b2)
    dh2 = sub(add(mul(da, da), mul(db, db)), mul(dc, dc))
    if dh2 < 0.0:
        dh2 = 0.0
    sc = add(1.0, mul(K1_GRAPHIC, c1))
    sh = add(1.0, mul(K2_GRAPHIC, c1))
    q_c = div(dc, sc)
    de2 = add(add(mul(dl, dl), mul(q_c, q_c)), div(dh2, mul(sh, sh)))
    return sqrt(de2)


@cuda.jit(device=True)
def _pow7(x):
    x2 = mul(x, x)
    return mul(mul(mul(x2, x2), x2), x)


@cuda.jit(device=True)
def _mean_hue(h1p, h2p, cc, collinear):
    """``(Δh, h̄)`` of CIEDE2000's step 2 (docs/metric-definition.md §4b)."""
    h_sum = add(h1p, h2p)
    if cc == 0.0:
        return 0.0, h_sum
    dh = sub(h2p, h1p)
    if collinear:  # opposite hues: |h2 - h1| is pi exactly, not more
        return dh, mul(0.5, h_sum)
    if dh > PI:
        dh = sub(dh, TWO_PI)
    elif dh < -PI:
        dh = add(dh, TWO_PI)
    if abs(sub(h1p, h2p)) > PI:
        if h_sum < TWO_PI:
            return dh, mul(0.5, add(h_sum, TWO_PI))
        return dh, mul(0.5, sub(h_sum, TWO_PI))
    return dh, mul(0.5, h_sum)


@cuda.jit(device=True)
def ciede2000(l1, a1, b1, l2, a2, b2):
    """Canonical CIEDE2000 (kL = kC = kH = 1) of float64 Lab."""
    c_mean = mul(0.5, add(sqrt(add(mul(a1, a1), mul(b1, b1))),
                          sqrt(add(mul(a2, a2), mul(b2, b2)))))
    c7 = _pow7(c_mean)
    g1 = add(1.0, mul(0.5, sub(1.0, sqrt(div(c7, add(c7, POW25_7))))))
    a1p = mul(a1, g1)
    a2p = mul(a2, g1)
    c1p = sqrt(add(mul(a1p, a1p), mul(b1, b1)))
    c2p = sqrt(add(mul(a2p, a2p), mul(b2, b2)))
    h1p = hue_angle_canonical(a1p, b1)
    h2p = hue_angle_canonical(a2p, b2)
    cc = mul(c1p, c2p)
    dh, h_mean = _mean_hue(h1p, h2p, cc, mul(a1p, b2) == mul(b1, a2p))
    d_hue = mul(mul(2.0, sqrt(cc)), sin_canonical(mul(0.5, dh)))
    lm = sub(mul(0.5, add(l1, l2)), 50.0)
    l50 = mul(lm, lm)
    s_l = add(1.0, div(mul(0.015, l50), sqrt(add(20.0, l50))))
    cp_mean = mul(0.5, add(c1p, c2p))
    s_c = add(1.0, mul(0.045, cp_mean))
    t = sub(1.0, mul(0.17, cos_canonical(sub(h_mean, RAD30))))
    t = add(t, mul(0.24, cos_canonical(mul(2.0, h_mean))))
    t = add(t, mul(0.32, cos_canonical(add(mul(3.0, h_mean), RAD6))))
    t = sub(t, mul(0.20, cos_canonical(sub(mul(4.0, h_mean), RAD63))))
    s_h = add(1.0, mul(mul(0.015, cp_mean), t))
    cp7 = _pow7(cp_mean)
    r_c = mul(2.0, sqrt(div(cp7, add(cp7, POW25_7))))
    x = div(sub(mul(h_mean, DEG_PER_RAD), 275.0), 25.0)
    d_theta = mul(RAD30, exp_neg_canonical(-mul(x, x)))
    r_t = mul(-sin_canonical(mul(2.0, d_theta)), r_c)
    term_l = div(sub(l2, l1), s_l)
    term_c = div(sub(c2p, c1p), s_c)
    term_h = div(d_hue, s_h)
    de2 = add(add(add(mul(term_l, term_l), mul(term_c, term_c)), mul(term_h, term_h)),
              mul(mul(r_t, term_c), term_h))
    if de2 < 0.0:
        de2 = 0.0
    return sqrt(de2)


@cuda.jit(device=True)
def _bin_of(d):
    """``min(ceil(d), 11)`` of a float64 ``d >= 0``: the integer tolerances below ``d``."""
    b = 0
    for j in range(NUM_BINS - 1):
        if d > float64(j):
            b += 1
    return b


@cuda.jit(device=True)
def bin_cie94(lo, ao, bo, lr, ar, br):
    """The CIE94 bin of output Lab ``(lo, ao, bo)`` against reference ``(lr, ar, br)``
    (float32, widened exactly)."""
    return _bin_of(cie94(float64(lr), float64(ar), float64(br),
                         float64(lo), float64(ao), float64(bo)))


@cuda.jit(device=True)
def bin_ciede2000(lo, ao, bo, lr, ar, br):
    """The CIEDE2000 bin of output Lab ``(lo, ao, bo)`` against reference ``(lr, ar, br)``."""
    return _bin_of(ciede2000(float64(lr), float64(ar), float64(br),
                             float64(lo), float64(ao), float64(bo)))
