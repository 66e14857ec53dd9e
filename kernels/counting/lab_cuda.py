"""The canonical sRGB -> L*a*b* as a CUDA device function: the kernel's ``lab="compute"``.

Instead of gathering a colour's Lab from the 256 MiB table (16 bytes at a random address
per colour of a noisy output), the fused counting kernel can evaluate the definition
itself (docs/metric-definition.md §3): the 256 linear-light constants
(:data:`~paintkit.kernels.color.lab_canonical.LINEAR_SRGB`, 2 KiB of constant memory), the
XYZ rows summed left to right, ``f(t)`` with the canonical cube root (exact power-of-two
scaling, a fixed guess, three Halley steps) and one rounding to float32 per channel. Every
float64 operation is a round-to-nearest intrinsic of
:mod:`paintkit.kernels.counting.cuda_rn`, in the order of
:func:`~paintkit.kernels.color.lab_canonical.lab_of_rgb_canonical`, so the result is the
table's entry bit for bit (the table is that function's output).
"""

from __future__ import annotations

import numpy as np
from numba import cuda, int32

from paintkit.kernels.color import lab_canonical as _canonical
from paintkit.kernels.counting.cuda_rn import add, div, mul, sub, to_float32

__all__ = ["lab_of_code"]

_LINEAR = np.ascontiguousarray(_canonical.LINEAR_SRGB, np.float64)
# the sRGB -> XYZ rows and the D65 white, the float64 constants of the definition
_M00, _M01, _M02 = _canonical._M00, _canonical._M01, _canonical._M02
_M10, _M11, _M12 = _canonical._M10, _canonical._M11, _canonical._M12
_M20, _M21, _M22 = _canonical._M20, _canonical._M21, _canonical._M22
_WX, _WY, _WZ = _canonical._WX, _canonical._WY, _canonical._WZ
_EPSILON, _KAPPA, _OFFSET = _canonical.EPSILON, _canonical.KAPPA, _canonical.OFFSET


@cuda.jit(device=True)
def _cbrt(t):
    """:func:`~paintkit.kernels.color.lab_canonical.cbrt_canonical` of a float64 ``t``."""
    s = 1.0
    if t < 0.125:
        t = mul(t, 8.0)
        s = mul(s, 0.5)
    if t < 0.125:
        t = mul(t, 8.0)
        s = mul(s, 0.5)
    if t < 0.125:
        t = mul(t, 8.0)
        s = mul(s, 0.5)
    y = add(0.5, mul(0.5, t))
    for _ in range(3):
        y3 = mul(mul(y, y), y)
        y = sub(y, div(mul(y, sub(y3, t)), add(add(y3, y3), t)))
    return mul(s, y)


@cuda.jit(device=True)
def _f(t):
    if t > _EPSILON:
        return _cbrt(t)
    return add(mul(_KAPPA, t), _OFFSET)


@cuda.jit(device=True)
def _row(c0, c1, c2, lr, lg, lb, white):
    return div(add(add(mul(c0, lr), mul(c1, lg)), mul(c2, lb)), white)


@cuda.jit(device=True)
def lab_of_code(pairs, code):
    """Canonical ``(L, a, b)`` float32 of colour code ``code`` (``r << 16 | g << 8 | b``).
    ``pairs`` (the table argument of the table variant) is not read."""
    linear = _LINEAR
    lr = linear[int32(code >> 16) & 255]
    lg = linear[int32(code >> 8) & 255]
    lb = linear[int32(code) & 255]
    fx = _f(_row(_M00, _M01, _M02, lr, lg, lb, _WX))
    fy = _f(_row(_M10, _M11, _M12, lr, lg, lb, _WY))
    fz = _f(_row(_M20, _M21, _M22, lr, lg, lb, _WZ))
    return (to_float32(sub(mul(116.0, fy), 16.0)), to_float32(mul(500.0, sub(fx, fy))),
            to_float32(mul(200.0, sub(fy, fz))))
