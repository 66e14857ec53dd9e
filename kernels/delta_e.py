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

Each function takes two Lab tensors that broadcast against each other, with the three
channels along ``channel_dim`` (``-1`` for ``(*, 3)``, ``1`` for ``(B, 3, H, W)``), and
returns ΔE with that dimension removed, in the promoted floating dtype, on the inputs'
device. The Numba twin is :mod:`paintkit.kernels.delta_e_numba`.
"""

from __future__ import annotations

import math

__all__ = [
    "DELTA_E_FORMULAS", "check_formula", "delta_e_torch", "delta_e_cie76", "delta_e_cie94",
    "delta_e_ciede2000", "delta_e_rgb_torch",
]

#: Formula names accepted everywhere a ΔE can be chosen; ``"cie76"`` is the benchmark's.
DELTA_E_FORMULAS: tuple[str, ...] = ("cie76", "cie94", "ciede2000")

_POW25_7 = 25.0 ** 7


def check_formula(formula) -> str:
    """``formula`` if it names a ΔE formula, else ``ValueError`` listing the choices."""
    if formula not in DELTA_E_FORMULAS:
        raise ValueError(f"delta_e: expected one of {', '.join(DELTA_E_FORMULAS)}, got {formula!r}")
    return formula


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

    Example:
        >>> import torch
        >>> delta_e_cie76(torch.tensor([50.0, 0, 0]), torch.tensor([53.0, 4.0, 0]))
        tensor(5.)
    """
    (l1, a1, b1), (l2, a2, b2) = _channels(lab1, lab2, channel_dim)
    return ((l1 - l2).square() + (a1 - a2).square() + (b1 - b2).square()).sqrt()


def delta_e_cie94(lab1, lab2, *, channel_dim: int = -1, k_l: float = 1.0, k1: float = 0.045,
                  k2: float = 0.015):
    """CIE94 ΔE with ``lab1`` the reference. ``(*, 3)`` x ``(*, 3)`` -> ``(*)``.

    Defaults are the graphic-arts weights (textiles use ``k_l=2, k1=0.048, k2=0.014``).

    Example:
        >>> import torch
        >>> delta_e_cie94(torch.tensor([50.0, 0, 0]), torch.tensor([53.0, 4.0, 0]))
        tensor(5.)
    """
    (l1, a1, b1), (l2, a2, b2) = _channels(lab1, lab2, channel_dim)
    c1 = (a1.square() + b1.square()).sqrt()
    c2 = (a2.square() + b2.square()).sqrt()
    # ΔH² = Δa² + Δb² - ΔC²: exactly 0 for identical colours (the C₁C₂ - a₁a₂ - b₁b₂ form
    # leaves ~1e-6 there, which would move a perfect pixel out of the t = 0 bin).
    dh2 = ((a1 - a2).square() + (b1 - b2).square() - (c1 - c2).square()).clamp_min(0)
    sc = 1 + k1 * c1
    sh = 1 + k2 * c1
    de2 = ((l1 - l2) / k_l).square() + ((c1 - c2) / sc).square() + dh2 / sh.square()
    return de2.clamp_min(0).sqrt()


def _hue(a, b):
    """Hue angle in radians in [0, 2π) (0 for a = b = 0)."""
    import torch

    h = torch.atan2(b, a)
    return torch.where(h < 0, h + 2 * math.pi, h)


def delta_e_ciede2000(lab1, lab2, *, channel_dim: int = -1, k_l: float = 1.0,
                      k_c: float = 1.0, k_h: float = 1.0):
    """CIEDE2000 ΔE (symmetric). ``(*, 3)`` x ``(*, 3)`` -> ``(*)``.

    Use float64 where results must match published values to 1e-4: the paper's
    hue-wraparound test pairs sit within 1e-4 of the branch cuts, which float32 cannot
    resolve.

    Example:
        >>> import torch
        >>> lab1 = torch.tensor([50.0, 2.6772, -79.7751], dtype=torch.float64)
        >>> lab2 = torch.tensor([50.0, 0.0, -82.7485], dtype=torch.float64)
        >>> round(float(delta_e_ciede2000(lab1, lab2)), 4)
        2.0425
    """
    import torch

    (l1, a1, b1), (l2, a2, b2) = _channels(lab1, lab2, channel_dim)
    c_mean = 0.5 * ((a1.square() + b1.square()).sqrt() + (a2.square() + b2.square()).sqrt())
    c7 = c_mean.pow(7)
    g = 0.5 * (1 - (c7 / (c7 + _POW25_7)).sqrt())
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p = (a1p.square() + b1.square()).sqrt()
    c2p = (a2p.square() + b2.square()).sqrt()
    h1p, h2p = _hue(a1p, b1), _hue(a2p, b2)
    cc = c1p * c2p
    achromatic = cc == 0

    # Hue difference the short way round (0 when either colour is achromatic).
    dh = h2p - h1p
    dh = torch.where(dh > math.pi, dh - 2 * math.pi, torch.where(dh < -math.pi, dh + 2 * math.pi, dh))
    dh = torch.where(achromatic, torch.zeros_like(dh), dh)
    d_hue = 2 * cc.sqrt() * torch.sin(dh / 2)

    # Mean hue: the paper's four cases (sum when achromatic, else the short-way mean).
    h_sum = h1p + h2p
    far = (h1p - h2p).abs() > math.pi
    h_mean = torch.where(far & (h_sum < 2 * math.pi), h_sum + 2 * math.pi,
                         torch.where(far, h_sum - 2 * math.pi, h_sum))
    h_mean = torch.where(achromatic, h_sum, 0.5 * h_mean)

    l_mean_50 = (0.5 * (l1 + l2) - 50).square()
    s_l = 1 + 0.015 * l_mean_50 / (20 + l_mean_50).sqrt()
    cp_mean = 0.5 * (c1p + c2p)
    s_c = 1 + 0.045 * cp_mean
    t = (1 - 0.17 * torch.cos(h_mean - math.radians(30)) + 0.24 * torch.cos(2 * h_mean)
         + 0.32 * torch.cos(3 * h_mean + math.radians(6))
         - 0.20 * torch.cos(4 * h_mean - math.radians(63)))
    s_h = 1 + 0.015 * cp_mean * t
    cp7 = cp_mean.pow(7)
    r_c = 2 * (cp7 / (cp7 + _POW25_7)).sqrt()
    d_theta = math.radians(30) * torch.exp(-((torch.rad2deg(h_mean) - 275) / 25).square())
    r_t = -torch.sin(2 * d_theta) * r_c

    term_l = (l2 - l1) / (k_l * s_l)
    term_c = (c2p - c1p) / (k_c * s_c)
    term_h = d_hue / (k_h * s_h)
    de2 = term_l.square() + term_c.square() + term_h.square() + r_t * term_c * term_h
    return de2.clamp_min(0).sqrt()


_FUNCTIONS = {"cie76": delta_e_cie76, "cie94": delta_e_cie94, "ciede2000": delta_e_ciede2000}


def delta_e_torch(lab1, lab2, formula: str = "cie76", *, channel_dim: int = -1):
    """ΔE between Lab tensors by ``formula`` (one of :data:`DELTA_E_FORMULAS`).

    ``lab1`` is the reference (it matters for CIE94 only). Shapes ``(*, 3)`` (or the
    channels at ``channel_dim``, e.g. ``(B, 3, H, W)`` with ``channel_dim=1``); returns
    ``(*)`` on the inputs' device.
    """
    return _FUNCTIONS[check_formula(formula)](lab1, lab2, channel_dim=channel_dim)


def delta_e_rgb_torch(rgb1, rgb2, formula: str = "cie76", *, dtype=None):
    """ΔE between 8-bit sRGB tensors, channels last: uint8 ``(*, 3)`` x ``(*, 3)`` -> ``(*)``.

    Lab follows docs/metric-definition.md §3 in float32 (:func:`paintkit.kernels.lab.srgb_to_lab_torch`); the
    formula then runs in ``dtype`` (default float32 for CIE76, float64 for CIE94 and
    CIEDE2000, so their hue arithmetic is not the limit on precision).
    """
    import torch

    from paintkit.kernels.lab import srgb_to_lab_torch

    check_formula(formula)
    if dtype is None:
        dtype = torch.float32 if formula == "cie76" else torch.float64
    return delta_e_torch(srgb_to_lab_torch(rgb1).to(dtype), srgb_to_lab_torch(rgb2).to(dtype), formula)
