"""Numba CUDA twin of ``tolerance_counts_torch``: the fused counting kernel on the GPU.

One kernel launch per batch reads each output, answer and input pixel once (uint8, or a
float32 output converted in the kernel as ``round(x * 255)``) and adds the pixel to its
output's three ``(12,)`` histograms (docs/metric-definition.md §6): ``ΔE(O, A)`` in the edit
region, ``ΔE(O, A)`` in the preservation region and ``ΔE(O, I)`` everywhere.

Exactness, as in the torch kernel:

- L*a*b* is looked up in the canonical table of all 2^24 colours (here interleaved,
  float32 ``(2^24, 4)``, so one pixel's three values share a memory sector), built once per
  process on the host and copied once to each device;
- ``ΔE² = (dL*dL + da*da) + db*db`` with round-to-nearest multiply and add intrinsics
  (``fmul_rn`` / ``fadd_rn``): the compiler may not fuse them into an FMA, so every operation
  is the definition's separately rounded float32 one;
- the bin is the number of :data:`~paintkit.kernels.tolerance_bins.BIN_THRESHOLDS` below
  ``ΔE²`` (no square root);
- counts go into per-warp shared-memory histograms with integer atomics, then into the int64
  result with integer atomics: no float reduction, so the result cannot depend on
  scheduling. Pixels of bin 0 (the bulk of a good output) are counted in registers and
  added once per thread.

Under ``NUMBA_ENABLE_CUDASIM=1`` the same kernel runs in Numba's CUDA simulator on NumPy
arrays (the tests' proof without a GPU); there the rounding intrinsics are plain NumPy
float32 operations, which never fuse either.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import cuda, float32, float64, int32
from numba.core import config

from paintkit.kernels.cuda_launch import device_index, launch, numba_views, stream_of
from paintkit.kernels.tolerance_bins import BIN_THRESHOLDS, NUM_BINS

__all__ = ["THREADS", "cuda_kernel_available", "interleaved_lab_table",
           "tolerance_histograms_cuda"]

#: Threads per block and warps per block (one private histogram per warp).
THREADS = 256
_WARPS = THREADS // 32
_SLOTS = 3 * NUM_BINS  # edit, preservation, changed: ``slot = 12 * histogram + bin``
#: Pixels each thread handles (grid-stride) before the grid grows past one wave.
_PIXELS_PER_THREAD = 16
_MAX_GRID_X = 65535
_THRESHOLDS = tuple(float(t) for t in BIN_THRESHOLDS)  # exact float32 values, as Python floats
_ROUND = np.float32(1 << 23)  # (y + 2^23) - 2^23 is rint(y) in float32 for 0 <= y <= 255
_SIMULATOR = bool(config.ENABLE_CUDASIM)

if _SIMULATOR:  # NumPy float32 scalars: separately rounded IEEE operations

    def _mul(a, b):
        return np.float32(a) * np.float32(b)

    def _add(a, b):
        return np.float32(a) + np.float32(b)

    def _sub(a, b):
        return np.float32(a) - np.float32(b)

else:  # round-to-nearest intrinsics: never contracted into a fused multiply-add
    from numba.cuda import libdevice

    _mul, _add, _sub = libdevice.fmul_rn, libdevice.fadd_rn, libdevice.fsub_rn


@cuda.jit(device=True)
def _byte_of(value, is_float):
    """``(channel value 0..255, 1 if the float was outside [0, 1] or NaN else 0)``."""
    if not is_float:
        return int32(value), 0
    y = _mul(float32(value), float32(255.0))
    if not (y >= float32(0.0) and y <= float32(255.0)):  # NaN fails both
        return 0, 1
    return int32(_sub(_add(y, _ROUND), _ROUND)), 0


@cuda.jit(device=True)
def _bin(table, code_a, code_b):
    """``min(ceil(ΔE), 11)`` of two colour codes: the count of thresholds below ``ΔE²``."""
    if code_a == code_b:
        return 0
    dl = _sub(table[code_a, 0], table[code_b, 0])
    da = _sub(table[code_a, 1], table[code_b, 1])
    db = _sub(table[code_a, 2], table[code_b, 2])
    d2 = _add(_add(_mul(dl, dl), _mul(da, da)), _mul(db, db))
    b = 0
    for threshold in _THRESHOLDS:
        if d2 > threshold:
            b += 1
    return b


@cuda.jit(device=True)
def _pixel_bins(out, ans, inp, table, n, k, p, is_float):
    """``(in_edit, bin_oa, bin_oi, floats outside [0, 1])`` of pixel ``p`` of output ``n``."""
    r, e0 = _byte_of(out[n, p, 0], is_float)
    g, e1 = _byte_of(out[n, p, 1], is_float)
    b, e2 = _byte_of(out[n, p, 2], is_float)
    code_o = (r << 16) | (g << 8) | b
    code_a = (int32(ans[k, p, 0]) << 16) | (int32(ans[k, p, 1]) << 8) | int32(ans[k, p, 2])
    code_i = (int32(inp[k, p, 0]) << 16) | (int32(inp[k, p, 1]) << 8) | int32(inp[k, p, 2])
    return (code_a != code_i, _bin(table, code_o, code_a), _bin(table, code_o, code_i),
            e0 + e1 + e2)


@cuda.jit(device=True)
def _zero_counts(counts):
    for s in range(cuda.threadIdx.x, _WARPS * _SLOTS, THREADS):
        counts[s // _SLOTS, s % _SLOTS] = 0
    cuda.syncthreads()


@cuda.jit(device=True)
def _flush(counts, hist, bad, n, outside):
    """Sum the warps' histograms of this block into ``hist[n]`` (integer atomics)."""
    if outside:
        cuda.atomic.add(bad, n, outside)
    cuda.syncthreads()
    tid = cuda.threadIdx.x
    if tid < _SLOTS:
        total = 0
        for w in range(_WARPS):
            total += counts[w, tid]
        if total:
            cuda.atomic.add(hist, (n, tid), total)


@cuda.jit
def _count_kernel(out, ans, inp, table, samples, is_float, first, hist, bad):
    """Block ``(x, y)`` counts a grid-stride share of output ``n = first + y``'s pixels.

    ``out``: ``(N, M, 3)`` uint8 or float32 (any strides); ``ans``, ``inp``: uint8
    ``(N // samples, M, 3)``; ``table``: float32 ``(2^24, 4)``; ``hist``: int64 ``(N, 36)``,
    zeroed; ``bad``: int32 ``(N,)``, zeroed, gets the count of float values outside [0, 1].
    Non-zero bins go to the warp's shared histogram by atomics; bin-0 pixels are counted in
    registers.
    """
    n = first + cuda.blockIdx.y
    k = n // samples
    warp = cuda.threadIdx.x // 32
    counts = cuda.shared.array((_WARPS, _SLOTS), int32)
    _zero_counts(counts)
    zero_edit = 0
    zero_kept = 0
    zero_changed = 0
    outside = 0
    for p in range(cuda.blockIdx.x * THREADS + cuda.threadIdx.x, out.shape[1],
                   cuda.gridDim.x * THREADS):
        in_edit, bin_oa, bin_oi, bad_values = _pixel_bins(out, ans, inp, table, n, k, p,
                                                          is_float)
        outside += bad_values
        if bin_oa == 0:
            if in_edit:
                zero_edit += 1
            else:
                zero_kept += 1
        elif in_edit:
            cuda.atomic.add(counts, (warp, bin_oa), 1)
        else:
            cuda.atomic.add(counts, (warp, NUM_BINS + bin_oa), 1)
        if bin_oi == 0:
            zero_changed += 1
        else:
            cuda.atomic.add(counts, (warp, 2 * NUM_BINS + bin_oi), 1)
    if zero_edit:
        cuda.atomic.add(counts, (warp, 0), zero_edit)
    if zero_kept:
        cuda.atomic.add(counts, (warp, NUM_BINS), zero_kept)
    if zero_changed:
        cuda.atomic.add(counts, (warp, 2 * NUM_BINS), zero_changed)
    _flush(counts, hist, bad, n, outside)


@cuda.jit
def _reward_kernel(hist, bad, tolerance, rewards):
    """``rewards[n]``: float32 of output ``n``'s mIoU over t = 0..10 (``tolerance`` < 0) or
    its IoU at ``tolerance``, NaN where ``bad[n] > 0``; from int64 histograms ``(N, 36)``.

    The arithmetic of :func:`paintkit.metrics.figures.tolerance_figures` in float64
    (``CE_t / ((|E| + |P|) - CP_t)``, 1.0 for an empty denominator; the fixed-order sum of
    :func:`~paintkit.metrics.figures.mean_over_tolerances` divided by 11), then one rounding
    to float32: the bits of ``reward`` on every other path."""
    n = cuda.grid(1)
    if n >= hist.shape[0]:
        return
    if bad[n] > 0:
        rewards[n] = np.float32(np.nan)
        return
    edit = 0
    kept = 0
    for b in range(NUM_BINS):
        edit += hist[n, b]
        kept += hist[n, NUM_BINS + b]
    correct_edit = 0
    correct_kept = 0
    total = 0.0
    chosen = 0.0
    for t in range(NUM_BINS - 1):
        correct_edit += hist[n, t]
        correct_kept += hist[n, NUM_BINS + t]
        denominator = (edit + kept) - correct_kept
        iou = float64(correct_edit) / float64(denominator) if denominator > 0 else 1.0
        if t == 0:
            total = iou
        else:
            total = total + iou
        if t == tolerance:
            chosen = iou
    rewards[n] = float32(total / 11.0 if tolerance < 0 else chosen)


_TABLES: dict = {}
_LOCK = threading.Lock()


def _host_table() -> np.ndarray:
    from paintkit.kernels.lab_canonical import canonical_lab_table  # numba: the table builder

    planar = canonical_lab_table()
    table = np.zeros((planar.shape[1], 4), np.float32)
    table[:, :3] = planar.T
    return table


def interleaved_lab_table(device=None):
    """The canonical L*a*b* of every colour code, float32 ``(2^24, 4)`` (L, a, b, 0): a torch
    tensor on CUDA ``device``, or (``device`` None, the simulator) a NumPy array. Built once
    per process and device (256 MiB each)."""
    key = None if device is None else str(device)
    table = _TABLES.get(key)
    if table is not None:
        return table
    with _LOCK:
        table = _TABLES.get(key)
        if table is None:
            host = _host_table()
            if device is None:
                table = host
            else:
                import torch

                table = torch.from_numpy(host).to(device)
            _TABLES[key] = table
    return table


_AVAILABLE: list = []


def cuda_kernel_available() -> bool:
    """Whether the fused kernel runs on a real CUDA device here: Numba's CUDA target finds a
    driver and compiles and runs the kernel on a one-pixel problem (checked once per
    process). Where it cannot (no driver, a Numba CUDA release that fails with this NumPy),
    a one-line warning says so and the torch kernel counts instead."""
    if _AVAILABLE:
        return _AVAILABLE[0]
    with _LOCK:
        if not _AVAILABLE:
            _AVAILABLE.append(_probe())
    return _AVAILABLE[0]


def _probe() -> bool:
    if _SIMULATOR:
        return False
    try:
        if not cuda.is_available():
            return False
    except Exception:  # a broken driver install reads as "not available"
        return False
    try:
        pixel = cuda.to_device(np.zeros((1, 1, 3), np.uint8))
        table = cuda.to_device(np.zeros((1, 4), np.float32))
        hist = cuda.to_device(np.zeros((1, _SLOTS), np.int64))
        bad = cuda.to_device(np.zeros(1, np.int32))
        _count_kernel[(1, 1), THREADS](pixel, pixel, pixel, table, 1, False, 0, hist, bad)
        cuda.synchronize()
        expected = np.zeros(_SLOTS, np.int64)
        expected[[NUM_BINS, 2 * NUM_BINS]] = 1  # a kept pixel: bin 0, preservation and changed
        return hist.copy_to_host()[0].tolist() == expected.tolist()
    except Exception as exc:
        import warnings

        warnings.warn(f"paintkit: Numba's CUDA target cannot run the fused counting kernel here "
                      f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}); "
                      f"CUDA batches are counted by the torch kernel instead", RuntimeWarning,
                      stacklevel=3)
        return False


_TABLE_VIEWS: dict = {}


def _table_view(device):
    """The Numba view of :func:`interleaved_lab_table` on ``device``, made once."""
    view = _TABLE_VIEWS.get(str(device))
    if view is None:
        view = _TABLE_VIEWS[str(device)] = cuda.as_cuda_array(interleaved_lab_table(device),
                                                              sync=False)
    return view


def tolerance_histograms_cuda(outputs, answers, inputs, *, samples: int = 1,
                              pixels_per_thread: int | None = None):
    """Per-output ``(3, 12)`` ΔE histograms, computed by one fused CUDA kernel launch.

    Args:
        outputs: uint8 or float32 ``(N, H, W, 3)`` (any strides: a permuted
            ``(N, 3, H, W)`` tensor is read in place), with ``N = B * samples``; floats
            are converted in the kernel as ``round(x * 255)``.
        answers, inputs: uint8 ``(B, H, W, 3)``; output ``n`` is scored against problem
            ``n // samples`` (GRPO's G samples per problem read one target, never copied).
        samples: outputs per problem.
        pixels_per_thread: pixels each thread counts (the grid's width; a tuning knob,
            ``bench/device_check.py`` measures it).

    Torch CUDA tensors are read in place and the kernel runs on the current torch stream
    with no host synchronisation; NumPy arrays run in Numba's CUDA simulator.

    Returns:
        ``(histograms, outside)``: int64 ``(N, 3, 12)`` (histogram order edit,
        preservation, changed) and int32 ``(N,)``, per output the count of float values
        outside [0, 1] or NaN (always 0 for uint8), on the outputs' device.
    """
    n, height, width = outputs.shape[:3]
    m = height * width
    is_numpy = isinstance(outputs, np.ndarray)
    if answers.shape[0] * samples != n or tuple(answers.shape[1:]) != (height, width, 3) \
            or tuple(inputs.shape) != tuple(answers.shape):
        raise ValueError(f"outputs, answers, inputs: expected (B * {samples}, H, W, 3) and two "
                         f"(B, H, W, 3), got {tuple(outputs.shape)}, {tuple(answers.shape)} and "
                         f"{tuple(inputs.shape)}")
    is_float = outputs.dtype == (np.float32 if is_numpy else _torch_float32())
    per_thread = pixels_per_thread or _PIXELS_PER_THREAD
    blocks = max(1, min(_MAX_GRID_X, -(-m // (THREADS * per_thread))))
    if is_numpy:
        hist = np.zeros((n, 3, NUM_BINS), np.int64)
        bad = np.zeros(n, np.int32)
        if n and m:
            _count_kernel[(blocks, n), THREADS](
                outputs.reshape(n, m, 3), answers.reshape(-1, m, 3), inputs.reshape(-1, m, 3),
                interleaved_lab_table(), samples, is_float, 0, hist.reshape(n, _SLOTS), bad)
        return hist, bad
    import torch

    device = outputs.device
    hist = torch.zeros((n, 3, NUM_BINS), dtype=torch.int64, device=device)
    bad = torch.zeros(n, dtype=torch.int32, device=device)
    if n and m:
        tensors = (outputs.reshape(n, m, 3), answers.reshape(-1, m, 3),
                   inputs.reshape(-1, m, 3), hist.view(n, _SLOTS), bad)
        with cuda.gpus[device_index(device)]:
            o, a, i, h, f = numba_views(tensors)
            t = _table_view(device)
            stream = stream_of(device)
            for start in range(0, n, _MAX_GRID_X):  # gridDim.y is at most 65,535
                rows = min(n - start, _MAX_GRID_X)
                launch(_count_kernel, (blocks, rows), THREADS, stream,
                        (o, a, i, t, samples, is_float, start, h, f))
    return hist, bad


def rewards_from_histograms_cuda(histograms, outside, tolerance: int | None = None):
    """float32 ``(N,)`` rewards of int64 ``(N, 3, 12)`` histograms: the mIoU over t = 0..10
    (``tolerance`` None) or IoU at ``tolerance``, NaN where ``outside > 0``; one kernel
    launch (torch CUDA tensors) or the simulator (NumPy arrays). The same bits as
    :func:`paintkit.metrics.reward` computes from the same counts."""
    n = len(histograms)
    t = -1 if tolerance is None else int(tolerance)
    blocks = max(1, -(-n // 128))
    if isinstance(histograms, np.ndarray):
        rewards = np.empty(n, np.float32)
        if n:
            _reward_kernel[blocks, 128](histograms.reshape(n, _SLOTS), outside, t, rewards)
        return rewards
    import torch

    device = histograms.device
    rewards = torch.empty(n, dtype=torch.float32, device=device)
    if n:
        with cuda.gpus[device_index(device)]:
            h, f, r = numba_views((histograms.view(n, _SLOTS), outside, rewards))
            launch(_reward_kernel, blocks, 128, stream_of(device), (h, f, t, r))
    return rewards


def _torch_float32():
    import torch

    return torch.float32
