"""Optional ``torch.compile`` of the torch path's per-pixel work, CPU only.

Set ``PAINTKIT_TORCH_COMPILE=1`` to turn it on. The eager kernel makes ~25 passes over
each chunk of pixels (a gather, two ΔE, bins, the combined index), each a separate torch
operation that reads and writes memory; compiled, :func:`pair_index` becomes one C++
loop (Inductor) that keeps every intermediate in registers, about 3x faster on CPU. The
float -> uint8 step of float outputs (:mod:`paintkit.metrics.coerce`) is compiled the same
way (one pass instead of four).
Counts are unchanged: the compiled loop performs the same IEEE float32 operations in the
same order (Inductor compiles with ``-ffp-contract=off`` and without unsafe math), which
the tests check against the eager kernel and the NumPy oracle.

Off by default: the first call compiles (seconds; needs a C++ compiler) and a different
chunk shape may compile once more. When compiling fails the kernel warns once and stays
eager. CUDA always runs eager (its passes already run at memory bandwidth, and exactness
of the generated GPU code is not verified here).
"""

from __future__ import annotations

import os
import warnings

from paintkit.kernels.tolerance_bins import BIN_THRESHOLDS

#: Environment variable that turns the compiled CPU loop on ("1").
COMPILE_ENV = "PAINTKIT_TORCH_COMPILE"
_NUM_BINS = 12

_state: dict = {"compiled": {}, "failed": False}


def pair_index(o, table, lab_a, lab_i, edit):
    """``144 * in_edit + 12 * bin_oi + bin_oa`` per pixel, int32 ``(k, m)``.

    ``o``: uint8 ``(k, m, 3)`` outputs; ``table``: float32 ``(3, 2^24)``
    (:func:`~paintkit.kernels.lab_table.lab_table`); ``lab_a``, ``lab_i``: float32
    ``(3, k, m)`` reference Lab; ``edit``: bool ``(k, m)``. ``bin = min(ceil(ΔE), 11)``
    with ``ΔE²`` in the definition's order, binned by comparison (no square root), so eager
    and compiled give the same bits.
    """
    import torch

    c = o.to(torch.int32)
    lab_o = table[:, (c[..., 0] * 65536 + c[..., 1] * 256) + c[..., 2]]
    thresholds = _thresholds()
    bin_oa = _bins(lab_o, lab_a, thresholds)
    bin_oi = _bins(lab_o, lab_i, thresholds)
    return bin_oa + bin_oi * _NUM_BINS + edit.to(torch.int32) * (_NUM_BINS * _NUM_BINS)


def _bins(lab_o, lab_x, thresholds):
    """``min(ceil(ΔE), 11)`` as int32 from ``ΔE²`` compared with the bin thresholds (no
    square root; see :data:`~paintkit.kernels.tolerance_bins.BIN_THRESHOLDS`)."""
    import torch

    d = lab_o - lab_x
    return torch.bucketize((d[0] * d[0] + d[1] * d[1]) + d[2] * d[2], thresholds,
                           out_int32=True)


_CPU_THRESHOLDS: list = []


def _thresholds():
    if not _CPU_THRESHOLDS:
        import torch

        _CPU_THRESHOLDS.append(torch.from_numpy(BIN_THRESHOLDS))
    return _CPU_THRESHOLDS[0]


def compiled(fn, device):
    """``torch.compile(fn)`` (built once) when ``PAINTKIT_TORCH_COMPILE=1``, ``device`` is a
    CPU and no compile has failed in this process; else None (run eagerly)."""
    if os.environ.get(COMPILE_ENV) != "1" or device.type != "cpu" or _state["failed"]:
        return None
    fast = _state["compiled"].get(fn)
    if fast is None:
        import torch

        fast = _state["compiled"][fn] = torch.compile(fn, dynamic=None)
    return fast


def compiled_pair_index(device):
    """The compiled :func:`pair_index`, or None (see :func:`compiled`)."""
    return compiled(pair_index, device)


def run_compiled(fn, *args):
    """``fn(*args)``, or None (and a warning, once; later calls stay eager) if compiling
    or running the compiled loop fails."""
    try:
        return fn(*args)
    except Exception as error:  # no C++ compiler, an Inductor bug: eager is always right
        _state["failed"] = True
        warnings.warn(f"{COMPILE_ENV}=1: torch.compile of a per-pixel loop failed "
                      f"({type(error).__name__}: {error}); running eagerly instead",
                      RuntimeWarning, stacklevel=3)
        return None
