"""The device code of the fused CUDA counting kernel (the host side, which picks a kernel
and launches it, is :mod:`paintkit.kernels.counting.cie76_cuda`).

Every kernel adds each pixel to its output's three ``(12,)`` histograms
(docs/metric-definition.md §6): ``ΔE(O, A)`` in the edit region, ``ΔE(O, A)`` in the
preservation region and ``ΔE(O, I)`` everywhere. Exactness:

- L*a*b* comes from the canonical table of all 2^24 colours, float32 ``(2^24, 4)``
  interleaved (L, a, b, 0), read as two 8-byte words per colour (``pairs``: the table viewed
  as int64 ``(2^24, 2)``) whose halves are reinterpreted as the float32 values: the same
  bits as three 4-byte loads, in fewer memory transactions; or (``lab="compute"``) it is
  the canonical arithmetic evaluated in the kernel (:mod:`paintkit.kernels.counting.lab_cuda`),
  the table's bits without its gathers;
- CIE76: ``ΔE² = (dL*dL + da*da) + db*db`` with round-to-nearest multiply and add intrinsics
  (``fmul_rn`` / ``fadd_rn``): never contracted into an FMA, so every operation is the
  definition's separately rounded float32 one; the bin is the number of
  :data:`~paintkit.kernels.counting.bins.BIN_THRESHOLDS` below ``ΔE²`` (no square root);
- CIE94 and CIEDE2000: the canonical float64 arithmetic with float64 round-to-nearest
  intrinsics (:mod:`paintkit.kernels.counting.delta_e_cuda`), the bin ``min(ceil(ΔE), 11)``
  of the float64 value, as on the CPU;
- counts go into per-warp shared-memory histograms with integer atomics, then into the int64
  result with integer atomics: no float reduction, so the result cannot depend on
  scheduling. Bin-0 pixels (the bulk of a good output) are counted in registers. A pixel's
  ΔE(O, A) bin goes to one atomic site whose slot (edit or preservation) a select picks: with
  one site per region, in divergent branches, a noisy 1024² batch of 64 took 0.89 ms
  instead of 0.64 on an H200;
- when asked for rewards, the last of an output's blocks to finish (a ticket taken after a
  memory fence) reads its finished histograms and writes its reward, in the arithmetic of
  every other path: counts and rewards in one launch.

:func:`count_kernel` compiles one kernel per way of reading the pixels (``layout``):

- ``"pixels"``: one pixel a step, outputs ``(N, M, 3)`` of any strides (uint8, or float32
  converted as ``round(x * 255)``), answers and inputs uint8 ``(B, M, 3)``;
- ``"values"``, ``"words"``, ``"planar"``: four pixels a step with ``M`` divisible by 4,
  answers and inputs as int32 words ``(B, 3 * M / 4)`` (three 4-byte loads for four
  pixels, instead of twelve single bytes); outputs as values ``(N, M, 3)`` of any strides
  (``"values"``), interleaved uint8 words ``(N, 3 * M / 4)`` (``"words"``, a contiguous
  ``(N, H, W, 3)`` batch) or planar uint8 words ``(N, 3, M / 4)`` (``"planar"``, a
  contiguous ``(N, 3, H, W)`` batch). On an H200, a noisy 1024² batch of 64 takes 0.66 ms
  as words, 0.69 as planar words, 0.77 as float values and 0.74 one pixel a step (the
  kernel before, one pixel a step with two atomic sites: 0.84; bench/cuda_count_variants.py).

Under ``NUMBA_ENABLE_CUDASIM=1`` the same kernels run in Numba's CUDA simulator on NumPy
arrays; there the intrinsics are plain NumPy float32 operations, which never fuse either.
"""

from __future__ import annotations

import numpy as np
from numba import cuda, float32, float64, int32, int64
from numba.core import config

from paintkit.kernels.counting.bins import BIN_THRESHOLDS, NUM_BINS
from paintkit.kernels.counting.delta_e_cuda import bin_cie94, bin_ciede2000
from paintkit.kernels.counting.lab_cuda import lab_of_code

__all__ = ["LAB_SOURCES", "LAYOUTS", "SLOTS", "THREADS", "count_kernel"]

#: Threads per block and warps per block (one private histogram per warp).
THREADS = 256
_WARPS = THREADS // 32
#: Histogram slots per output: ``slot = 12 * histogram + bin`` (edit, preservation, changed).
SLOTS = 3 * NUM_BINS
LAYOUTS = ("pixels", "values", "words", "planar")
_THRESHOLDS = np.asarray(BIN_THRESHOLDS, np.float32)
_ROUND = np.float32(1 << 23)  # (y + 2^23) - 2^23 is rint(y) in float32 for 0 <= y <= 255
_LOW = 0xFFFFFFFF

if config.ENABLE_CUDASIM:  # NumPy float32 scalars: separately rounded IEEE operations

    def _mul(a, b):
        return np.float32(a) * np.float32(b)

    def _add(a, b):
        return np.float32(a) + np.float32(b)

    def _sub(a, b):
        return np.float32(a) - np.float32(b)

    def _as_float(bits):
        return np.array([bits], np.int64).astype(np.uint32).view(np.float32)[0]

else:  # round-to-nearest intrinsics: never contracted into a fused multiply-add
    from numba.cuda import libdevice

    _mul, _add, _sub = libdevice.fmul_rn, libdevice.fadd_rn, libdevice.fsub_rn
    _as_float = libdevice.int_as_float


@cuda.jit(device=True)
def _lab(pairs, code):
    """``(L, a, b)`` float32 of a colour code, from two 8-byte words of the table."""
    w0 = pairs[code, 0]
    w1 = pairs[code, 1]
    return (_as_float(int32(w0 & _LOW)), _as_float(int32(w0 >> 32)),
            _as_float(int32(w1 & _LOW)))


@cuda.jit(device=True)
def _bin(lo, ao, bo, lx, ax, bx):
    """``min(ceil(ΔE), 11)``: the count of thresholds below ``ΔE²``."""
    dl = _sub(lo, lx)
    da = _sub(ao, ax)
    db = _sub(bo, bx)
    d2 = _add(_add(_mul(dl, dl), _mul(da, da)), _mul(db, db))
    thresholds = cuda.const.array_like(_THRESHOLDS)  # float32: compared in float32
    b = 0
    for j in range(NUM_BINS - 1):
        if d2 > thresholds[j]:
            b += 1
    return b


def _pixel_counter(lab_of, bin_of):
    """The device function adding one pixel's non-zero bins to the warp's histogram, with
    ``lab_of(pairs, code)`` the Lab of a colour code and ``bin_of(output Lab, reference
    Lab)`` its bin; it returns ``zeros`` (the register counts of bin 0: edit, preservation,
    changed) updated."""

    @cuda.jit(device=True)
    def count_pixel(pairs, code_o, code_a, code_i, counts, warp, zeros):
        in_edit = code_a != code_i
        bin_oa = 0
        bin_oi = 0
        if code_o != code_a or code_o != code_i:
            lo, ao, bo = lab_of(pairs, code_o)
            if code_o != code_a:
                la, aa, ba = lab_of(pairs, code_a)
                bin_oa = bin_of(lo, ao, bo, la, aa, ba)
            if code_o != code_i:
                li, ai, bi = lab_of(pairs, code_i)
                bin_oi = bin_of(lo, ao, bo, li, ai, bi)
        zero_edit, zero_kept, zero_changed = zeros
        if bin_oa == 0:
            if in_edit:
                zero_edit += 1
            else:
                zero_kept += 1
        else:  # one atomic site, its slot chosen by a select (see the module docstring)
            cuda.atomic.add(counts, (warp, bin_oa if in_edit else NUM_BINS + bin_oa), 1)
        if bin_oi == 0:
            zero_changed += 1
        else:
            cuda.atomic.add(counts, (warp, 2 * NUM_BINS + bin_oi), 1)
        return zero_edit, zero_kept, zero_changed

    return count_pixel


@cuda.jit(device=True)
def _byte(w0, w1, w2, c):
    """Byte ``c`` (0..11, 0 = lowest address) of three little-endian 32-bit words."""
    word = w0 if c < 4 else (w1 if c < 8 else w2)
    return (int64(word) >> (8 * (c % 4))) & 0xFF


@cuda.jit(device=True)
def _word_code(w0, w1, w2, j):
    """The colour code of pixel ``j`` (0..3) of three words holding four RGB pixels."""
    c = 3 * j
    return int32((_byte(w0, w1, w2, c) << 16) | (_byte(w0, w1, w2, c + 1) << 8)
                 | _byte(w0, w1, w2, c + 2))


@cuda.jit(device=True)
def _flush(counts, zeros, warp, hist, flags, n, outside, tolerance, rewards):
    """Adds the register counts to the warp's histogram, then this block's warps' histograms
    to ``hist[n]`` (integer atomics). With ``tolerance >= -1``, the last of output ``n``'s
    blocks to finish (a ticket in ``flags[1, n]``) turns its histograms into its reward."""
    zero_edit, zero_kept, zero_changed = zeros
    if zero_edit:
        cuda.atomic.add(counts, (warp, 0), zero_edit)
    if zero_kept:
        cuda.atomic.add(counts, (warp, NUM_BINS), zero_kept)
    if zero_changed:
        cuda.atomic.add(counts, (warp, 2 * NUM_BINS), zero_changed)
    if outside:
        cuda.atomic.add(flags, (0, n), outside)
    last = cuda.shared.array(1, int32)
    totals = cuda.shared.array(SLOTS, int64)
    cuda.syncthreads()
    tid = cuda.threadIdx.x
    if tid < SLOTS:
        total = 0
        for w in range(_WARPS):
            total += counts[w, tid]
        if total:
            cuda.atomic.add(hist, (n, tid), total)
    if tolerance < -1:  # histograms only
        return
    if tid < SLOTS or outside:  # the threads that added to global memory: their additions
        cuda.threadfence()  # are visible to every block before this block takes its ticket
    cuda.syncthreads()
    if tid == 0:
        last[0] = int32(cuda.atomic.add(flags, (1, n), 1) == cuda.gridDim.x - 1)
    cuda.syncthreads()
    if last[0]:  # every block of output n has added its counts
        if tid < SLOTS:
            totals[tid] = cuda.atomic.add(hist, (n, tid), 0)  # read where the atomics went
        cuda.syncthreads()
        if tid == 0:
            rewards[n] = _reward(totals, cuda.atomic.add(flags, (0, n), 0), tolerance)


@cuda.jit(device=True)
def _reward(h, outside, tolerance):
    """float32 mIoU over t = 0..10 (``tolerance`` -1) or IoU at ``tolerance`` of one output's
    int64 ``(36,)`` histograms, NaN where ``outside > 0``.

    The arithmetic of :func:`paintkit.metrics.compute_step.tolerance_figures` in float64
    (``CE_t / ((|E| + |P|) - CP_t)``, 1.0 for an empty denominator; the fixed-order sum of
    :func:`~paintkit.metrics.compute_step.mean_over_tolerances` divided by 11), then one rounding
    to float32: the bits of ``reward`` on every other path."""
    if outside > 0:
        return float32(np.nan)
    edit = 0
    kept = 0
    for b in range(NUM_BINS):
        edit += h[b]
        kept += h[NUM_BINS + b]
    correct_edit = 0
    correct_kept = 0
    total = 0.0
    chosen = 0.0
    for t in range(NUM_BINS - 1):
        correct_edit += h[t]
        correct_kept += h[NUM_BINS + t]
        denominator = (edit + kept) - correct_kept
        iou = float64(correct_edit) / float64(denominator) if denominator > 0 else 1.0
        if t == 0:
            total = iou
        else:
            total = total + iou
        if t == tolerance:
            chosen = iou
    return float32(total / 11.0 if tolerance < 0 else chosen)


_KERNELS: dict = {}


def count_kernel(layout: str, is_float: bool, delta_e: str = "cie76", lab: str = "table"):
    """The counting kernel for ``layout`` (see the module docstring), output dtype, ΔE
    formula (``delta_e``: ``"cie76"``, ``"cie94"`` or ``"ciede2000"``, see
    :mod:`paintkit.kernels.counting.delta_e_cuda`) and source of L*a*b* (``lab``:
    ``"table"``, gathered from the interleaved table, or ``"compute"``, the canonical
    arithmetic evaluated in the kernel by :mod:`paintkit.kernels.counting.lab_cuda`, which
    ignores ``pairs``), compiled on first use.

    Its arguments: ``(out, ans, inp, pairs, samples, first, hist, flags, tolerance,
    rewards)``. Block ``(x, y)`` counts a grid-stride share of output ``n = first + y``'s
    pixels against problem ``n // samples``. ``hist``: int64 ``(N, 36)``, zeroed. ``flags``:
    int32 ``(2, N)``, zeroed: ``flags[0, n]`` gets the count of float values outside
    [0, 1] or NaN, ``flags[1, n]`` counts output ``n``'s finished blocks. ``tolerance``:
    -2 for the histograms alone; -1 (mIoU) or 0..10 (IoU_t) to also write float32
    ``rewards[n]`` (``rewards``: ``(N,)``; with -2, any float32 array)."""
    if layout not in LAYOUTS or (is_float and layout in ("words", "planar")):
        raise ValueError(f"no counting kernel for layout {layout!r} with "
                         f"{'float32' if is_float else 'uint8'} outputs")
    if delta_e not in _BINNERS:
        raise ValueError(f"delta_e: expected one of {tuple(_BINNERS)}, got {delta_e!r}")
    if lab not in LAB_SOURCES:
        raise ValueError(f"lab: expected one of {LAB_SOURCES}, got {lab!r}")
    key = (layout, bool(is_float), delta_e, lab)
    if key not in _KERNELS:
        _KERNELS[key] = _build(layout, bool(is_float), delta_e, lab)
    return _KERNELS[key]


#: Where the kernel's L*a*b* comes from (``count_kernel``'s ``lab``).
LAB_SOURCES = ("table", "compute")
_BINNERS = {"cie76": _bin, "cie94": bin_cie94, "ciede2000": bin_ciede2000}


def _build(layout: str, is_float: bool, delta_e: str, lab: str):
    grouped = layout != "pixels"
    _count_pixel = _pixel_counter(_lab if lab == "table" else lab_of_code, _BINNERS[delta_e])
    words = layout == "words"
    planar = layout == "planar"

    @cuda.jit(device=True)
    def channel(value):
        """``(channel value 0..255, 1 if the float was outside [0, 1] or NaN else 0)``."""
        if not is_float:
            return int32(value), 0
        y = _mul(float32(value), float32(255.0))
        if not (y >= float32(0.0) and y <= float32(255.0)):  # NaN fails both
            return 0, 1
        return int32(_sub(_add(y, _ROUND), _ROUND)), 0

    @cuda.jit(device=True)
    def value_code(out, n, p):
        r, e0 = channel(out[n, p, 0])
        g, e1 = channel(out[n, p, 1])
        b, e2 = channel(out[n, p, 2])
        return int32((r << 16) | (g << 8) | b), e0 + e1 + e2

    @cuda.jit
    def kernel(out, ans, inp, pairs, samples, first, hist, flags, tolerance, rewards):
        n = first + cuda.blockIdx.y
        k = n // samples
        warp = cuda.threadIdx.x // 32
        counts = cuda.shared.array((_WARPS, SLOTS), int32)
        for s in range(cuda.threadIdx.x, _WARPS * SLOTS, THREADS):
            counts[s // SLOTS, s % SLOTS] = 0
        cuda.syncthreads()
        zeros = (0, 0, 0)
        outside = 0
        step = cuda.gridDim.x * THREADS
        start = cuda.blockIdx.x * THREADS + cuda.threadIdx.x
        if not grouped:
            for p in range(start, out.shape[1], step):
                code_o, bad_values = value_code(out, n, p)
                outside += bad_values
                code_a = (int32(ans[k, p, 0]) << 16) | (int32(ans[k, p, 1]) << 8) \
                    | int32(ans[k, p, 2])
                code_i = (int32(inp[k, p, 0]) << 16) | (int32(inp[k, p, 1]) << 8) \
                    | int32(inp[k, p, 2])
                zeros = _count_pixel(pairs, code_o, code_a, code_i, counts, warp, zeros)
        else:
            for q in range(start, ans.shape[1] // 3, step):
                a0, a1, a2 = ans[k, 3 * q], ans[k, 3 * q + 1], ans[k, 3 * q + 2]
                i0, i1, i2 = inp[k, 3 * q], inp[k, 3 * q + 1], inp[k, 3 * q + 2]
                o0, o1, o2 = a0, a1, a2  # the outputs' words, where they come as words
                if words:
                    o0, o1, o2 = out[n, 3 * q], out[n, 3 * q + 1], out[n, 3 * q + 2]
                elif planar:
                    o0, o1, o2 = out[n, 0, q], out[n, 1, q], out[n, 2, q]
                for j in range(4):
                    if words:
                        code_o = _word_code(o0, o1, o2, j)
                    elif planar:
                        code_o = int32((_byte(o0, o0, o0, j) << 16)
                                       | (_byte(o1, o1, o1, j) << 8) | _byte(o2, o2, o2, j))
                    else:
                        code_o, bad_values = value_code(out, n, 4 * q + j)
                        outside += bad_values
                    zeros = _count_pixel(pairs, code_o, _word_code(a0, a1, a2, j),
                                         _word_code(i0, i1, i2, j), counts, warp, zeros)
        _flush(counts, zeros, warp, hist, flags, n, outside, tolerance, rewards)

    return kernel
