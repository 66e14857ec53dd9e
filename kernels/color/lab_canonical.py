"""The canonical sRGB -> CIE L*a*b* of the metric: the same bits on every machine.

docs/metric-definition.md §3 defines the metric's L*a*b* by arithmetic that no CPU, library
or device can change. This module is that definition in code:

- the sRGB curve is the table :data:`LINEAR_SRGB` of 256 float64 constants (each the float64
  nearest to the exact value of IEC 61966-2-1's formula, committed as hex literals);
- everything after the table is float64 ``+``, ``-``, ``x`` and ``/`` in a fixed order (each
  IEEE-754 correctly rounded, so one result on every machine), including the cube root
  (:func:`cbrt_canonical`: exact power-of-two scaling, a fixed first guess and three Halley
  steps);
- ``L``, ``a`` and ``b`` are rounded to float32 once, at the end.

No libm function, no SIMD-dispatched transcendental ufunc, no BLAS and no fused multiply-add
is involved (Numba compiles these loops without fast-math, so LLVM neither fuses nor reorders
the operations). The Lab of all 2^24 colours is pinned by a SHA-256 in the tests.

:func:`canonical_lab` converts pixels; :func:`canonical_lab_table` gives the planar Lab of every
colour code (``r * 65536 + g * 256 + b``), which the torch kernels look pixels up in;
:func:`canonical_delta_e` and :func:`canonical_bins` are the CIE76 step (float32, in the
definition's order).
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit, prange

__all__ = ["LINEAR_SRGB", "NUM_COLOURS", "bins_of_lab", "canonical_bins", "canonical_delta_e",
           "canonical_lab", "canonical_lab_of_colours", "canonical_lab_table", "cbrt_canonical",
           "lab_of_rgb_canonical"]

#: float64 ``(256,)``: linear-light value of each 8-bit sRGB code, the float64 nearest to
#: ``c / 12.92`` (``c <= 0.04045``) or ``((c + 0.055) / 1.055) ** 2.4`` with ``c = v / 255``
#: evaluated exactly (60 significant digits). Constants: no ``pow`` is ever called.
LINEAR_SRGB = np.array([float.fromhex(h) for h in (
    "0x0.0p+0", "0x1.3e45677c176f7p-12", "0x1.3e45677c176f7p-11", "0x1.dd681b3a23272p-11",
    "0x1.3e45677c176f7p-10", "0x1.8dd6c15b1d4b4p-10", "0x1.dd681b3a23272p-10", "0x1.167cba8c94818p-9",
    "0x1.3e45677c176f7p-9", "0x1.660e146b9a5d5p-9", "0x1.8dd6c15b1d4b4p-9", "0x1.b6a31b5259c94p-9",
    "0x1.e1e31d70c99dbp-9", "0x1.07c38bf8583a6p-8", "0x1.1fcc2beed6420p-8", "0x1.390ffaf95e277p-8",
    "0x1.53936cc7bc927p-8", "0x1.6f5addb50c913p-8", "0x1.8c6a94031b55fp-8", "0x1.aac6c0fb9734dp-8",
    "0x1.ca7381f9f6029p-8", "0x1.eb74e160978cap-8", "0x1.06e76bbda92b7p-7", "0x1.18c2a5a8a8041p-7",
    "0x1.2b4e09b3f0ae2p-7", "0x1.3e8b7b3bde962p-7", "0x1.527cd60af8b85p-7", "0x1.6723eea8d3706p-7",
    "0x1.7c8292a3db6b1p-7", "0x1.929a88d67b51ep-7", "0x1.a96d91a8016bap-7", "0x1.c0fd67499fab4p-7",
    "0x1.d94bbdefd740cp-7", "0x1.f25a44089883dp-7", "0x1.061551372c693p-6", "0x1.135f3e4c2cce0p-6",
    "0x1.210bb8642b172p-6", "0x1.2f1b8c1ae46bbp-6", "0x1.3d8f839b79c0bp-6", "0x1.4c6866b3e9fa1p-6",
    "0x1.5ba6fae794313p-6", "0x1.6b4c0380d2decp-6", "0x1.7b5841a1bf3aap-6", "0x1.8bcc74542add9p-6",
    "0x1.9ca95898dc8b3p-6", "0x1.adefa9761c01ep-6", "0x1.bfa0200597bd8p-6", "0x1.d1bb7381aec1dp-6",
    "0x1.e442595227bc9p-6", "0x1.f73585185e1b1p-6", "0x1.054ad45d76876p-5", "0x1.0f31ba386ff25p-5",
    "0x1.194fcb663747ap-5", "0x1.23a55e62a6627p-5", "0x1.2e32c8e148d0ep-5", "0x1.38f85fd21eaccp-5",
    "0x1.43f67766310fep-5", "0x1.4f2d6313fa8cdp-5", "0x1.5a9d759ba5ecdp-5", "0x1.6647010b254ecp-5",
    "0x1.722a56c2239eep-5", "0x1.7e47c775d2425p-5", "0x1.8a9fa33494b05p-5", "0x1.973239698b9cap-5",
    "0x1.a3ffd8e001387p-5", "0x1.b108cfc6b7fbdp-5", "0x1.be4d6bb31d520p-5", "0x1.cbcdf9a4616f0p-5",
    "0x1.d98ac60675830p-5", "0x1.e7841cb4f16ddp-5", "0x1.f5ba48fde2046p-5", "0x1.0216cad240764p-4",
    "0x1.096f2671eb814p-4", "0x1.10e65c38a5191p-4", "0x1.187c90bf8bce1p-4", "0x1.2031e85f5d6dap-4",
    "0x1.28068731a1952p-4", "0x1.2ffa9111cb94ap-4", "0x1.380e299e53f8fp-4", "0x1.40417439ca10fp-4",
    "0x1.4894940bddbfap-4", "0x1.5107ac0261e59p-4", "0x1.599aded247aa9p-4", "0x1.624e4ef892ed2p-4",
    "0x1.6b221ebb4817ep-4", "0x1.7416702a539d1p-4", "0x1.7d2b65206b525p-4", "0x1.86611f43e9e67p-4",
    "0x1.8fb7c007a4a6dp-4", "0x1.992f68abbbc89p-4", "0x1.a2c83a3e6566ap-4", "0x1.ac82559cb3642p-4",
    "0x1.b65ddb7354602p-4", "0x1.c05aec3f4fe5ep-4", "0x1.ca79a84ebe02ep-4", "0x1.d4ba2fc17a6a4p-4",
    "0x1.df1ca289d34b6p-4", "0x1.e9a1206d34002p-4", "0x1.f447c904cbb4cp-4", "0x1.ff10bbbe302c0p-4",
    "0x1.04fe0bedfe5f1p-3", "0x1.0a84fe3b36d8ep-3", "0x1.101d443dfc06dp-3", "0x1.15c6ed58eefdep-3",
    "0x1.1b8208da5fef0p-3", "0x1.214ea5fc9514ap-3", "0x1.272cd3e610121p-3", "0x1.2d1ca1a9d1cfbp-3",
    "0x1.331e1e479cdf4p-3", "0x1.393158ac3674dp-3", "0x1.3f565fb1a5fd3p-3", "0x1.458d421f735ddp-3",
    "0x1.4bd60eaae3e73p-3", "0x1.5230d3f736034p-3", "0x1.589da095dba9fp-3", "0x1.5f1c8306b3a3ap-3",
    "0x1.65ad89b841a29p-3", "0x1.6c50c307e53bfp-3", "0x1.73063d420fc7dp-3", "0x1.79ce06a2792ffp-3",
    "0x1.80a82d5453b5ap-3", "0x1.8794bf727eb3ep-3", "0x1.8e93cb07b8676p-3", "0x1.95a55e0ecec09p-3",
    "0x1.9cc98672cf47ep-3", "0x1.a400520f3619bp-3", "0x1.ab49ceb01c000p-3", "0x1.b2a60a1263b05p-3",
    "0x1.ba1511e3e6329p-3", "0x1.c196f3c39e76ep-3", "0x1.c92bbd41d41fbp-3", "0x1.d0d37be045850p-3",
    "0x1.d88e3d1250f61p-3", "0x1.e05c0e3d1d3dbp-3", "0x1.e83cfcb7c16eep-3", "0x1.f03115cb6bfcep-3",
    "0x1.f83866b38924ap-3", "0x1.00297e4ef4550p-2", "0x1.0440725571779p-2", "0x1.086115f6beb39p-2",
    "0x1.0c8b6fb5c735ap-2", "0x1.10bf860ef0397p-2", "0x1.14fd5f782a5a5p-2", "0x1.1945026102995p-2",
    "0x1.1d967532b31b0p-2", "0x1.21f1be50339e4p-2", "0x1.2656e41649ae2p-2", "0x1.2ac5ecdb988f8p-2",
    "0x1.2f3edef0b0ed5p-2", "0x1.33c1c0a020436p-2", "0x1.384e982e800aep-2", "0x1.3ce56bda84a7fp-2",
    "0x1.418641dd0c1bbp-2", "0x1.463120692c7adp-2", "0x1.4ae60dac4229cp-2", "0x1.4fa50fcdfde13p-2",
    "0x1.546e2cf0727a6p-2", "0x1.59416b3022856p-2", "0x1.5e1ed0a40daa8p-2", "0x1.6306635dbdd79p-2",
    "0x1.67f829695439fp-2", "0x1.6cf428cd96077p-2", "0x1.71fa678bf915cp-2", "0x1.770aeba0b0428p-2",
    "0x1.7c25bb02b7ac2p-2", "0x1.814adba3e0bd4p-2", "0x1.867a5370de0aep-2", "0x1.8bb428514f065p-2",
    "0x1.90f86027cb84bp-2", "0x1.964700d1ef1b0p-2", "0x1.9ba010286451ep-2", "0x1.a10393feefafcp-2",
    "0x1.a67192247a9bbp-2", "0x1.abea10631e191p-2", "0x1.b16d14802d5c7p-2", "0x1.b6faa43c403bap-2",
    "0x1.bc92c5533d782p-2", "0x1.c2357d7c64e5cp-2", "0x1.c7e2d26a596dcp-2", "0x1.cd9ac9cb2aef0p-2",
    "0x1.d35d69485ffc2p-2", "0x1.d92ab686ff77ep-2", "0x1.df02b7279a10ap-2", "0x1.e4e570c6539c1p-2",
    "0x1.ead2e8faec523p-2", "0x1.f0cb2558c9ea4p-2", "0x1.f6ce2b6f00980p-2", "0x1.fcdc00c85bec1p-2",
    "0x1.017a5575b3cafp-1", "0x1.048c17ad3c049p-1", "0x1.07a349c9d9836p-1", "0x1.0abfee888c04ep-1",
    "0x1.0de208a4444c7p-1", "0x1.11099ad5e83e9p-1", "0x1.1436a7d456eedp-1", "0x1.176932546ca12p-1",
    "0x1.1aa13d0906bd8p-1", "0x1.1ddecaa307b83p-1", "0x1.2121ddd15aecbp-1", "0x1.246a7940f86cfp-1",
    "0x1.27b89f9ce8c4ap-1", "0x1.2b0c538e48b06p-1", "0x1.2e6597bc4cc9fp-1", "0x1.31c46ecc4528bp-1",
    "0x1.3528db61a0f70p-1", "0x1.3892e01df1fcbp-1", "0x1.3c027fa0f01e9p-1", "0x1.3f77bc887cd39p-1",
    "0x1.42f29970a68f7p-1", "0x1.467318f3ac22bp-1", "0x1.49f93daa00112p-1", "0x1.4d850a2a4bddfp-1",
    "0x1.51168109734e3p-1", "0x1.54ada4da97a1ap-1", "0x1.584a782f1ac21p-1", "0x1.5becfd96a2697p-1",
    "0x1.5f95379f1b3eap-1", "0x1.634328d4bbe96p-1", "0x1.66f6d3c2081cfp-1", "0x1.6ab03aefd39a9p-1",
    "0x1.6e6f60e5452afp-1", "0x1.72344827d98f2p-1", "0x1.75fef33b66698p-1", "0x1.79cf64a21d1e1p-1",
    "0x1.7da59edc8daaep-1", "0x1.8181a469a9786p-1", "0x1.856377c6c6222p-1", "0x1.894b1b6fa0376p-1",
    "0x1.8d3891de5df47p-1", "0x1.912bdd8b91f42p-1", "0x1.952500ee3dda3p-1", "0x1.9923fe7bd4f64p-1",
    "0x1.9d28d8a83edfap-1", "0x1.a13391e5da09ep-1", "0x1.a5442ca57e52cp-1", "0x1.a95aab567f88ep-1",
    "0x1.ad771066afec1p-1", "0x1.b1995e4262a66p-1", "0x1.b5c197546e3f6p-1", "0x1.b9efbe062f083p-1",
    "0x1.be23d4bf8981ap-1", "0x1.c25ddde6ecbbbp-1", "0x1.c69ddbe154af2p-1", "0x1.cae3d1124c90dp-1",
    "0x1.cf2fbfdbf11edp-1", "0x1.d381aa9ef2e7fp-1", "0x1.d7d993ba988d3p-1", "0x1.dc377d8cc0fd2p-1",
    "0x1.e09b6a71e5aa4p-1", "0x1.e5055cc51cbb2p-1", "0x1.e97556e01b350p-1", "0x1.edeb5b1b37216p-1",
    "0x1.f2676bcd69adcp-1", "0x1.f6e98b4c51465p-1", "0x1.fb71bbec33ab1p-1", "0x1.0000000000000p+0",
)], dtype=np.float64)

# sRGB -> XYZ matrix and D65 white point (float64 nearest to the decimal constants).
_M00, _M01, _M02 = 0.4124564, 0.3575761, 0.1804375
_M10, _M11, _M12 = 0.2126729, 0.7151522, 0.0721750
_M20, _M21, _M22 = 0.0193339, 0.1191920, 0.9503041
_WX, _WY, _WZ = 0.95047, 1.00000, 1.08883
#: ``(6/29)^3``, ``(29/6)^2 / 3`` and ``4/29`` as correctly rounded float64 quotients.
EPSILON = 216.0 / 24389.0
KAPPA = 841.0 / 108.0
OFFSET = 4.0 / 29.0
#: Number of 8-bit sRGB colours.
NUM_COLOURS = 1 << 24


@njit(inline="always", cache=True)
def cbrt_canonical(t):
    """Cube root of a float64 ``t`` in ``[(6/29)^3, 8)``, float64, from ``+ - x /`` only.

    Exact scaling into ``[1/8, 8)`` (up to three times ``t * 8``, ``s * 0.5``), the guess
    ``y = 0.5 + 0.5 t``, then three Halley steps written as corrections,
    ``y = y - (y (y^3 - t)) / ((y^3 + y^3) + t)`` with ``y^3 = (y y) y``, and ``s y``.
    Within one float64 ulp of the true cube root on the metric's domain (tested against
    exact rational arithmetic).
    """
    s = 1.0
    if t < 0.125:
        t = t * 8.0
        s = s * 0.5
    if t < 0.125:
        t = t * 8.0
        s = s * 0.5
    if t < 0.125:
        t = t * 8.0
        s = s * 0.5
    y = 0.5 + 0.5 * t
    for _ in range(3):
        y3 = (y * y) * y
        y = y - (y * (y3 - t)) / ((y3 + y3) + t)
    return s * y


@njit(inline="always", cache=True)
def _f(t):
    if t > EPSILON:
        return cbrt_canonical(t)
    return KAPPA * t + OFFSET


@njit(inline="always", cache=True)
def lab_of_rgb_canonical(r, g, b):
    """Canonical ``(L, a, b)`` (float32) of one 8-bit colour ``(r, g, b)``."""
    lr = LINEAR_SRGB[r]
    lg = LINEAR_SRGB[g]
    lb = LINEAR_SRGB[b]
    x = ((_M00 * lr + _M01 * lg) + _M02 * lb) / _WX
    y = ((_M10 * lr + _M11 * lg) + _M12 * lb) / _WY
    z = ((_M20 * lr + _M21 * lg) + _M22 * lb) / _WZ
    fx = _f(x)
    fy = _f(y)
    fz = _f(z)
    return (np.float32(116.0 * fy - 16.0), np.float32(500.0 * (fx - fy)),
            np.float32(200.0 * (fy - fz)))


@njit(parallel=True, nogil=True, cache=True)
def _lab_pixels(rgb, out):
    for k in prange(rgb.shape[0]):
        lab = lab_of_rgb_canonical(np.int64(rgb[k, 0]), np.int64(rgb[k, 1]), np.int64(rgb[k, 2]))
        out[k, 0] = lab[0]
        out[k, 1] = lab[1]
        out[k, 2] = lab[2]


@njit(parallel=True, nogil=True, cache=True)
def _lab_codes(start, out):
    for k in prange(out.shape[1]):
        code = start + k
        lab = lab_of_rgb_canonical(code >> 16, (code >> 8) & 255, code & 255)
        out[0, k] = lab[0]
        out[1, k] = lab[1]
        out[2, k] = lab[2]


def canonical_lab(rgb) -> np.ndarray:
    """Canonical L*a*b* of uint8 sRGB ``(..., 3)``: float32 ``(..., 3)``.

    Example:
        >>> canonical_lab(np.array([[255, 0, 0]], np.uint8)).round(2)
        array([[53.24, 80.09, 67.2 ]], dtype=float32)
    """
    rgb = np.asarray(rgb)
    if rgb.dtype != np.uint8 or rgb.ndim < 1 or rgb.shape[-1] != 3:
        raise ValueError(f"rgb: expected a uint8 array of shape (..., 3), got {rgb.dtype} "
                         f"{rgb.shape}")
    flat = np.ascontiguousarray(rgb).reshape(-1, 3)
    out = np.empty(flat.shape, np.float32)
    if flat.shape[0]:
        _lab_pixels(flat, out)
    return out.reshape(rgb.shape)


_TABLE: list = []
_TABLE_LOCK = threading.Lock()


def canonical_lab_table() -> np.ndarray:
    """Planar canonical L*a*b* of every colour code: float32 ``(3, 2^24)`` (192 MiB).

    Column ``code`` holds the Lab of ``(code >> 16, (code >> 8) & 255, code & 255)``. Built
    once per process (about a second on two cores) and shared; read-only.
    """
    if _TABLE:
        return _TABLE[0]
    with _TABLE_LOCK:  # two threads asking at once build it once
        if not _TABLE:
            table = np.empty((3, NUM_COLOURS), np.float32)
            step = 1 << 20  # bounded work per call keeps Ctrl-C responsive
            for start in range(0, NUM_COLOURS, step):
                _lab_codes(start, table[:, start:start + step])
            table.flags.writeable = False
            _TABLE.append(table)
    return _TABLE[0]


def canonical_delta_e(lab_a: np.ndarray, lab_b: np.ndarray) -> np.ndarray:
    """CIE76 ΔE of float32 Lab ``(..., 3)`` pairs in the definition's order: float32 ``(...)``.

    ``d = lab_a - lab_b`` then ``sqrt((dL*dL + da*da) + db*db)``, each a separate float32
    IEEE operation (NumPy ufuncs never fuse a multiply into an add).
    """
    d = np.subtract(lab_a, lab_b, dtype=np.float32)
    sq = d * d
    return np.sqrt((sq[..., 0] + sq[..., 1]) + sq[..., 2])


def canonical_bins(rgb_a: np.ndarray, rgb_b: np.ndarray, num_bins: int = 12) -> np.ndarray:
    """``min(ceil(ΔE), num_bins - 1)`` of two uint8 ``(..., 3)`` arrays, int64 ``(...)``."""
    return bins_of_lab(canonical_lab(rgb_a), canonical_lab(rgb_b), num_bins)


def bins_of_lab(lab_a: np.ndarray, lab_b: np.ndarray, num_bins: int = 12) -> np.ndarray:
    """:func:`canonical_bins` from the canonical Lab ``(..., 3)`` of both sides (a side
    shared by several comparisons is converted once)."""
    d = canonical_delta_e(lab_a, lab_b)
    return np.minimum(np.ceil(d), num_bins - 1).astype(np.int64)


def canonical_lab_of_colours(rgb: np.ndarray) -> np.ndarray:
    """:func:`canonical_lab` of uint8 ``(N, 3)`` pixels that repeat a few colours (an
    answer's or input's pixels): each distinct colour converted once, float32 ``(N, 3)``.
    Same values as :func:`canonical_lab` (one colour, one Lab); faster when there are
    hundreds of pixels and at most a quarter as many colours."""
    if rgb.shape[0] < 256:
        return canonical_lab(rgb)
    codes = (rgb[:, 0].astype(np.int32) << 16) | (rgb[:, 1].astype(np.int32) << 8) | rgb[:, 2]
    colours, where = np.unique(codes, return_inverse=True)
    if 4 * colours.size > codes.size:
        return canonical_lab(rgb)
    distinct = np.stack([colours >> 16, (colours >> 8) & 255, colours & 255], axis=-1)
    return canonical_lab(distinct.astype(np.uint8))[where]
