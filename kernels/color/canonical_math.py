"""Hue angle, sine, cosine and exponential from IEEE basic operations: the same bits everywhere.

CIE94 and CIEDE2000 (:mod:`paintkit.kernels.color.delta_e`) need ``atan2``, ``sin``, ``cos`` and
``exp``. libm, SLEEF, NumPy's SIMD loops and CUDA's math library each round these
differently (by an ulp or so, which is enough to move a pixel whose ΔE lies next to an
integer tolerance from one count to another). The functions here are built from float64
``+``, ``-``, ``x``, ``/``, ``sqrt``, ``floor``, comparisons and exact scaling by powers of
two only, each a correctly rounded IEEE-754 operation, in a fixed order: one result on every
machine, SIMD path, thread count and device. Accuracy: within a few float64 ulps of the true
function on the arguments CIEDE2000 produces (tested against exact decimal arithmetic and
against libm).

The definitions (docs/metric-definition.md, "CIE94 and CIEDE2000"):

- **reduction by pi/2** (sine and cosine): ``k = floor(x * (2/pi) + 0.5)``,
  ``r = (x - k * PIO2_HI) - k * PIO2_LO`` (Cody and Waite; ``PIO2_HI`` has 33 significant
  bits, so ``k * PIO2_HI`` is exact for ``|k| < 2^20``), quadrant ``k mod 4``;
- **sine / cosine of r** in ``[-pi/4, pi/4]``: the Taylor polynomials to ``r^17`` and ``r^16``
  by Horner's rule in ``z = r * r``: ``s = r + (r * z) * P_s(z)``, ``c = 1 + z * P_c(z)``,
  coefficients the float64 nearest to ``(-1)^k / (2k+1)!`` and ``(-1)^k / (2k)!``;
- **exp(x)** for ``x <= 0``: ``k = floor(x / ln 2 + 0.5)`` (as ``x * (1/ln 2)``),
  ``r = (x - k * LN2_HI) - k * LN2_LO``, the Taylor polynomial to ``r^13`` by Horner's
  rule, times ``2^k`` (exact); ``x < -700`` counts as ``-700`` (and ``x > 0`` as 0);
- **hue angle** ``atan2(b, a)`` in ``[0, 2 pi]``: ``t = min(|a|, |b|) / max(|a|, |b|)``;
  above ``2 - sqrt(3)``, ``atan t = pi/6 + atan((t sqrt(3) - 1) / (t + sqrt(3)))``; then
  ``u + (u z) P_a(z)`` with the series coefficients ``(-1)^k / (2k+1)`` to ``u^29``; then
  ``pi/2 - .`` when ``|b| > |a|``, ``pi - .`` when ``a < 0``, ``2 pi - .`` when ``b < 0``;
  ``0`` for ``a = b = 0``.

Twins: the scalar Numba functions (``*_numba``, called by the ΔE kernels) and the torch
functions (``*_torch``, elementwise on float64 tensors, one separate ATen operation per IEEE
operation: no ``alpha``, no ``addcmul``, no division by a Python scalar, which CUDA turns into
a multiplication by the reciprocal). The tests check both against a plain NumPy oracle bit
for bit.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from numba import njit

__all__ = ["cos_numba", "cos_torch", "exp_neg_numba", "exp_neg_torch", "hue_angle_numba",
           "hue_angle_torch", "sin_numba", "sin_torch"]

# Each constant is the float64 nearest to its exact value, except the Cody-Waite splits:
# PIO2_HI and LN2_HI are short (at most 33 significant bits, so k * HI is exact for
# |k| < 2^20), PIO2_LO and LN2_LO the float64 nearest to (pi/2 - PIO2_HI) and
# (ln 2 - LN2_HI); TAN_PI_12 = 2 - SQRT3 (an exact subtraction) is only a branch threshold.
PI = float.fromhex("0x1.921fb54442d18p+1")
HALF_PI = float.fromhex("0x1.921fb54442d18p+0")
TWO_PI = float.fromhex("0x1.921fb54442d18p+2")
SIXTH_PI = float.fromhex("0x1.0c152382d7366p-1")
TWO_OVER_PI = float.fromhex("0x1.45f306dc9c883p-1")
PIO2_HI = float.fromhex("0x1.921fb54400000p+0")
PIO2_LO = float.fromhex("0x1.0b4611a626331p-34")
INV_LN2 = float.fromhex("0x1.71547652b82fep+0")
LN2_HI = float.fromhex("0x1.62e42fee00000p-1")
LN2_LO = float.fromhex("0x1.a39ef35793c76p-33")
SQRT3 = float.fromhex("0x1.bb67ae8584caap+0")
TAN_PI_12 = float.fromhex("0x1.126145e9ecd58p-2")  # 2 - sqrt(3)
EXP_FLOOR = -700.0


def _nearest(q: Fraction) -> float:
    return float(q)  # Fraction -> float rounds to nearest: the same on every machine


def _factorial(n: int) -> int:
    return math.prod(range(1, n + 1))


#: Horner coefficients, highest power first: ``p = c[0]``, then ``p = p * z + c[j]``.
SIN_COEFFS = tuple(_nearest(Fraction((-1) ** k, _factorial(2 * k + 1))) for k in range(8, 0, -1))
COS_COEFFS = tuple(_nearest(Fraction((-1) ** k, _factorial(2 * k))) for k in range(8, 0, -1))
EXP_COEFFS = tuple(_nearest(Fraction(1, _factorial(k))) for k in range(13, -1, -1))
ATAN_COEFFS = tuple(_nearest(Fraction((-1) ** k, 2 * k + 1)) for k in range(14, 0, -1))
#: ``2^-m`` for ``m = 0..1023`` (exact): scaling by ``2^k`` without ``ldexp``.
POW2_NEG = np.array([math.ldexp(1.0, -m) for m in range(1024)], np.float64)

_SIN_C = np.array(SIN_COEFFS)
_COS_C = np.array(COS_COEFFS)
_EXP_C = np.array(EXP_COEFFS)
_ATAN_C = np.array(ATAN_COEFFS)


# ---------------------------------------------------------------- Numba (scalar)

@njit(cache=True)
def _sin_kernel(r):
    z = r * r
    p = _SIN_C[0]
    for j in range(1, _SIN_C.shape[0]):
        p = p * z + _SIN_C[j]
    return r + (r * z) * p


@njit(cache=True)
def _cos_kernel(r):
    z = r * r
    p = _COS_C[0]
    for j in range(1, _COS_C.shape[0]):
        p = p * z + _COS_C[j]
    return 1.0 + z * p


@njit(cache=True)
def _reduce(x):
    """``(r, k mod 4)`` with ``x = k pi/2 + r``; ``x`` finite with ``|x| < 2^20``."""
    k = math.floor(x * TWO_OVER_PI + 0.5)
    kf = float(k)
    r = (x - kf * PIO2_HI) - kf * PIO2_LO
    return r, k % 4


@njit(cache=True)
def sin_numba(x):
    """Canonical sine of a float64 ``x`` (``|x| < 2^20``; NaN for anything else)."""
    if not abs(x) < 1048576.0:
        return math.nan
    r, q = _reduce(x)
    if q == 0:
        return _sin_kernel(r)
    if q == 1:
        return _cos_kernel(r)
    if q == 2:
        return -_sin_kernel(r)
    return -_cos_kernel(r)


@njit(cache=True)
def cos_numba(x):
    """Canonical cosine of a float64 ``x`` (``|x| < 2^20``; NaN for anything else)."""
    if not abs(x) < 1048576.0:
        return math.nan
    r, q = _reduce(x)
    if q == 0:
        return _cos_kernel(r)
    if q == 1:
        return -_sin_kernel(r)
    if q == 2:
        return -_cos_kernel(r)
    return _sin_kernel(r)


@njit(cache=True)
def exp_neg_numba(x):
    """Canonical ``exp(x)`` of a float64 ``x <= 0`` (``x < -700`` counts as -700, ``x > 0``
    as 0; NaN stays NaN)."""
    if x != x:
        return x
    if x < EXP_FLOOR:
        x = EXP_FLOOR
    if x > 0.0:
        x = 0.0
    k = math.floor(x * INV_LN2 + 0.5)
    kf = float(k)
    r = (x - kf * LN2_HI) - kf * LN2_LO
    p = _EXP_C[0]
    for j in range(1, _EXP_C.shape[0]):
        p = p * r + _EXP_C[j]
    return p * POW2_NEG[-k]


@njit(cache=True)
def hue_angle_numba(a, b):
    """Canonical ``atan2(b, a)`` taken into ``[0, 2 pi]``: the hue angle of ``(a, b)``."""
    ax = abs(a)
    ay = abs(b)
    if ax == 0.0 and ay == 0.0:
        return 0.0
    swap = ay > ax
    t = ax / ay if swap else ay / ax
    base = 0.0
    if t > TAN_PI_12:
        t = (t * SQRT3 - 1.0) / (t + SQRT3)
        base = SIXTH_PI
    z = t * t
    p = _ATAN_C[0]
    for j in range(1, _ATAN_C.shape[0]):
        p = p * z + _ATAN_C[j]
    theta = base + (t + (t * z) * p)
    if swap:
        theta = HALF_PI - theta
    if a < 0.0:
        theta = PI - theta
    if b < 0.0:
        theta = TWO_PI - theta
    return theta


# ---------------------------------------------------------------- torch (elementwise)

def _horner_torch(coeffs, z):
    """``p = c0; p = p * z + c`` for each further coefficient: separate IEEE operations."""
    import torch

    p = torch.full_like(z, coeffs[0])
    for c in coeffs[1:]:
        p = p * z + c
    return p


_POW2_TORCH: dict = {}


def _pow2_neg_torch(device):
    import torch

    table = _POW2_TORCH.get(device)
    if table is None:
        table = _POW2_TORCH[device] = torch.from_numpy(POW2_NEG).to(device)
    return table


def _reduce_torch(x):
    import torch

    k = torch.floor(x * TWO_OVER_PI + 0.5)
    r = (x - k * PIO2_HI) - k * PIO2_LO
    q = torch.remainder(k, 4.0)  # exact for integers below 2^53: 0, 1, 2 or 3
    z = r * r
    s = r + (r * z) * _horner_torch(SIN_COEFFS, z)
    c = 1.0 + z * _horner_torch(COS_COEFFS, z)
    return s, c, q


def _finite_angle(x, y):
    import torch

    return torch.where(x.abs() < 1048576.0, y, torch.full_like(y, math.nan))


def sin_torch(x):
    """:func:`sin_numba` elementwise: float64 tensor -> float64 tensor."""
    import torch

    s, c, q = _reduce_torch(x)
    y = torch.where(q == 0, s, torch.where(q == 1, c, torch.where(q == 2, -s, -c)))
    return _finite_angle(x, y)


def cos_torch(x):
    """:func:`cos_numba` elementwise: float64 tensor -> float64 tensor."""
    import torch

    s, c, q = _reduce_torch(x)
    y = torch.where(q == 0, c, torch.where(q == 1, -s, torch.where(q == 2, -c, s)))
    return _finite_angle(x, y)


def exp_neg_torch(x):
    """:func:`exp_neg_numba` elementwise: float64 tensor (values ``<= 0``) -> float64."""
    import torch

    x = torch.where(x < EXP_FLOOR, torch.full_like(x, EXP_FLOOR), x)  # NaN stays NaN
    x = torch.where(x > 0.0, torch.zeros_like(x), x)
    k = torch.floor(x * INV_LN2 + 0.5)
    r = (x - k * LN2_HI) - k * LN2_LO
    p = _horner_torch(EXP_COEFFS, r)
    m = (-k).nan_to_num(0.0).long()  # 0..1010 (NaN: any index, p is NaN)
    return p * _pow2_neg_torch(x.device)[m]


def hue_angle_torch(a, b):
    """:func:`hue_angle_numba` elementwise: float64 tensors ``a``, ``b`` -> float64."""
    import torch

    ax, ay = a.abs(), b.abs()
    swap = ay > ax
    num = torch.where(swap, ax, ay)
    den = torch.where(swap, ay, ax)
    zero = den == 0.0  # then a = b = 0 (or NaN)
    t = num / torch.where(zero, torch.ones_like(den), den)
    far = t > TAN_PI_12
    sqrt3 = torch.full_like(t, SQRT3)
    t = torch.where(far, (t * SQRT3 - 1.0) / (t + sqrt3), t)
    base = torch.where(far, torch.full_like(t, SIXTH_PI), torch.zeros_like(t))
    z = t * t
    theta = base + (t + (t * z) * _horner_torch(ATAN_COEFFS, z))
    theta = torch.where(swap, HALF_PI - theta, theta)
    theta = torch.where(a < 0.0, PI - theta, theta)
    theta = torch.where(b < 0.0, TWO_PI - theta, theta)
    return torch.where(zero, torch.zeros_like(theta), theta)
