"""Candidate rewrites of the fused CUDA counting kernel, timed side by side by the device check.

Until 2026-11-27 ``paintkit.kernels.tolerance_counts_cuda`` counted a noisy 1024² batch of 64
in about 0.83 ms on an H200 (18 % of the copy floor): one pixel a step, nine single-byte
loads and three 4-byte Lab loads per colour, one atomic site per histogram region. Each knob
below is one hypothesis about where the rest went; :func:`count_kernel` builds a kernel with
any combination, :func:`histograms` / :func:`launcher` run it, and
``bench/device_figures.kernel_variants`` times every entry of :data:`VARIANTS` (GPU time of
the launch alone, CUDA events) and checks that its counts equal the shipped kernel's (uint8
outputs only).

- ``lab="pair"``: a colour's L*a*b* comes in as two 8-byte loads of the interleaved table
  (viewed as int64 ``(2^24, 2)``) instead of three 4-byte loads, and the output colour's
  once for both comparisons. Scattered gathers of a noisy output's colours (each lane its own
  sector) are the suspected limit: fewer load instructions, fewer L1 wavefronts.
- ``bins="sqrt"``: the bin from a square-root guess corrected against the thresholds (one or
  two compares, exact for any guess) instead of eleven compares.
- ``atomics="warp"``: lanes adding to the same shared bin elect one lane that adds the count
  (``match_any_sync``), instead of colliding atomics. No simulator support: device only.
- ``pixels="words"``: each thread reads four pixels as three 32-bit words per image (needs
  ``H * W`` divisible by 4) instead of nine single bytes per pixel.
- ``max_registers``: a cap on registers per thread.
- ``sites="two"``: see below.

Every candidate keeps one atomic site for the ΔE(O, A) bin (the slot chosen by a select);
``sites="two"`` gives it one site per region in divergent branches, as the kernel before had.

What an H200 measured (docs/performance.md, "GPU"): ``lab="pair"`` with ``pixels="words"``
0.64 ms at 1024² against 0.78 for the first entry; with two atomic sites the same candidate
took 0.89 ms, which is what made a first fold of pairs and words into the shipped kernel
slow. Square-root bins (0.92) and warp-aggregated atomics (0.86) were slower; register caps
changed nothing. The shipped kernel now has pairs, words and one site
(``paintkit.kernels.tolerance_counts_cuda_kernels``); the ``"shipped"`` entries time it per
memory layout through :func:`launcher`, with the same GPU-only timing.

Under ``NUMBA_ENABLE_CUDASIM=1`` the simulator runs every knob except ``atomics="warp"``
(tests/metrics/test_count_variants_cuda_sim.py checks them against the NumPy oracle).
"""

from __future__ import annotations

import math

import numpy as np
from numba import cuda, int32
from numba.core import config

# the shipped kernel's sizes, rounding intrinsics (NumPy float32 operations in the simulator),
# Lab loads and byte unpacking. Device code that uses ``cuda.*`` (bins, atomics, the block
# flush) is written here again: Numba's simulator swaps in its fake ``cuda`` for the module
# of the kernel it runs, and a device function of another module that reads ``cuda`` races
# with the simulated threads leaving it
from paintkit.kernels import tolerance_counts_cuda_kernels as shipped
from paintkit.kernels.tolerance_bins import BIN_THRESHOLDS, NUM_BINS
from paintkit.kernels.tolerance_counts_cuda_kernels import _WARPS, THREADS, _add, _mul, _sub
from paintkit.kernels.tolerance_counts_cuda_kernels import SLOTS as _SLOTS

_SIMULATOR = bool(config.ENABLE_CUDASIM)
_T = BIN_THRESHOLDS.astype(np.float32)

#: (name, knobs) timed by the device check; the first is the shipped kernel's design.
VARIANTS = (
    ("one pixel a step (the design before)", {}),
    ("lab pair", {"lab": "pair"}),
    ("lab pair + words", {"lab": "pair", "pixels": "words"}),
    ("lab pair + words, two atomic sites", {"lab": "pair", "pixels": "words", "sites": "two"}),
    ("one pixel a step, two atomic sites", {"sites": "two"}),
    ("lab pair + sqrt + words", {"lab": "pair", "bins": "sqrt", "pixels": "words"}),
    ("warp atomics", {"atomics": "warp"}),
    ("shipped kernel, NHWC uint8 (words)", {"shipped": "words"}),
    ("shipped kernel, NCHW uint8 (planar)", {"shipped": "planar"}),
    ("shipped kernel, NCHW float32 (values)", {"shipped": "values"}),
    ("shipped kernel, strided uint8 (pixels)", {"shipped": "pixels"}),
    ("shipped kernel, NHWC uint8 (words), with rewards", {"shipped": "words", "tolerance": -1}),
)


_KERNELS: dict = {}


def count_kernel(lab: str = "scalar", bins: str = "compare", atomics: str = "shared",
                 pixels: str = "bytes", max_registers: int | None = None, sites: str = "one"):
    """The counting kernel with these knobs (compiled once per combination)."""
    key = (lab, bins, atomics, pixels, max_registers, sites)
    if key not in _KERNELS:
        _KERNELS[key] = _build(lab == "pair", bins == "sqrt", atomics == "warp",
                               pixels == "words", max_registers, sites == "two")
    return _KERNELS[key]


def _build(pair: bool, sqrt_bins: bool, warp_atomics: bool, words: bool,
           max_registers: int | None = None, two_sites: bool = False):
    @cuda.jit(device=True)
    def lab_of(table, pairs, code):
        if pair:  # the shipped kernel's two 8-byte loads
            return shipped._lab(pairs, code)
        return table[code, 0], table[code, 1], table[code, 2]

    @cuda.jit(device=True)
    def bin_of(lo, ao, bo, lx, ax, bx):
        dl = _sub(lo, lx)
        da = _sub(ao, ax)
        db = _sub(bo, bx)
        d2 = _add(_add(_mul(dl, dl), _mul(da, da)), _mul(db, db))
        thresholds = cuda.const.array_like(_T)
        if sqrt_bins:
            b = int32(math.sqrt(d2)) + 1
            if b > NUM_BINS - 1:
                b = NUM_BINS - 1
            while b > 0 and not d2 > thresholds[b - 1]:
                b -= 1
            while b < NUM_BINS - 1 and d2 > thresholds[b]:
                b += 1
            return b
        b = 0
        for j in range(NUM_BINS - 1):
            if d2 > thresholds[j]:
                b += 1
        return b

    @cuda.jit(device=True)
    def add(counts, warp, slot):
        if warp_atomics:
            peers = cuda.match_any_sync(cuda.activemask(), slot)
            if (cuda.laneid) == cuda.ffs(peers) - 1:
                cuda.atomic.add(counts, (warp, slot), cuda.popc(peers))
        else:
            cuda.atomic.add(counts, (warp, slot), 1)

    @cuda.jit(device=True)
    def one_pixel(table, pairs, code_o, code_a, code_i, counts, warp, zeros):
        """Counts one pixel; returns the updated bin-0 register counts."""
        in_edit = code_a != code_i
        bin_oa = 0
        bin_oi = 0
        if code_o != code_a or code_o != code_i:
            lo, ao, bo = lab_of(table, pairs, code_o)
            if code_o != code_a:
                la, aa, ba = lab_of(table, pairs, code_a)
                bin_oa = bin_of(lo, ao, bo, la, aa, ba)
            if code_o != code_i:
                li, ai, bi = lab_of(table, pairs, code_i)
                bin_oi = bin_of(lo, ao, bo, li, ai, bi)
        ze, zk, zc = zeros
        if bin_oa == 0:
            if in_edit:
                ze += 1
            else:
                zk += 1
        else:
            if not two_sites:
                add(counts, warp, bin_oa if in_edit else NUM_BINS + bin_oa)
            elif in_edit:
                add(counts, warp, bin_oa)
            else:
                add(counts, warp, NUM_BINS + bin_oa)
        if bin_oi == 0:
            zc += 1
        else:
            add(counts, warp, 2 * NUM_BINS + bin_oi)
        return ze, zk, zc

    options = {} if max_registers is None or _SIMULATOR else {"max_registers": max_registers}

    @cuda.jit(**options)
    def kernel(out, ans, inp, table, pairs, samples, hist):
        n = cuda.blockIdx.y
        k = n // samples
        warp = cuda.threadIdx.x // 32
        counts = cuda.shared.array((_WARPS, _SLOTS), int32)
        for s in range(cuda.threadIdx.x, _WARPS * _SLOTS, THREADS):
            counts[s // _SLOTS, s % _SLOTS] = 0
        cuda.syncthreads()
        zeros = (0, 0, 0)
        step = cuda.gridDim.x * THREADS
        if words:  # out, ans, inp: uint32 (N, 3 * M / 4)
            for q in range(cuda.blockIdx.x * THREADS + cuda.threadIdx.x, out.shape[1] // 3, step):
                o0, o1, o2 = out[n, 3 * q], out[n, 3 * q + 1], out[n, 3 * q + 2]
                a0, a1, a2 = ans[k, 3 * q], ans[k, 3 * q + 1], ans[k, 3 * q + 2]
                i0, i1, i2 = inp[k, 3 * q], inp[k, 3 * q + 1], inp[k, 3 * q + 2]
                for j in range(4):
                    code_o = shipped._word_code(o0, o1, o2, j)
                    code_a = shipped._word_code(a0, a1, a2, j)
                    code_i = shipped._word_code(i0, i1, i2, j)
                    zeros = one_pixel(table, pairs, code_o, code_a, code_i, counts, warp, zeros)
        else:  # out, ans, inp: uint8 (N, M, 3)
            for p in range(cuda.blockIdx.x * THREADS + cuda.threadIdx.x, out.shape[1], step):
                code_o = (int32(out[n, p, 0]) << 16) | (int32(out[n, p, 1]) << 8) \
                    | int32(out[n, p, 2])
                code_a = (int32(ans[k, p, 0]) << 16) | (int32(ans[k, p, 1]) << 8) \
                    | int32(ans[k, p, 2])
                code_i = (int32(inp[k, p, 0]) << 16) | (int32(inp[k, p, 1]) << 8) \
                    | int32(inp[k, p, 2])
                zeros = one_pixel(table, pairs, code_o, code_a, code_i, counts, warp, zeros)
        ze, zk, zc = zeros
        if ze:
            cuda.atomic.add(counts, (warp, 0), ze)
        if zk:
            cuda.atomic.add(counts, (warp, NUM_BINS), zk)
        if zc:
            cuda.atomic.add(counts, (warp, 2 * NUM_BINS), zc)
        cuda.syncthreads()
        tid = cuda.threadIdx.x
        if tid < _SLOTS:
            total = 0
            for w in range(_WARPS):
                total += counts[w, tid]
            if total:
                cuda.atomic.add(hist, (n, tid), total)

    return kernel


def histograms(knobs: dict, outputs, answers, inputs, table, *, samples: int = 1,
               pixels_per_thread: int = 16):
    """int64 ``(N, 36)`` counts of uint8 ``(N, H, W, 3)`` outputs against uint8 ``(B, H, W, 3)``
    answers and inputs, by the kernel with ``knobs``. ``table``: the interleaved float32
    ``(2^24, 4)`` Lab table. Torch CUDA tensors (run on the current stream) or NumPy arrays
    (the simulator)."""
    n, height, width = outputs.shape[:3]
    m = height * width
    words = knobs.get("pixels") == "words"
    if words and m % 4:
        raise ValueError(f"pixels='words' needs H * W divisible by 4, got {height}x{width}")
    kernel = count_kernel(**knobs)
    blocks = max(1, min(65535, -(-m // (THREADS * pixels_per_thread))))
    if isinstance(outputs, np.ndarray):
        hist = np.zeros((n, _SLOTS), np.int64)
        flat = [x.reshape(len(x), m * 3) for x in (outputs, answers, inputs)]
        images = [f.view(np.uint32) if words else f.reshape(len(f), m, 3) for f in flat]
        kernel[(blocks, n), THREADS](*images, table, table.view(np.int64), samples, hist)
        return hist
    call, hist = launcher(knobs, outputs, answers, inputs, table, samples=samples,
                          pixels_per_thread=pixels_per_thread)
    call()
    return hist


def launcher(knobs: dict, outputs, answers, inputs, table, *, samples: int = 1,
             pixels_per_thread: int = 16):
    """``(call, hist)`` for torch CUDA tensors: ``call()`` zeroes the int64 ``(N, 36)``
    ``hist`` and launches the kernel with ``knobs`` on the current stream, through the
    compiled overload, with the Numba views made once (so that timing a sub-millisecond
    kernel measures the GPU, not the launch's host time)."""
    import torch

    from paintkit.kernels.cuda_launch import launch, stream_of

    if "shipped" in knobs:
        return _shipped_launcher(knobs["shipped"], outputs, answers, inputs, table, samples,
                                 pixels_per_thread, knobs.get("tolerance", -2))
    n, height, width = outputs.shape[:3]
    m = height * width
    words = knobs.get("pixels") == "words"
    kernel = count_kernel(**knobs)
    blocks = max(1, min(65535, -(-m // (THREADS * pixels_per_thread))))
    hist = torch.zeros((n, _SLOTS), dtype=torch.int64, device=outputs.device)
    flat = [x.reshape(len(x), m * 3) for x in (outputs, answers, inputs)]
    images = [f.view(torch.int32) if words else f.view(len(f), m, 3) for f in flat]
    views = [cuda.as_cuda_array(t, sync=False) for t in (*images, table, table.view(torch.int64),
                                                         hist)]
    stream = stream_of(outputs.device)
    args = (*views[:5], samples, views[5])

    def call():
        hist.zero_()
        launch(kernel, (blocks, n), THREADS, stream, args)

    return call, hist



def _shipped_launcher(layout, outputs, answers, inputs, table, samples, pixels_per_thread,
                      tolerance=-2):
    """``launcher`` for the shipped kernel, given ``outputs`` as contiguous uint8 NHWC and
    read as ``layout`` (NCHW uint8 for "planar", NCHW float32 / 255 for "values", every
    other pixel of a wider batch for "pixels"); ``tolerance`` -1 also writes the rewards."""
    import torch

    from paintkit.kernels import tolerance_counts_cuda as host
    from paintkit.kernels.cuda_launch import launch, stream_of
    from paintkit.kernels.tolerance_counts_cuda_kernels import count_kernel as shipped

    if layout == "planar":
        outputs = outputs.permute(0, 3, 1, 2).contiguous().permute(0, 2, 3, 1)
    elif layout == "values":
        outputs = (outputs.permute(0, 3, 1, 2).float() / 255).permute(0, 2, 3, 1)
    elif layout == "pixels":
        wide = torch.zeros((*outputs.shape[:2], 2 * outputs.shape[2], 3), dtype=outputs.dtype,
                           device=outputs.device)
        wide[:, :, ::2] = outputs
        outputs = wide[:, :, ::2]
    chosen = host.memory_layout(outputs, answers, inputs)
    if layout == "pixels":  # the one-pixel-a-step kernel, on a strided batch
        chosen = "pixels"
    assert chosen in (layout, "values"), chosen
    n, m = outputs.shape[0], outputs.shape[1] * outputs.shape[2]
    kernel = shipped(chosen, bool(outputs.dtype == torch.float32))
    blocks = max(1, min(65535, -(-m // (THREADS * pixels_per_thread))))
    hist = torch.zeros((n, _SLOTS), dtype=torch.int64, device=outputs.device)
    flags = torch.zeros((2, n), dtype=torch.int32, device=outputs.device)
    rewards = torch.zeros(n, dtype=torch.float32, device=outputs.device)
    arrays = host._kernel_arguments(chosen, outputs, answers, inputs,
                                    lambda x: x.view(torch.int32))
    views = [cuda.as_cuda_array(t, sync=False)
             for t in (*arrays, table.view(torch.int64), hist, flags, rewards)]
    stream = stream_of(outputs.device)
    args = (*views[:4], samples, 0, views[4], views[5], tolerance, views[6])

    def call():
        hist.zero_()
        flags.zero_()
        launch(kernel, (blocks, n), THREADS, stream, args)

    return call, hist
