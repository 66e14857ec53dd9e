"""sRGB (8-bit) -> CIE L*a*b* (D65), exactly as SPEC 1.3, in float32.

Three implementations of one definition:

- :func:`srgb_linear_lut` — the 256-entry per-channel linearisation table, computed with
  the SPEC formula in float32 NumPy (bit-identical to evaluating the formula per pixel);
- :func:`srgb_to_lab` — torch, batched, runs wherever its tensor lives (CPU or CUDA);
- :func:`srgb_to_lab_numba` and the inlinable :func:`lab_of_rgb` — Numba CPU, used by the
  fused counting kernels in :mod:`paintkit.kernels.tolerance_counts`.

kornia's ``rgb_to_lab`` rounds the CIE constants (0.008856, 7.787) and is *not* this
function; the precision contract (SPEC 1.9) is checked against a plain NumPy oracle.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

#: sRGB -> XYZ matrix (IEC 61966-2-1, D65), SPEC 1.3.
SRGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ],
    dtype=np.float32,
)
#: D65 reference white (X, Y, Z).
WHITE_D65 = np.array([0.95047, 1.00000, 1.08883], dtype=np.float32)
#: Threshold and slope of the linear segment of f(t).
LAB_EPSILON = np.float32((6.0 / 29.0) ** 3)
LAB_KAPPA = np.float32((29.0 / 6.0) ** 2 / 3.0)
LAB_OFFSET = np.float32(4.0 / 29.0)


def srgb_linear_lut() -> np.ndarray:
    """Linearised sRGB value of every 8-bit code, float32 of shape ``(256,)``.

    Computed with the SPEC 1.3 formula in float32 (``c = v / 255``; ``c / 12.92`` if
    ``c <= 0.04045`` else ``((c + 0.055) / 1.055) ** 2.4``), so looking a code up is
    bit-identical to evaluating the formula on that pixel in float32.
    """
    c = np.arange(256, dtype=np.float32) / np.float32(255.0)
    low = c / np.float32(12.92)
    high = ((c + np.float32(0.055)) / np.float32(1.055)) ** np.float32(2.4)
    return np.where(c <= np.float32(0.04045), low, high).astype(np.float32)


LINEAR_LUT = srgb_linear_lut()

# Matrix rows pre-divided by the white point (one multiply fewer per channel; moves Lab by
# about one float32 ulp, far inside the 1e-3 contract of SPEC 1.9).
_M_WHITE = (SRGB_TO_XYZ / WHITE_D65[:, None]).astype(np.float32)
_M00, _M01, _M02 = (np.float32(v) for v in _M_WHITE[0])
_M10, _M11, _M12 = (np.float32(v) for v in _M_WHITE[1])
_M20, _M21, _M22 = (np.float32(v) for v in _M_WHITE[2])
_ONE_THIRD = np.float32(1.0 / 3.0)


@njit(inline="always", cache=True)
def _cbrt_pos(t):
    """Cube root of a float32 ``t > 0`` as ``powf(t, 1/3)``.

    Numba's ``np.cbrt`` calls libm per element (~13 ns); ``powf`` takes ~4 ns and stays
    within a float32 ulp or two of the cube root, far inside SPEC 1.9's 1e-3 on ΔE.
    """
    return t**_ONE_THIRD


@njit(inline="always", cache=True)
def _lab_f(t):
    if t > LAB_EPSILON:
        return _cbrt_pos(t)
    return LAB_KAPPA * t + LAB_OFFSET


@njit(inline="always", cache=True)
def lab_of_rgb(r, g, b, lut):
    """L*, a*, b* (float32) of one 8-bit sRGB colour; ``lut`` is :data:`LINEAR_LUT`."""
    lr = lut[r]
    lg = lut[g]
    lb = lut[b]
    fx = _lab_f(_M00 * lr + _M01 * lg + _M02 * lb)
    fy = _lab_f(_M10 * lr + _M11 * lg + _M12 * lb)
    fz = _lab_f(_M20 * lr + _M21 * lg + _M22 * lb)
    return (
        np.float32(116.0) * fy - np.float32(16.0),
        np.float32(500.0) * (fx - fy),
        np.float32(200.0) * (fy - fz),
    )


@njit(parallel=True, cache=True)
def _srgb_to_lab_rows(rgb, lut, out):
    n = rgb.shape[0]
    for i in prange(n):
        prev_r = -1
        prev_g = -1
        prev_b = -1
        l_ = np.float32(0.0)
        a_ = np.float32(0.0)
        b_ = np.float32(0.0)
        for j in range(rgb.shape[1]):
            r = np.int32(rgb[i, j, 0])
            g = np.int32(rgb[i, j, 1])
            b = np.int32(rgb[i, j, 2])
            if r != prev_r or g != prev_g or b != prev_b:  # runs of one colour: reuse
                l_, a_, b_ = lab_of_rgb(r, g, b, lut)
                prev_r, prev_g, prev_b = r, g, b
            out[i, j, 0] = l_
            out[i, j, 1] = a_
            out[i, j, 2] = b_


def srgb_to_lab_numba(rgb: np.ndarray) -> np.ndarray:
    """L*a*b* of a uint8 array ``(..., 3)`` (channels last), float32 of the same shape.

    Parallel over rows; consecutive pixels of one colour are converted once.

    Example:
        >>> srgb_to_lab_numba(np.array([[255, 255, 255]], np.uint8)).round(3)
        array([[100.,   0.,   0.]], dtype=float32)
    """
    rgb = np.asarray(rgb)
    if rgb.dtype != np.uint8 or rgb.ndim < 1 or rgb.shape[-1] != 3:
        raise ValueError(
            f"rgb: expected a uint8 array of shape (..., 3), got {rgb.dtype} {rgb.shape}"
        )
    flat = np.ascontiguousarray(rgb).reshape(-1, rgb.shape[-2] if rgb.ndim > 1 else 1, 3)
    out = np.empty(flat.shape, np.float32)
    _srgb_to_lab_rows(flat, LINEAR_LUT, out)
    return out.reshape(rgb.shape)


# --------------------------------------------------------------------------------- torch


def srgb_to_lab(rgb):
    """L*a*b* of an sRGB tensor, channels last: uint8 ``(..., 3)`` -> float32 ``(..., 3)``.

    Runs on the tensor's device. The linearisation is a lookup in :data:`LINEAR_LUT`
    (bit-identical to the float32 formula); the rest follows SPEC 1.3 in float32. The
    result is a channels-last view of planar storage (``movedim(-1, 0)`` is contiguous).

    Example:
        >>> import torch
        >>> srgb_to_lab(torch.tensor([[255, 0, 0]], dtype=torch.uint8)).round(decimals=2)
        tensor([[53.2400, 80.0900, 67.2000]])
    """
    import torch

    if not isinstance(rgb, torch.Tensor) or rgb.dtype != torch.uint8 or rgb.shape[-1:] != (3,):
        got = f"{getattr(rgb, 'dtype', type(rgb).__name__)} {tuple(getattr(rgb, 'shape', ()))}"
        raise ValueError(f"rgb: expected a uint8 tensor of shape (..., 3), got {got}")
    return srgb_planes_to_lab(rgb.movedim(-1, 0)).movedim(0, -1)


_TORCH_LUTS: dict = {}


def srgb_planes_to_lab(planes):
    """Planar variant of :func:`srgb_to_lab`: uint8 ``(3, ...)`` -> float32 ``(3, ...)``."""
    import torch

    device = planes.device
    lut = _TORCH_LUTS.get(device)
    if lut is None:
        lut = _TORCH_LUTS[device] = torch.from_numpy(LINEAR_LUT).to(device)
    shape = planes.shape
    linear = lut.index_select(0, planes.reshape(-1).int()).view(3, -1)
    f = []
    # Explicit multiply-adds, not a matmul: CUDA matmuls may run in TF32 (10-bit mantissa).
    for row in _M_WHITE:
        t = linear[0] * float(row[0])
        t.add_(linear[1], alpha=float(row[1])).add_(linear[2], alpha=float(row[2]))
        # f(t): the linear segment is the tangent of cbrt at (6/29)^3 and cbrt is concave,
        # so f(t) = min(cbrt(max(t, eps)), kappa * t + offset) for every t.
        segment = t * float(LAB_KAPPA)
        segment.add_(float(LAB_OFFSET))
        f.append(torch.minimum(t.clamp_min_(float(LAB_EPSILON)).pow_(1.0 / 3.0), segment))
    fx, fy, fz = f
    lab = torch.empty_like(linear)
    torch.sub(fx, fy, out=lab[1]).mul_(500.0)
    torch.sub(fy, fz, out=lab[2]).mul_(200.0)
    torch.mul(fy, 116.0, out=lab[0]).sub_(16.0)
    return lab.view(shape)
