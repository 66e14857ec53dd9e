"""Fast sRGB (8-bit) -> CIE L*a*b* (D65) after docs/metric-definition.md §3, in float32.

The pieces:

- :func:`srgb_linear_lut` — the 256-entry per-channel linearisation table: the canonical
  float64 constants rounded to float32;
- :func:`srgb_to_lab_torch` — torch, batched, runs wherever its tensor lives (CPU or CUDA);
- :func:`srgb_to_lab_numba` and the inlinable :func:`lab_of_rgb` — Numba CPU, used by the
  fused counting kernels in :mod:`paintkit.kernels.counting.cie76_numba`.

These are the *fast* Lab conversions (float32, a bit-trick or ``pow`` cube root): within
1e-4 of the canonical Lab that defines the metric (:mod:`paintkit.kernels.color.lab_canonical`).
The counting kernels use them only where that cannot change a count (the guard band of
:mod:`paintkit.kernels.counting.bins`), or look the canonical Lab up
(:mod:`paintkit.kernels.color.lab_table`). kornia's ``rgb_to_lab`` rounds the CIE constants
(0.008856, 7.787) and is *not* this function.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic

from paintkit.kernels.color.lab_canonical import LINEAR_SRGB

#: sRGB -> XYZ matrix (IEC 61966-2-1, D65), docs/metric-definition.md §3.
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

    The canonical table (:data:`~paintkit.kernels.color.lab_canonical.LINEAR_SRGB`, float64
    constants) rounded to float32: no ``pow`` at run time, so the same bits on every machine.
    """
    return LINEAR_SRGB.astype(np.float32)


LINEAR_LUT = srgb_linear_lut()

# Matrix rows pre-divided by the white point (one multiply fewer per channel; moves Lab by
# about one float32 ulp, far inside the 1e-3 contract of docs/metric-definition.md §9).
_M_WHITE = (SRGB_TO_XYZ / WHITE_D65[:, None]).astype(np.float32)
_M00, _M01, _M02 = (np.float32(v) for v in _M_WHITE[0])
_M10, _M11, _M12 = (np.float32(v) for v in _M_WHITE[1])
_M20, _M21, _M22 = (np.float32(v) for v in _M_WHITE[2])


@intrinsic
def _f32_bits(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.IntType(32))

    return types.uint32(types.float32), codegen


@intrinsic
def _bits_f32(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.FloatType())

    return types.float32(types.uint32), codegen


_CBRT_BIAS = np.uint32(709921077)  # (127 - 127 / 3) << 23: exponent / 3 in the bits


@njit(inline="always", cache=True, error_model="numpy")
def cbrt_fast(t):
    """Cube root of a float32 ``t > 1e-30`` (normal): bit-trick guess + two Halley steps.

    Branch-free (vectorises); the guess is within ~6 %, the first step brings it to ~1e-4,
    the second (written as a correction, so it rounds like one operation) to about one
    float32 ulp. The Lab values stay within 1.5e-4 of the oracle's on every 8-bit colour
    (test), far inside docs/metric-definition.md §9's 1e-3 on ΔE. Numba's ``np.cbrt`` calls libm (~13 ns) and
    ``powf`` ~4 ns, neither vectorises.
    """
    y = _bits_f32(_f32_bits(t) // np.uint32(3) + _CBRT_BIAS)
    y3 = y * y * y
    y = y * (y3 + t + t) / (y3 + y3 + t)
    y3 = y * y * y
    return y - y * (y3 - t) / (y3 + y3 + t)


@njit(inline="always", cache=True, error_model="numpy")
def _lab_f(t):
    root = cbrt_fast(max(t, LAB_EPSILON))  # clamped: t = 0 would reach denormals
    segment = LAB_KAPPA * t + LAB_OFFSET
    return root if t > LAB_EPSILON else segment


@njit(inline="always", cache=True, error_model="numpy")
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


@njit(cache=True, error_model="numpy")
def linear_row(rgb, lut, lin):
    """Linearised channels of a row of uint8 ``(W, 3)`` pixels into planar ``lin`` ``(3, W)``."""
    for x in range(rgb.shape[0]):
        lin[0, x] = lut[rgb[x, 0]]
        lin[1, x] = lut[rgb[x, 1]]
        lin[2, x] = lut[rgb[x, 2]]


@njit(cache=True, error_model="numpy")
def lab_planes(lin, lab):
    """Planar L*a*b* ``(3, W)`` of planar linear RGB ``(3, W)``; a branch-free SIMD loop."""
    for x in range(lin.shape[1]):
        lr = lin[0, x]
        lg = lin[1, x]
        lb = lin[2, x]
        fx = _lab_f(_M00 * lr + _M01 * lg + _M02 * lb)
        fy = _lab_f(_M10 * lr + _M11 * lg + _M12 * lb)
        fz = _lab_f(_M20 * lr + _M21 * lg + _M22 * lb)
        lab[0, x] = np.float32(116.0) * fy - np.float32(16.0)
        lab[1, x] = np.float32(500.0) * (fx - fy)
        lab[2, x] = np.float32(200.0) * (fy - fz)


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


def srgb_to_lab_torch(rgb):
    """L*a*b* of an sRGB tensor, channels last: uint8 ``(..., 3)`` -> float32 ``(..., 3)``.

    Runs on the tensor's device. The linearisation is a lookup in :data:`LINEAR_LUT`
    (bit-identical to the float32 formula); the rest follows docs/metric-definition.md §3 in float32. The
    result is a channels-last view of planar storage (``movedim(-1, 0)`` is contiguous).

    Example:
        >>> import torch
        >>> srgb_to_lab_torch(torch.tensor([[255, 0, 0]], dtype=torch.uint8)).round(decimals=2)
        tensor([[53.2400, 80.0900, 67.2000]])
    """
    import torch

    if not isinstance(rgb, torch.Tensor) or rgb.dtype != torch.uint8 or rgb.shape[-1:] != (3,):
        got = f"{getattr(rgb, 'dtype', type(rgb).__name__)} {tuple(getattr(rgb, 'shape', ()))}"
        raise ValueError(f"rgb: expected a uint8 tensor of shape (..., 3), got {got}")
    return srgb_planes_to_lab(rgb.movedim(-1, 0)).movedim(0, -1)


_TORCH_LUTS: dict = {}


class Workspace:
    """Reusable temporaries for chunked torch kernels: ``get(name, shape, dtype)`` returns a
    view of a buffer kept per name, grown when needed.

    On CPU every fresh multi-megabyte tensor costs page faults (glibc gives large blocks back
    to the OS on free); reusing buffers halves the time of the Lab conversion.
    """

    def __init__(self, device):
        self.device = device
        self._buffers: dict = {}

    def get(self, name, shape, dtype):
        import torch

        numel = math.prod(shape)
        buf = self._buffers.get(name)
        if buf is None or buf.dtype != dtype or buf.numel() < numel:
            buf = self._buffers[name] = torch.empty(numel, dtype=dtype, device=self.device)
        return buf[:numel].view(shape)


_LAB_PIXELS_PER_STEP = {"cpu": 1 << 18}


def srgb_planes_to_lab(planes, work: Workspace | None = None):
    """Planar variant of :func:`srgb_to_lab_torch`: uint8 ``(3, ...)`` -> float32 ``(3, ...)``.

    With ``work`` the result and every temporary live in its buffers (the result is valid
    until the next call with the same workspace).
    """
    import torch

    device = planes.device
    lut = _TORCH_LUTS.get(device)
    if lut is None:
        lut = _TORCH_LUTS[device] = torch.from_numpy(LINEAR_LUT).to(device)
    shape = planes.shape
    n = planes[0].numel()
    if work is None:  # a whole batch: in chunks through one workspace, into a fresh result
        work = Workspace(device)
        step = _LAB_PIXELS_PER_STEP.get(device.type, 1 << 24)
        if n > step:
            flat = planes.reshape(3, n)
            lab = torch.empty((3, n), dtype=torch.float32, device=device)
            for u in range(0, n, step):
                lab[:, u:u + step] = srgb_planes_to_lab(flat[:, u:u + step], work)
            return lab.view(shape)
        lab = srgb_planes_to_lab(planes, work)
        return lab.clone() if lab.untyped_storage().nbytes() > lab.nbytes else lab
    index = work.get("lab_index", (3, n), torch.int64)  # int64 indices gather faster on CPU
    index.copy_(planes.reshape(3, n))
    linear = work.get("lab_linear", (3, n), torch.float32)
    torch.index_select(lut, 0, index.view(-1), out=linear.view(-1))
    f = work.get("lab_f", (3, n), torch.float32)
    # Explicit multiply-adds, not a matmul: CUDA matmuls may run in TF32 (10-bit mantissa).
    for c, row in enumerate(_M_WHITE):
        torch.mul(linear[0], float(row[0]), out=f[c])
        f[c].add_(linear[1], alpha=float(row[1])).add_(linear[2], alpha=float(row[2]))
    # f(t): the linear segment is the tangent of cbrt at (6/29)^3 and cbrt is concave, so
    # f(t) = min(cbrt(max(t, eps)), kappa * t + offset) for every t.
    segment = torch.mul(f, float(LAB_KAPPA), out=linear).add_(float(LAB_OFFSET))
    torch.minimum(f.clamp_min_(float(LAB_EPSILON)).pow_(1.0 / 3.0), segment, out=f)
    lab = work.get("lab", (3, n), torch.float32)
    fx, fy, fz = f
    torch.sub(fx, fy, out=lab[1]).mul_(500.0)
    torch.sub(fy, fz, out=lab[2]).mul_(200.0)
    torch.mul(fy, 116.0, out=lab[0]).sub_(16.0)
    return lab.view(shape)
