"""float64 IEEE operations for the fused CUDA kernel, each one correctly rounded and never fused.

NVVM contracts ``a * b + c`` into a fused multiply-add unless told otherwise, and an FMA
rounds once where the canonical arithmetic of docs/metric-definition.md rounds twice. The
device functions of :mod:`paintkit.kernels.counting.delta_e_cuda` and
:mod:`paintkit.kernels.counting.lab_cuda` therefore write every float64 ``+ - x /`` and
``sqrt`` through these names: libdevice's round-to-nearest intrinsics (``dadd_rn``,
``dmul_rn``, ``ddiv_rn``, ``dsqrt_rn``), which the compiler may not contract,
``floor`` (exact) and ``double2float_rn`` (the one rounding of a float64 to float32).

Under ``NUMBA_ENABLE_CUDASIM=1`` they are NumPy float64 scalar operations (separately
rounded IEEE operations too), so the simulator evaluates the kernel in the same order with
the same roundings as the CPU Numba kernels, which compile without fast-math.
"""

from __future__ import annotations

import numpy as np
from numba.core import config

__all__ = ["add", "div", "floor", "mul", "sqrt", "sub", "to_float32"]

if config.ENABLE_CUDASIM:  # NumPy float64 scalars: separately rounded IEEE operations

    def add(a, b):
        return np.float64(a) + np.float64(b)

    def sub(a, b):
        return np.float64(a) - np.float64(b)

    def mul(a, b):
        return np.float64(a) * np.float64(b)

    def div(a, b):
        return np.float64(a) / np.float64(b)

    def sqrt(a):
        return np.sqrt(np.float64(a))

    def floor(a):
        return np.floor(np.float64(a))

    def to_float32(a):
        return np.float32(a)

else:  # round-to-nearest intrinsics: never contracted into a fused multiply-add
    from numba import cuda
    from numba.cuda import libdevice

    add, mul = libdevice.dadd_rn, libdevice.dmul_rn
    div, sqrt, floor = libdevice.ddiv_rn, libdevice.dsqrt_rn, libdevice.floor
    to_float32 = libdevice.double2float_rn

    @cuda.jit(device=True)
    def sub(a, b):
        """``a - b``: IEEE defines it as ``a + (-b)`` (libdevice has no ``dsub_rn``)."""
        return libdevice.dadd_rn(a, -b)
