"""Colour differences between CIE L*a*b* colours: CIE76, CIE94 and CIEDE2000 (torch).

The benchmark's metric is CIE76 (docs/metric-definition.md §4); CIE94 and CIEDE2000 are opt-in alternatives
that weigh chroma and hue differences the way observers see them.

- **CIE76**: ``sqrt(ΔL² + Δa² + Δb²)``.
- **CIE94**, graphic-arts weights (``kL = 1, K1 = 0.045, K2 = 0.015``, ``kC = kH = 1``):
  ``sqrt((ΔL / kL)² + (ΔC / SC)² + ΔH² / SH²)`` with ``SC = 1 + K1 C₁``,
  ``SH = 1 + K2 C₁`` and ``ΔH² = Δa² + Δb² - ΔC²`` (clamped at 0). **Not
  symmetric**: the first colour is the reference (its chroma ``C₁`` sets the weights). In
  scoring the reference is the answer (``ΔE(O, A)``) or the input (``ΔE(O, I)``).
- **CIEDE2000** (Sharma, Wu & Dalal 2005, with ``kL = kC = kH = 1``): symmetric; hue
  differences across the 0/360 degree cut are taken the short way round, and the mean hue
  follows the paper's four cases (the conventions scikit-image uses).

**One result everywhere.** CIE76 runs in the inputs' dtype as ``sqrt((dL*dL + da*da) +
db*db)``: on float32 Lab, the metric's ΔE bit for bit. CIE94 and CIEDE2000 run in float64
as a fixed sequence of IEEE basic operations (docs/metric-definition.md, "CIE94 and
CIEDE2000"): squares as products, ``C^7`` as ``((C²·C²)·C²)·C``, angles in radians with
fixed constants for 30, 6 and 63 degrees, and the hue angle, sine, cosine and exponential of
:mod:`paintkit.kernels.color.canonical_math` instead of libm / SLEEF / CUDA's. Each step is one
separate ATen operation (no fused kernel, so no fused multiply-add on any device; no
division by a Python number, which CUDA replaces by a multiplication). So this module, its
Numba twin (:mod:`paintkit.kernels.color.delta_e_numba`) and the NumPy oracle of the tests give
the same float64 bits on every machine and device, and the counts built on them
(:mod:`paintkit.kernels.counting.formulas`) are identical everywhere.

Each function takes two Lab tensors that broadcast against each other, with the three
channels along ``channel_dim`` (``-1`` for ``(*, 3)``, ``1`` for ``(B, 3, H, W)``), and
returns ΔE with that dimension removed, in the promoted floating dtype (CIE94 and CIEDE2000
are computed in float64 and rounded to it once), on the inputs' device.
"""

from __future__ import annotations

import numpy as np

from paintkit.kernels.color.canonical_math import (
    PI,
    TWO_PI,
    cos_torch,
    exp_neg_torch,
    hue_angle_torch,
    sin_torch,
)

__all__ = [
    "DELTA_E_FORMULAS", "check_delta_e",
    "delta_e_torch", "delta_e_cie76", "delta_e_cie94", "delta_e_ciede2000", "delta_e_rgb_torch",
]

#: Formula names accepted everywhere a ΔE can be chosen; ``"cie76"`` is the benchmark's.
DELTA_E_FORMULAS: tuple[str, ...] = ("cie76", "cie94", "ciede2000")

#: ``25^7`` (exact in float64) and the graphic-arts CIE94 weights.
POW25_7 = 6103515625.0
K1_GRAPHIC = 0.045
K2_GRAPHIC = 0.015
#: Angles as fixed float64 constants, each the float64 nearest to the exact value: 30, 6 and
#: 63 degrees in radians, and degrees per radian (``180 / pi``).
RAD30 = float.fromhex("0x1.0c152382d7366p-1")
RAD6 = float.fromhex("0x1.acee9f37bebd6p-4")
RAD63 = float.fromhex("0x1.197c987c952c4p+0")
DEG_PER_RAD = float.fromhex("0x1.ca5dc1a63c1f8p+5")


def check_delta_e(delta_e) -> str:
    """``delta_e`` if it names a ΔE formula, else ``ValueError`` listing the choices."""
    if delta_e not in DELTA_E_FORMULAS:
        raise ValueError(f"delta_e: expected one of {', '.join(DELTA_E_FORMULAS)}, got {delta_e!r}")
    return delta_e


def _channels(lab1, lab2, channel_dim: int):
    """Validate and split two Lab tensors into ``(L, a, b)`` triples of one float dtype."""
    import torch

    for name, lab in (("lab1", lab1), ("lab2", lab2)):
        if not isinstance(lab, torch.Tensor) or not lab.is_floating_point():
            got = f"{getattr(lab, 'dtype', type(lab).__name__)}"
            raise ValueError(f"{name}: expected a floating-point torch tensor of Lab colours, "
                             f"got {got}")
        if lab.ndim == 0 or not -lab.ndim <= channel_dim < lab.ndim \
                or lab.shape[channel_dim] != 3:
            raise ValueError(f"{name}: expected 3 Lab channels along dim {channel_dim} "
                             f"(shape (*, 3) or (B, 3, H, W)), got shape {tuple(lab.shape)}")
    if lab1.device != lab2.device:
        raise ValueError(f"lab1 is on {lab1.device} but lab2 is on {lab2.device}; move both to "
                         "one device")
    dtype = torch.promote_types(lab1.dtype, lab2.dtype)
    return (lab1.to(dtype).unbind(channel_dim), lab2.to(dtype).unbind(channel_dim))


def delta_e_cie76(lab1, lab2, *, channel_dim: int = -1):
    """CIE76 ΔE: Euclidean distance in Lab. ``(*, 3)`` x ``(*, 3)`` -> ``(*)``.

    In the promoted dtype, ``sqrt((dL*dL + da*da) + db*db)``: on float32 Lab the metric's
    ΔE bit for bit.

    Example:
        >>> import torch
        >>> delta_e_cie76(torch.tensor([50.0, 0, 0]), torch.tensor([53.0, 4.0, 0]))
        tensor(5.)
    """
    (l1, a1, b1), (l2, a2, b2) = _channels(lab1, lab2, channel_dim)
    dl, da, db = l1 - l2, a1 - a2, b1 - b2
    return _sqrt((dl * dl + da * da) + db * db)


def _sqrt(x):
    """Correctly rounded IEEE square root of a float tensor, on its device.

    torch's CPU ``sqrt`` (float32 and float64 alike) goes through a vector math library that
    is off by one ulp on ~0.7 % of inputs; NumPy's ``sqrt`` is the hardware instruction
    (correctly rounded on every SIMD path), as is CUDA's. So CPU tensors take NumPy's.
    """
    import torch

    if x.device.type != "cpu":
        return torch.sqrt(x)
    return torch.from_numpy(np.asarray(np.sqrt(x.detach().numpy())))


def _float64(lab1, lab2, channel_dim):
    """``(dtype, (L, a, b) of lab1, (L, a, b) of lab2)``, the channels in float64."""
    (l1, a1, b1), (l2, a2, b2) = _channels(lab1, lab2, channel_dim)
    return l1.dtype, [x.double() for x in (l1, a1, b1)], [x.double() for x in (l2, a2, b2)]


def _div_const(x, value: float):
    """``x / value`` as a division by a tensor on ``x``'s device: CUDA turns a division by a
    Python number into a multiplication by its reciprocal, which rounds differently."""
    import torch

    if value == 1.0:
        return x
    return x / torch.full((), value, dtype=x.dtype, device=x.device)


def delta_e_cie94(lab1, lab2, *, channel_dim: int = -1, k_l: float = 1.0,
                  k1: float = K1_GRAPHIC, k2: float = K2_GRAPHIC):
    """CIE94 ΔE with ``lab1`` the reference. ``(*, 3)`` x ``(*, 3)`` -> ``(*)``.

    Defaults are the graphic-arts weights (textiles use ``k_l=2, k1=0.048, k2=0.014``).
    Canonical float64 arithmetic (module docstring), returned in the promoted dtype.

    Example:
        >>> import torch
        >>> delta_e_cie94(torch.tensor([50.0, 0, 0]), torch.tensor([53.0, 4.0, 0]))
        tensor(5.)
    """
    dtype, (l1, a1, b1), (l2, a2, b2) = _float64(lab1, lab2, channel_dim)
    c1 = _sqrt(a1 * a1 + b1 * b1)
    c2 = _sqrt(a2 * a2 + b2 * b2)
    dl = _div_const(l1 - l2, k_l)
    dc = c1 - c2
    da, db = a1 - a2, b1 - b2
    # ΔH² = Δa² + Δb² - ΔC²: exactly 0 for identical colours (the C₁C₂ - a₁a₂ - b₁b₂ form
    # leaves ~1e-6 there, which would move a perfect pixel out of the t = 0 bin).
    dh2 = ((da * da + db * db) - dc * dc).clamp_min(0.0)
    sc = c1 * k1 + 1.0
    sh = c1 * k2 + 1.0
    q_c = dc / sc
    de2 = (dl * dl + q_c * q_c) + dh2 / (sh * sh)
    return _sqrt(de2).to(dtype)


def delta_e_ciede2000(lab1, lab2, *, channel_dim: int = -1, k_l: float = 1.0,
                      k_c: float = 1.0, k_h: float = 1.0):
    """CIEDE2000 ΔE (symmetric). ``(*, 3)`` x ``(*, 3)`` -> ``(*)``.

    Canonical float64 arithmetic (module docstring), returned in the promoted dtype. Give
    float64 Lab where results must match published values to 1e-4: the paper's
    hue-wraparound test pairs sit within 1e-4 of the branch cuts, which float32 Lab cannot
    resolve.

    Example:
        >>> import torch
        >>> lab1 = torch.tensor([50.0, 2.6772, -79.7751], dtype=torch.float64)
        >>> lab2 = torch.tensor([50.0, 0.0, -82.7485], dtype=torch.float64)
        >>> round(float(delta_e_ciede2000(lab1, lab2)), 4)
        2.0425
    """
    import torch

    dtype, (l1, a1, b1), (l2, a2, b2) = _float64(lab1, lab2, channel_dim)
    c_mean = 0.5 * (_sqrt(a1 * a1 + b1 * b1) + _sqrt(a2 * a2 + b2 * b2))
    c7 = _pow7(c_mean)
    g1 = 0.5 * (1.0 - _sqrt(c7 / (c7 + POW25_7))) + 1.0
    a1p, a2p = a1 * g1, a2 * g1
    c1p = _sqrt(a1p * a1p + b1 * b1)
    c2p = _sqrt(a2p * a2p + b2 * b2)
    h1p, h2p = hue_angle_torch(a1p, b1), hue_angle_torch(a2p, b2)
    cc = c1p * c2p
    achromatic = cc == 0.0
    h_sum = h1p + h2p

    # Opposite hues (collinear chroma vectors: a1' b2 = b1 a2' exactly) differ by pi exactly
    # in the paper's arithmetic, which float rounding of the two angles may push past pi:
    # they take the "not more than pi" branches.
    opposite = (a1p * b2) == (b1 * a2p)
    # Hue difference the short way round (0 when either colour is achromatic).
    dh = h2p - h1p
    dh = torch.where(opposite, dh, torch.where(dh > PI, dh - TWO_PI,
                                               torch.where(dh < -PI, dh + TWO_PI, dh)))
    dh = torch.where(achromatic, torch.zeros_like(dh), dh)
    # Mean hue: the paper's four cases (the sum when achromatic, else the short-way mean).
    far = ((h1p - h2p).abs() > PI) & ~opposite
    h_mean = torch.where(far, torch.where(h_sum < TWO_PI, 0.5 * (h_sum + TWO_PI),
                                          0.5 * (h_sum - TWO_PI)), 0.5 * h_sum)
    h_mean = torch.where(achromatic, h_sum, h_mean)

    d_hue = (2.0 * _sqrt(cc)) * sin_torch(0.5 * dh)
    lm = 0.5 * (l1 + l2) - 50.0
    l50 = lm * lm
    s_l = (0.015 * l50) / _sqrt(20.0 + l50) + 1.0
    cp_mean = 0.5 * (c1p + c2p)
    s_c = 0.045 * cp_mean + 1.0
    t = 1.0 - 0.17 * cos_torch(h_mean - RAD30)
    t = t + 0.24 * cos_torch(2.0 * h_mean)
    t = t + 0.32 * cos_torch(3.0 * h_mean + RAD6)
    t = t - 0.20 * cos_torch(4.0 * h_mean - RAD63)
    s_h = (0.015 * cp_mean) * t + 1.0
    cp7 = _pow7(cp_mean)
    r_c = 2.0 * _sqrt(cp7 / (cp7 + POW25_7))
    x = _div_const(h_mean * DEG_PER_RAD - 275.0, 25.0)
    d_theta = RAD30 * exp_neg_torch(-(x * x))
    r_t = -sin_torch(2.0 * d_theta) * r_c

    term_l = (l2 - l1) / (s_l * k_l)
    term_c = (c2p - c1p) / (s_c * k_c)
    term_h = d_hue / (s_h * k_h)
    de2 = ((term_l * term_l + term_c * term_c) + term_h * term_h) + (r_t * term_c) * term_h
    return _sqrt(de2.clamp_min(0.0)).to(dtype)


def _pow7(x):
    x2 = x * x
    return ((x2 * x2) * x2) * x


_FUNCTIONS = {"cie76": delta_e_cie76, "cie94": delta_e_cie94, "ciede2000": delta_e_ciede2000}


def delta_e_torch(lab1, lab2, delta_e: str = "cie76", *, channel_dim: int = -1):
    """ΔE between Lab tensors by formula ``delta_e`` (one of :data:`DELTA_E_FORMULAS`).

    ``lab1`` is the reference (it matters for CIE94 only). Shapes ``(*, 3)`` (or the
    channels at ``channel_dim``, e.g. ``(B, 3, H, W)`` with ``channel_dim=1``); returns
    ``(*)`` on the inputs' device.
    """
    return _FUNCTIONS[check_delta_e(delta_e)](lab1, lab2, channel_dim=channel_dim)


def delta_e_rgb_torch(rgb1, rgb2, delta_e: str = "cie76", *, dtype=None):
    """ΔE between 8-bit sRGB tensors, channels last: uint8 ``(*, 3)`` x ``(*, 3)`` -> ``(*)``.

    The canonical Lab of docs/metric-definition.md §3 (looked up:
    :func:`paintkit.kernels.color.lab_table.srgb_to_lab_exact`), then the formula, returned in
    ``dtype`` (default float32 for CIE76, the metric's ΔE; float64 for CIE94 and CIEDE2000,
    whose arithmetic is float64 either way). Equal to
    :func:`~paintkit.kernels.color.delta_e_numba.delta_e_rgb_numba` bit for bit.
    """
    import torch

    from paintkit.kernels.color.lab_table import srgb_to_lab_exact  # torch: the table is a tensor

    check_delta_e(delta_e)
    if dtype is None:
        dtype = torch.float32 if delta_e == "cie76" else torch.float64
    lab1, lab2 = srgb_to_lab_exact(rgb1), srgb_to_lab_exact(rgb2)
    if delta_e == "cie76":  # float32 Lab differences, as the metric
        return delta_e_torch(lab1, lab2, delta_e).to(dtype)
    return delta_e_torch(lab1.to(dtype), lab2.to(dtype), delta_e)
