"""Numba CUDA twin of ``tolerance_counts_torch``: the fused counting kernel on the GPU, host side.

One kernel launch per batch reads each output, answer and input pixel once (uint8, or a
float32 output converted in the kernel as ``round(x * 255)``) and adds the pixel to its
output's three ``(12,)`` histograms (docs/metric-definition.md §6). The device code, and how
it stays exact (the canonical Lab table, round-to-nearest intrinsics, integer atomics), is
:mod:`paintkit.kernels.counting.cie76_cuda_kernels`; this module builds the Lab table once
per process and device, picks the kernel that reads the batch's memory layout fastest,
launches it on torch's current stream without a host synchronisation, and, for
:func:`rewards_cuda`, asks the same launch for the rewards.

Under ``NUMBA_ENABLE_CUDASIM=1`` the same kernels run in Numba's CUDA simulator on NumPy
arrays (the tests' proof without a GPU).
"""

from __future__ import annotations

import threading

import numpy as np
from numba import cuda
from numba.core import config

from paintkit.kernels.counting.bins import NUM_BINS
from paintkit.kernels.counting.cie76_cuda_kernels import (
    SLOTS,
    THREADS,
    count_kernel,
)
from paintkit.kernels.counting.cuda_launch import device_index, launch, numba_views, stream_of

__all__ = ["DEFAULT_LAB", "THREADS", "cuda_kernel_available", "interleaved_lab_table", "memory_layout",
           "rewards_cuda", "tolerance_histograms_cuda"]

#: Pixels each thread handles (grid-stride): 64 where the grid still has ``_FULL_GRID``
#: blocks, else 16. On an H200, 64 counted a noisy 1024² batch of 64 in 0.63-0.64 ms
#: against 0.65-0.67 for 16; a smaller grid leaves SMs idle.
_PIXELS_PER_THREAD = (16, 64)
_FULL_GRID = 1024
_MAX_GRID_X = 65535
_SIMULATOR = bool(config.ENABLE_CUDASIM)
#: Where each formula's kernel takes L*a*b* from by default (``lab``): the table for all
#: three until the in-kernel arithmetic is measured faster on a GPU (bench/device_check.py
#: times both side by side).
DEFAULT_LAB = {"cie76": "table", "cie94": "table", "ciede2000": "table"}


_TABLES: dict = {}
_LOCK = threading.Lock()


def _host_table() -> np.ndarray:
    from paintkit.kernels.color.lab_canonical import canonical_lab_table  # numba: the table builder

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
        pairs = cuda.to_device(np.zeros((1, 2), np.int64))
        hist = cuda.to_device(np.zeros((1, SLOTS), np.int64))
        flags = cuda.to_device(np.zeros((2, 1), np.int32))
        rewards = cuda.to_device(np.zeros(1, np.float32))
        count_kernel("pixels", False)[(1, 1), THREADS](pixel, pixel, pixel, pairs, 1, 0, hist,
                                                       flags, -1, rewards)
        cuda.synchronize()
        expected = np.zeros(SLOTS, np.int64)
        expected[[NUM_BINS, 2 * NUM_BINS]] = 1  # a kept pixel: bin 0, preservation and changed
        return hist.copy_to_host()[0].tolist() == expected.tolist() \
            and rewards.copy_to_host().tolist() == [1.0]  # no edit region, all kept: IoU 1
    except Exception as exc:
        import warnings

        warnings.warn(f"paintkit: Numba's CUDA target cannot run the fused counting kernel here "
                      f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}); "
                      f"CUDA batches are counted by the torch kernel instead", RuntimeWarning,
                      stacklevel=3)
        return False


_TABLE_VIEWS: dict = {}


def _table_view(device):
    """The Numba view of :func:`interleaved_lab_table` on ``device`` as int64 ``(2^24, 2)``
    (two 8-byte words per colour, as the kernels read it), made once."""
    import torch

    view = _TABLE_VIEWS.get(str(device))
    if view is None:
        words = interleaved_lab_table(device).view(torch.int64)
        view = _TABLE_VIEWS[str(device)] = cuda.as_cuda_array(words, sync=False)
    return view


def memory_layout(outputs, answers, inputs) -> str:
    """Which counting kernel reads this batch fastest (``count_kernel``'s ``layout``):
    ``"pixels"`` unless ``H * W`` is divisible by 4 and the answers and inputs are contiguous
    uint8; then ``"words"`` for contiguous uint8 ``(N, H, W, 3)`` outputs, ``"planar"`` for
    uint8 outputs that are a permuted view of a contiguous ``(N, 3, H, W)`` batch, and
    ``"values"`` for any other outputs (float32, other strides). NumPy arrays or tensors."""
    m = outputs.shape[1] * outputs.shape[2]
    if m % 4 or not all(_contiguous(x) and _is_uint8(x) for x in (answers, inputs)):
        return "pixels"
    if not _is_uint8(outputs):
        return "values"
    if _contiguous(outputs):
        return "words"
    if _contiguous(outputs.transpose(0, 3, 1, 2) if isinstance(outputs, np.ndarray)
                   else outputs.permute(0, 3, 1, 2)):
        return "planar"
    return "values"


def _contiguous(x) -> bool:
    return bool(x.flags.c_contiguous) if isinstance(x, np.ndarray) else x.is_contiguous()


def _is_uint8(x) -> bool:
    return x.dtype == np.uint8 if isinstance(x, np.ndarray) else str(x.dtype) == "torch.uint8"


def _kernel_arguments(layout: str, outputs, answers, inputs, as_int32):
    """``(out, ans, inp)`` reshaped for ``layout``; ``as_int32`` views a flat uint8 array's
    bytes as int32 words (NumPy or torch)."""
    n, m = outputs.shape[0], outputs.shape[1] * outputs.shape[2]
    if layout == "pixels":
        return outputs.reshape(n, m, 3), answers.reshape(-1, m, 3), inputs.reshape(-1, m, 3)
    ans = as_int32(answers.reshape(-1, m * 3))
    inp = as_int32(inputs.reshape(-1, m * 3))
    if layout == "words":
        return as_int32(outputs.reshape(n, m * 3)), ans, inp
    if layout == "planar":
        planes = outputs.transpose(0, 3, 1, 2) if isinstance(outputs, np.ndarray) \
            else outputs.permute(0, 3, 1, 2)
        return as_int32(planes.reshape(n * 3, m)).reshape(n, 3, m // 4), ans, inp
    return outputs.reshape(n, m, 3), ans, inp


def tolerance_histograms_cuda(outputs, answers, inputs, *, samples: int = 1,
                              pixels_per_thread: int | None = None, delta_e: str = "cie76",
                              lab: str | None = None):
    """Per-output ``(3, 12)`` ΔE histograms, computed by one fused CUDA kernel launch.

    Args:
        outputs: uint8 or float32 ``(N, H, W, 3)`` (any strides: a permuted
            ``(N, 3, H, W)`` tensor is read in place), with ``N = B * samples``; floats
            are converted in the kernel as ``round(x * 255)``.
        answers, inputs: uint8 ``(B, H, W, 3)``; output ``n`` is scored against problem
            ``n // samples`` (GRPO's G samples per problem read one target, never copied).
        samples: outputs per problem.
        pixels_per_thread: pixels each thread counts (the grid's width; a tuning knob,
            ``bench/device_check.py`` measures it). None: 64 for a batch large enough to
            keep 1,024 blocks, else 16.
        delta_e: ``"cie76"``, ``"cie94"`` or ``"ciede2000"`` (the canonical arithmetic of
            each, the CPU kernels' counts bit for bit).
        lab: ``"table"`` (gather from the 256 MiB table) or ``"compute"`` (the canonical
            arithmetic in the kernel, no table built); None: :data:`DEFAULT_LAB` of the
            formula. Both give the same bits.

    Torch CUDA tensors are read in place and the kernel runs on the current torch stream
    with no host synchronisation; NumPy arrays run in Numba's CUDA simulator.

    Returns:
        ``(histograms, outside)``: int64 ``(N, 3, 12)`` (histogram order edit,
        preservation, changed) and int32 ``(N,)``, per output the count of float values
        outside [0, 1] or NaN (always 0 for uint8), on the outputs' device.
    """
    hist, flags, _ = _count(outputs, answers, inputs, samples, pixels_per_thread, -2, delta_e,
                            lab)
    return hist, flags[0]


def rewards_cuda(outputs, answers, inputs, *, samples: int = 1, tolerance: int | None = None,
                 pixels_per_thread: int | None = None, delta_e: str = "cie76",
                 lab: str | None = None):
    """float32 ``(N,)`` rewards of a batch, counted and turned into rewards in one launch of
    the fused kernel: the mIoU over t = 0..10 (``tolerance`` None) or IoU at
    ``tolerance``, NaN for a float output with values outside [0, 1] (or NaN).

    Arguments as :func:`tolerance_histograms_cuda`. The last of each output's blocks to
    finish turns its histograms into its reward, in the float64 arithmetic of
    :func:`paintkit.metrics.reward`: the same bits. On the outputs' device, with no host
    synchronisation.
    """
    t = -1 if tolerance is None else int(tolerance)
    if not -1 <= t < NUM_BINS - 1:
        raise ValueError(f"tolerance must be None or 0..{NUM_BINS - 2}, got {tolerance!r}")
    return _count(outputs, answers, inputs, samples, pixels_per_thread, t, delta_e, lab)[2]


def _count(outputs, answers, inputs, samples, pixels_per_thread, tolerance: int,
           delta_e: str = "cie76", lab: str | None = None):
    """``(hist, flags, rewards)`` of one launch (``tolerance`` -2: no rewards, ``rewards``
    None); ``flags``: int32 ``(2, N)``, row 0 the float values outside [0, 1]."""
    n, height, width = outputs.shape[:3]
    m = height * width
    is_numpy = isinstance(outputs, np.ndarray)
    if answers.shape[0] * samples != n or tuple(answers.shape[1:]) != (height, width, 3) \
            or tuple(inputs.shape) != tuple(answers.shape):
        raise ValueError(f"outputs, answers, inputs: expected (B * {samples}, H, W, 3) and two "
                         f"(B, H, W, 3), got {tuple(outputs.shape)}, {tuple(answers.shape)} and "
                         f"{tuple(inputs.shape)}")
    is_float = outputs.dtype == (np.float32 if is_numpy else _torch_float32())
    per_thread = pixels_per_thread or _pixels_per_thread(n, m)
    blocks = max(1, min(_MAX_GRID_X, -(-m // (THREADS * per_thread))))
    layout = memory_layout(outputs, answers, inputs)
    lab = DEFAULT_LAB.get(delta_e, "table") if lab is None else lab
    kernel = count_kernel(layout, is_float, delta_e, lab)
    wants_rewards = tolerance >= -1
    if is_numpy:
        hist = np.zeros((n, 3, NUM_BINS), np.int64)
        flags = np.zeros((2, n), np.int32)
        rewards = np.ones(n if wants_rewards else 1, np.float32)  # 1.0: an image of no pixels
        if n and m:
            out, ans, inp = _kernel_arguments(layout, outputs, answers, inputs,
                                              lambda x: x.view(np.int32))
            table = interleaved_lab_table().view(np.int64) if lab == "table" \
                else np.zeros((1, 2), np.int64)
            kernel[(blocks, n), THREADS](out, ans, inp, table,
                                         samples, 0, hist.reshape(n, SLOTS), flags, tolerance,
                                         rewards)
        return hist, flags, rewards if wants_rewards else None
    import torch

    device = outputs.device
    hist = torch.zeros((n, 3, NUM_BINS), dtype=torch.int64, device=device)
    flags = torch.zeros((2, n), dtype=torch.int32, device=device)
    rewards = None
    if wants_rewards:  # 1.0 for an image of no pixels, as the formula gives
        rewards = (torch.empty if m else torch.ones)(n, dtype=torch.float32, device=device)
    if n and m:
        arrays = _kernel_arguments(layout, outputs, answers, inputs,
                                   lambda x: x.view(torch.int32))
        with cuda.gpus[device_index(device)]:
            o, a, i, h, f = numba_views((*arrays, hist.view(n, SLOTS), flags))
            r = numba_views((rewards,))[0] if wants_rewards else _no_rewards(device)
            t = _table_view(device) if lab == "table" else _no_table(device)
            stream = stream_of(device)
            for start in range(0, n, _MAX_GRID_X):  # gridDim.y is at most 65,535
                rows = min(n - start, _MAX_GRID_X)
                launch(kernel, (blocks, rows), THREADS, stream,
                       (o, a, i, t, samples, start, h, f, tolerance, r))
    return hist, flags, rewards


def _pixels_per_thread(n: int, m: int) -> int:
    few, many = _PIXELS_PER_THREAD
    return many if n * -(-m // (THREADS * many)) >= _FULL_GRID else few


def _no_table(device):
    """An int64 ``(1, 2)`` Numba array on ``device``: the ``pairs`` argument of a kernel that
    computes Lab itself (made once; no table is built)."""
    import torch

    key = ("table", str(device))
    made = _NO_REWARDS.get(key)
    if made is None:
        tensor = torch.zeros((1, 2), dtype=torch.int64, device=device)
        made = _NO_REWARDS[key] = (tensor, cuda.as_cuda_array(tensor, sync=False))
    return made[1]


_NO_REWARDS: dict = {}


def _no_rewards(device):
    """A float32 ``(1,)`` Numba array on ``device``: the kernel's ``rewards`` argument when it
    writes none (made once)."""
    import torch

    made = _NO_REWARDS.get(str(device))
    if made is None:
        tensor = torch.zeros(1, dtype=torch.float32, device=device)  # kept with its view
        made = _NO_REWARDS[str(device)] = (tensor, cuda.as_cuda_array(tensor, sync=False))
    return made[1]


def _torch_float32():
    import torch

    return torch.float32
