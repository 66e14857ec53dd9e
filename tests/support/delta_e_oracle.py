"""CIE94 and CIEDE2000 in plain NumPy, written from docs/metric-definition.md ("CIE94 and
CIEDE2000"): the oracle the Numba and torch kernels must equal bit for bit.

Shares no code with paintkit: the constants are derived here from exact decimal / rational
arithmetic, the functions are NumPy ufuncs of IEEE basic operations (``+ - * /``, ``sqrt``,
``floor``, comparisons, ``where``) on float64 arrays. No ``np.sin``, ``np.cos``,
``np.arctan2``, ``np.exp`` or ``np.power`` (a test makes them raise while this runs).
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction
from math import factorial

import numpy as np

F64 = np.float64


def _pi() -> Decimal:
    """pi to the context's precision (the series of the ``decimal`` module's documentation)."""
    three = Decimal(3)
    lasts, t, s, n, na, d, da = 0, three, 3, 1, 0, 0, 24
    while s != lasts:
        lasts = s
        n, na = n + na, na + 8
        d, da = d + da, da + 32
        t = (t * n) / d
        s += t
    return +s


with localcontext() as _ctx:
    _ctx.prec = 70
    _P, _LN2, _S3 = _pi(), Decimal(2).ln(), Decimal(3).sqrt()
    PI = float(_P)
    HALF_PI = float(_P / 2)
    TWO_PI = float(2 * _P)
    SIXTH_PI = float(_P / 6)
    TWO_OVER_PI = float(2 / _P)
    PIO2_HI = float.fromhex("0x1.921fb544p+0")  # short on purpose: k * PIO2_HI is exact
    PIO2_LO = float(_P / 2 - Decimal(PIO2_HI))
    INV_LN2 = float(1 / _LN2)
    LN2_HI = float.fromhex("0x1.62e42feep-1")
    LN2_LO = float(_LN2 - Decimal(LN2_HI))
    SQRT3 = float(_S3)
    RAD30, RAD6, RAD63 = (float(n * _P / 180) for n in (30, 6, 63))
    DEG_PER_RAD = float(180 / _P)
TAN_PI_12 = 2.0 - SQRT3

SIN_C = [float(Fraction((-1) ** k, factorial(2 * k + 1))) for k in range(8, 0, -1)]
COS_C = [float(Fraction((-1) ** k, factorial(2 * k))) for k in range(8, 0, -1)]
EXP_C = [float(Fraction(1, factorial(k))) for k in range(13, -1, -1)]
ATAN_C = [float(Fraction((-1) ** k, 2 * k + 1)) for k in range(14, 0, -1)]


def _horner(coeffs, z):
    p = np.full_like(z, coeffs[0])
    for c in coeffs[1:]:
        p = p * z + c
    return p


def _sin_cos_reduced(x):
    k = np.floor(x * TWO_OVER_PI + 0.5)
    r = (x - k * PIO2_HI) - k * PIO2_LO
    z = r * r
    s = r + (r * z) * _horner(SIN_C, z)
    c = 1.0 + z * _horner(COS_C, z)
    q = np.mod(np.nan_to_num(k), 4.0)
    return s, c, q


def sin(x):
    x = np.asarray(x, F64)
    s, c, q = _sin_cos_reduced(x)
    y = np.select([q == 0, q == 1, q == 2], [s, c, -s], -c)
    return np.where(np.abs(x) < 2.0 ** 20, y, np.nan)


def cos(x):
    x = np.asarray(x, F64)
    s, c, q = _sin_cos_reduced(x)
    y = np.select([q == 0, q == 1, q == 2], [c, -s, -c], s)
    return np.where(np.abs(x) < 2.0 ** 20, y, np.nan)


def exp_neg(x):
    """exp of ``x <= 0`` (below -700 counts as -700, above 0 as 0)."""
    x = np.asarray(x, F64)
    x = np.where(x < -700.0, -700.0, x)
    x = np.where(x > 0.0, 0.0, x)
    k = np.floor(x * INV_LN2 + 0.5)
    r = (x - k * LN2_HI) - k * LN2_LO
    p = _horner(EXP_C, r)
    return np.ldexp(p, np.nan_to_num(k).astype(np.int32))  # exact: p * 2^k, no underflow


def hue(a, b):
    """atan2(b, a) taken into [0, 2 pi]; 0 for a = b = 0."""
    a, b = np.asarray(a, F64), np.asarray(b, F64)
    ax, ay = np.abs(a), np.abs(b)
    swap = ay > ax
    num, den = np.where(swap, ax, ay), np.where(swap, ay, ax)
    zero = den == 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        t = num / np.where(zero, 1.0, den)
    far = t > TAN_PI_12
    t = np.where(far, (t * SQRT3 - 1.0) / (t + SQRT3), t)
    base = np.where(far, SIXTH_PI, 0.0)
    z = t * t
    theta = base + (t + (t * z) * _horner(ATAN_C, z))
    theta = np.where(swap, HALF_PI - theta, theta)
    theta = np.where(a < 0.0, PI - theta, theta)
    theta = np.where(b < 0.0, TWO_PI - theta, theta)
    return np.where(zero, 0.0, theta)


def _split(lab):
    lab = np.asarray(lab, F64)
    return lab[..., 0], lab[..., 1], lab[..., 2]


def cie76(lab1, lab2):
    """In the inputs' dtype (float32 Lab: the metric's ΔE)."""
    d = np.asarray(lab1) - np.asarray(lab2)
    return np.sqrt((d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1]) + d[..., 2] * d[..., 2])


def cie94(lab1, lab2):
    """Graphic-arts CIE94, ``lab1`` the reference: float64."""
    (l1, a1, b1), (l2, a2, b2) = _split(lab1), _split(lab2)
    c1 = np.sqrt(a1 * a1 + b1 * b1)
    c2 = np.sqrt(a2 * a2 + b2 * b2)
    dl, dc, da, db = l1 - l2, c1 - c2, a1 - a2, b1 - b2
    dh2 = np.maximum((da * da + db * db) - dc * dc, 0.0)
    sc = 1.0 + 0.045 * c1
    sh = 1.0 + 0.015 * c1
    q_c = dc / sc
    return np.sqrt((dl * dl + q_c * q_c) + dh2 / (sh * sh))


def _pow7(x):
    x2 = x * x
    return ((x2 * x2) * x2) * x


def ciede2000(lab1, lab2):
    """CIEDE2000 with kL = kC = kH = 1: float64."""
    (l1, a1, b1), (l2, a2, b2) = _split(lab1), _split(lab2)
    c_mean = 0.5 * (np.sqrt(a1 * a1 + b1 * b1) + np.sqrt(a2 * a2 + b2 * b2))
    c7 = _pow7(c_mean)
    g1 = 1.0 + 0.5 * (1.0 - np.sqrt(c7 / (c7 + 6103515625.0)))
    a1p, a2p = a1 * g1, a2 * g1
    c1p = np.sqrt(a1p * a1p + b1 * b1)
    c2p = np.sqrt(a2p * a2p + b2 * b2)
    h1p, h2p = hue(a1p, b1), hue(a2p, b2)
    cc = c1p * c2p
    h_sum = h1p + h2p
    achromatic = cc == 0.0
    opposite = (a1p * b2) == (b1 * a2p)  # |h2 - h1| = pi exactly: not more than pi
    dh = h2p - h1p
    dh = np.where(opposite, dh, np.where(dh > PI, dh - TWO_PI, np.where(dh < -PI, dh + TWO_PI, dh)))
    dh = np.where(achromatic, 0.0, dh)
    far = (np.abs(h1p - h2p) > PI) & ~opposite
    h_mean = np.where(far, np.where(h_sum < TWO_PI, 0.5 * (h_sum + TWO_PI),
                                    0.5 * (h_sum - TWO_PI)), 0.5 * h_sum)
    h_mean = np.where(achromatic, h_sum, h_mean)
    d_hue = (2.0 * np.sqrt(cc)) * sin(0.5 * dh)
    lm = 0.5 * (l1 + l2) - 50.0
    l50 = lm * lm
    s_l = 1.0 + (0.015 * l50) / np.sqrt(20.0 + l50)
    cp_mean = 0.5 * (c1p + c2p)
    s_c = 1.0 + 0.045 * cp_mean
    t = 1.0 - 0.17 * cos(h_mean - RAD30)
    t = t + 0.24 * cos(2.0 * h_mean)
    t = t + 0.32 * cos(3.0 * h_mean + RAD6)
    t = t - 0.20 * cos(4.0 * h_mean - RAD63)
    s_h = 1.0 + (0.015 * cp_mean) * t
    cp7 = _pow7(cp_mean)
    r_c = 2.0 * np.sqrt(cp7 / (cp7 + 6103515625.0))
    x = (h_mean * DEG_PER_RAD - 275.0) / 25.0
    d_theta = RAD30 * exp_neg(-(x * x))
    r_t = -sin(2.0 * d_theta) * r_c
    term_l = (l2 - l1) / s_l
    term_c = (c2p - c1p) / s_c
    term_h = d_hue / s_h
    de2 = ((term_l * term_l + term_c * term_c) + term_h * term_h) + (r_t * term_c) * term_h
    return np.sqrt(np.maximum(de2, 0.0))


FORMULAS = {"cie76": cie76, "cie94": cie94, "ciede2000": ciede2000}


def histograms(formula, outputs, answers, inputs, lab):
    """``(B, 3, 12)`` histograms of ``min(ceil(ΔE), 11)`` (rows: ΔE(O, A) over the edit
    region, over the preservation region, ΔE(O, I) over all pixels), reference colour first;
    ``lab``: the canonical Lab oracle (uint8 ``(..., 3)`` -> float32)."""
    hist = np.zeros((outputs.shape[0], 3, 12), np.int64)
    for p in range(outputs.shape[0]):
        o, a, i = (x[p].reshape(-1, 3) for x in (outputs, answers, inputs))
        lab_o, lab_a, lab_i = lab(o), lab(a), lab(i)
        b_oa = np.minimum(np.ceil(FORMULAS[formula](lab_a, lab_o)), 11).astype(np.int64)
        b_oi = np.minimum(np.ceil(FORMULAS[formula](lab_i, lab_o)), 11).astype(np.int64)
        b_oa[(o == a).all(axis=1)] = 0
        b_oi[(o == i).all(axis=1)] = 0
        edit = (a != i).any(axis=1)
        hist[p, 0] = np.bincount(b_oa[edit], minlength=12)
        hist[p, 1] = np.bincount(b_oa[~edit], minlength=12)
        hist[p, 2] = np.bincount(b_oi, minlength=12)
    return hist
