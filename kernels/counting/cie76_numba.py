"""Fused per-problem tolerance statistics (docs/metric-definition.md §4-6): one pass over the pixels.

For every pixel the kernels compute ``ΔE(O, A)`` and ``ΔE(O, I)`` (CIE76, float32), bucket
``ceil(ΔE)`` into 12 bins (0..10 and "more than 10") and count, split by region. A problem's
histogram has shape ``(3, 12)``:

- row 0: ``ΔE(O, A)`` bins over the edit region ``E`` (pixels where ``I != A``);
- row 1: ``ΔE(O, A)`` bins over the preservation region ``P``;
- row 2: ``ΔE(O, I)`` bins over all pixels.

A pixel is correct at tolerance ``t`` iff ``ΔE <= t`` iff ``ceil(ΔE) <= t``, so cumulative
sums of the bins give every count for the 11 tolerances at once
(:func:`~paintkit.kernels.counting.bins.counts_from_histograms`).

Exact counts: the Numba kernel's fast Lab differs from the canonical arithmetic
(:mod:`paintkit.kernels.color.lab_canonical`) by up to ~1e-4, which moves ``ceil(ΔE)`` for
pixels whose ΔE lies next to an integer. Such pixels (fast ΔE within
:data:`~paintkit.kernels.counting.bins.GUARD_BAND` of 1..10) are set aside by the kernel
and counted from ΔE recomputed with the canonical arithmetic
(:mod:`paintkit.kernels.counting.bins` states the rule), so every count equals the
canonical one bit for bit.

Implementations: :func:`tolerance_histograms_numba` (parallel Numba CPU, from raw uint8,
row by row: rows with ``O == A == I`` are counted without arithmetic, the Lab of answer and
input rows is reused while rows repeat and reused for ``O`` when ``O``'s row equals one of
them, every other row goes through branch-free SIMD loops — linearise, Lab with a bit-trick
cube root, ``ceil(ΔE)`` — and a scalar histogram); its torch twin is
:func:`~paintkit.kernels.counting.cie76_torch.tolerance_histograms_torch` (runs where its
tensors are).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from paintkit.kernels._validate import check_samples
from paintkit.kernels.color.lab import (
    LINEAR_LUT,
    lab_of_rgb,
    lab_planes,
    linear_row,
)
from paintkit.kernels.color.lab_canonical import bins_of_lab, canonical_lab, canonical_lab_of_colours
from paintkit.kernels.counting.bins import (
    GUARD_BAND,
    HIST_CHANGED,
    HIST_EDIT,
    HIST_PRESERVATION,
    NUM_BINS,
    NUM_TOLERANCES,
)
from paintkit.kernels.read_only import read_only

__all__ = ["count_row", "delta_e_bins_row", "tolerance_histograms_numba"]

_NEAR_SHIFT = 4
_NEAR = 1 << _NEAR_SHIFT  # added to a bin: the pixel's fast ΔE lies in the guard band
_SLOTS = 2 * _NEAR  # histogram slots per region: bins 0..11, flagged bins 16..27 (dropped)
_BAND = np.float32(GUARD_BAND)


@njit(cache=True)
def _rows_equal(a, b):
    """Whether two uint8 rows ``(W, 3)`` are identical; an OR-reduction that vectorises
    (~0.1 ns/pixel) after a one-pixel early exit (noisy rows differ at once)."""
    a = a.reshape(a.size)
    b = b.reshape(b.size)
    if a.size == 0:
        return True
    if a[0] != b[0] or a[a.size - 1] != b[b.size - 1]:
        return False
    acc = 0
    for k in range(a.size):
        acc |= a[k] ^ b[k]
    return acc == 0


@njit(cache=True, error_model="numpy")
def _hold_lab_row(rows, y, held, lut, lin, lab):
    """Make ``lab`` hold the planar Lab of ``rows[y]`` (uint8 ``(H, W, 3)`` image rows) when
    it holds that of ``rows[held]`` (``held`` < 0: nothing yet); returns the row it then
    holds (``held`` when the two rows are equal, else ``y``)."""
    rgb = rows[y]
    if held < 0:
        linear_row(rgb, lut, lin)
        lab_planes(lin, lab)
        return y
    if _rows_equal(rgb, rows[held]):
        return held
    _update_lab_row(rgb, rows[held], lut, lin, lab)
    return y


@njit(cache=True, error_model="numpy")
def _update_lab_row(rgb, held, lut, lin, lab):
    """Planar Lab ``(3, W)`` of the uint8 row ``rgb`` ``(W, 3)`` into ``lab``, which holds
    the Lab of the row ``held``: only the pixels that differ are converted (answers and
    inputs change from row to row at a few shape edges). A row whose first 16 pixels mostly
    differ (photo-like), or where more than 1/16 of the pixels differ (a scalar conversion
    costs about ten SIMD ones), goes through the SIMD loops whole. The scalar
    ``lab_of_rgb`` performs the same float32 operations in the same order as
    ``lab_planes``: the same bits."""
    width = rgb.shape[0]
    probe = 0
    for x in range(min(16, width)):
        probe += (rgb[x, 0] != held[x, 0]) | (rgb[x, 1] != held[x, 1]) \
            | (rgb[x, 2] != held[x, 2])
    budget = width >> 4
    if 2 * probe <= min(16, width):
        for x in range(width):
            r, g, b = rgb[x, 0], rgb[x, 1], rgb[x, 2]
            if r != held[x, 0] or g != held[x, 1] or b != held[x, 2]:
                budget -= 1
                if budget < 0:
                    break
                lab[0, x], lab[1, x], lab[2, x] = lab_of_rgb(r, g, b, lut)
        if budget >= 0:
            return
    linear_row(rgb, lut, lin)
    lab_planes(lin, lab)


@njit(cache=True, error_model="numpy")
def delta_e_bins_row(lab_a, lab_b, bins):
    """``min(ceil(ΔE), 11)`` per pixel of two planar Lab rows ``(3, W)``, plus ``_NEAR``
    where ΔE lies within the guard band of an integer 1..10; returns 1 if any pixel does.
    Branch-free (selects and integer ops only, so LLVM vectorises it)."""
    any_near = np.int32(0)
    for x in range(bins.shape[0]):
        d0 = lab_a[0, x] - lab_b[0, x]
        d1 = lab_a[1, x] - lab_b[1, x]
        d2 = lab_a[2, x] - lab_b[2, x]
        d = np.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
        c = np.ceil(d)
        gap = min(c - d, d - (c - np.float32(1.0)))  # to the nearest integer (exact here)
        near = np.int32(gap <= _BAND) & np.int32(d > np.float32(0.5)) \
            & np.int32(d < np.float32(NUM_TOLERANCES - 0.5))
        bins[x] = np.int32(min(c, np.float32(NUM_BINS - 1))) | (near << _NEAR_SHIFT)
        any_near |= near
    return any_near


@njit(cache=True)
def _record_near(y, ans, inp, bin_oa, bin_oi, same_ai, local, near_idx, near_n):
    """After a row was counted: list its guard-band pixels in ``near_idx`` (flat
    ``y * W + x``; ``near_n[0]`` counts them, also past the buffer's end) and take them out
    of the histogram. Flagged bins (``>= _NEAR``) went to slots the histograms drop; the
    other ΔE of such a pixel was counted normally and is subtracted here, so the pixel is
    counted once, from the canonical arithmetic, by ``_count_guard_band``."""
    width = bin_oa.shape[0]
    for x in range(width):
        boa = bin_oa[x]
        boi = bin_oi[x]
        if (boa | boi) < _NEAR:
            continue
        k = near_n[0]
        if k < near_idx.shape[0]:
            near_idx[k] = y * width + x
        near_n[0] = k + 1
        if same_ai:  # counted once, through boa (== boi), in a dropped slot
            continue
        edit = (ans[x, 0] != inp[x, 0]) | (ans[x, 1] != inp[x, 1]) | (ans[x, 2] != inp[x, 2])
        if boa < _NEAR:
            local[x & 3, boa + (HIST_PRESERVATION - edit) * _SLOTS] -= 1
        if boi < _NEAR:
            local[x & 3, boi + HIST_CHANGED * _SLOTS] -= 1


@njit(cache=True)
def count_row(ans, inp, bin_oa, bin_oi, local):
    """Histogram one row; four interleaved copies of ``local`` break increment chains.
    Each region has ``_SLOTS`` slots: flagged bins land past ``NUM_BINS`` and are dropped."""
    for x in range(bin_oa.shape[0]):
        edit = (ans[x, 0] != inp[x, 0]) | (ans[x, 1] != inp[x, 1]) | (ans[x, 2] != inp[x, 2])
        k = x & 3
        local[k, bin_oa[x] + (HIST_PRESERVATION - edit) * _SLOTS] += 1
        local[k, bin_oi[x] + HIST_CHANGED * _SLOTS] += 1


@njit(cache=True)
def _count_same_regions(bin_oa, local):
    """Histogram a row where ``A == I``: every pixel in ``P`` and ``ΔE(O, I) = ΔE(O, A)``."""
    for x in range(bin_oa.shape[0]):
        local[x & 3, bin_oa[x]] += 1


@njit(parallel=True, nogil=True, cache=True, error_model="numpy")
def _histograms_kernel(out, ans, inp, samples, lut, n_chunks, hist, bins, write_bins, near_idx,
                       near_n):
    n_outputs, height, width = out.shape[0], out.shape[1], out.shape[2]
    for item in prange(n_outputs * n_chunks):
        p = item // n_chunks  # the output; its answer and input: row p // samples
        q = p // samples
        chunk = item % n_chunks
        row0 = chunk * height // n_chunks
        row1 = (chunk + 1) * height // n_chunks
        local = np.zeros((4, 3 * _SLOTS), np.int64)
        same = np.zeros((4, _SLOTS), np.int64)  # ΔE(O, A) bins of rows with A == I
        lin = np.empty((3, width), np.float32)
        lab_a = np.empty((3, width), np.float32)
        lab_i = np.empty((3, width), np.float32)
        lab_o = np.empty((3, width), np.float32)
        bin_oa = np.zeros(width, np.int32)
        bin_oi = np.zeros(width, np.int32)
        zeros = np.zeros(width, np.int32)
        row_a = -1  # rows whose Lab lab_a / lab_i hold (palette images repeat rows)
        row_i = -1
        for y in range(row0, row1):
            o, a, i = out[p, y], ans[q, y], inp[q, y]
            same_oa = _rows_equal(o, a)
            same_ai = _rows_equal(a, i)
            if same_oa and same_ai:  # O == A == I: all in P, ΔE = 0 twice
                local[0, HIST_PRESERVATION * _SLOTS] += width
                local[0, HIST_CHANGED * _SLOTS] += width
                if write_bins:
                    bins[p, y, :] = 0
                continue
            same_oi = not same_ai and _rows_equal(o, i)
            # Lab of the rows that need it; identical colours give identical Lab (one
            # deterministic function), so O == A gives ΔE = 0 exactly, as without arithmetic.
            row_a = _hold_lab_row(ans[q], y, row_a, lut, lin, lab_a)
            if not same_ai:
                row_i = _hold_lab_row(inp[q], y, row_i, lut, lin, lab_i)
            li = lab_a if same_ai else lab_i
            n_near = 0
            if same_oa:
                boa = zeros
            else:
                if same_oi:
                    lo = li
                else:
                    linear_row(o, lut, lin)
                    lab_planes(lin, lab_o)
                    lo = lab_o
                n_near += delta_e_bins_row(lo, lab_a, bin_oa)
                boa = bin_oa
            if same_ai:
                boi = boa
            elif same_oi:
                boi = zeros
            elif same_oa:
                n_near += delta_e_bins_row(lab_a, li, bin_oi)
                boi = bin_oi
            else:
                n_near += delta_e_bins_row(lo, li, bin_oi)
                boi = bin_oi
            if same_ai:
                _count_same_regions(boa, same)
            else:
                count_row(a, i, boa, boi, local)
            if n_near:
                _record_near(y, a, i, boa, boi, same_ai, local, near_idx[p, chunk],
                             near_n[p, chunk:chunk + 1])
            if write_bins:
                for x in range(width):
                    bins[p, y, x] = boa[x] % _NEAR
        for k in range(4):
            for b in range(NUM_BINS):
                hist[p, chunk, HIST_EDIT, b] += local[k, b + HIST_EDIT * _SLOTS]
                hist[p, chunk, HIST_PRESERVATION, b] += local[k, b + HIST_PRESERVATION * _SLOTS] \
                    + same[k, b]
                hist[p, chunk, HIST_CHANGED, b] += local[k, b + HIST_CHANGED * _SLOTS] \
                    + same[k, b]


def _as_batch(name: str, array: np.ndarray) -> np.ndarray:
    if not isinstance(array, np.ndarray) or array.dtype != np.uint8 or array.ndim != 4 \
            or array.shape[-1] != 3:
        got = f"{getattr(array, 'dtype', type(array).__name__)} {getattr(array, 'shape', '')}"
        raise ValueError(f"{name}: expected a uint8 array of shape (B, H, W, 3), got {got}")
    return read_only(np.ascontiguousarray(array))


def tolerance_histograms_numba(
    outputs: np.ndarray,
    answers: np.ndarray,
    inputs: np.ndarray,
    *,
    return_bins: bool = False,
    chunks_per_problem: int | None = None,
    samples_per_problem: int = 1,
):
    """Per-output ``(3, 12)`` ΔE histograms (see module docstring), parallel Numba CPU.

    Args:
        outputs: uint8 ``(B, H, W, 3)``, already normalised to the answer size.
        answers, inputs: uint8 ``(B / G, H, W, 3)``: problem ``k`` is the reference of
            outputs ``k * G .. k * G + G - 1`` (``G = samples_per_problem``), read in place
            (never repeated per sample).
        return_bins: also return ``ceil(ΔE(O, A))`` clipped to 11 per pixel, uint8
            ``(B, H, W)`` (for diff images).
        chunks_per_problem: row bands per output (parallel work items); default splits a
            batch into at least ~4 items per thread.
        samples_per_problem: ``G``, outputs per problem (GRPO groups), problem-major.

    Returns:
        int64 ``(B, 3, 12)``, or ``(histograms, bins)`` with ``return_bins``.
    """
    import numba

    outputs = _as_batch("outputs", outputs)
    answers = _as_batch("answers", answers)
    inputs = _as_batch("inputs", inputs)
    samples = check_samples(outputs.shape, answers.shape, inputs.shape, samples_per_problem)
    n, height = outputs.shape[0], outputs.shape[1]
    if chunks_per_problem is None:
        threads = numba.get_num_threads()
        chunks_per_problem = max(1, min(height, -(-4 * threads // max(n, 1))))
    chunks = max(1, min(int(chunks_per_problem), max(height, 1)))
    hist = np.zeros((n, chunks, 3, NUM_BINS), np.int64)
    bins = np.zeros(outputs.shape[:3] if return_bins else (1, 1, 1), np.uint8)
    width = outputs.shape[2]
    rows = -(-height // chunks) if height else 0
    near_idx = np.empty((n, chunks, max(64, rows * width // 64)), np.int64)
    near_n = np.zeros((n, chunks), np.int64)
    if n and height and width:
        _histograms_kernel(outputs, answers, inputs, samples, LINEAR_LUT, chunks, hist, bins,
                           return_bins, near_idx, near_n)
    hist = hist.sum(axis=1)
    for p in np.flatnonzero(near_n.sum(axis=1)):
        _count_guard_band(p, outputs, answers[p // samples], inputs[p // samples], hist,
                          bins if return_bins else None, near_idx, near_n)
    return (hist, bins) if return_bins else hist


def _count_guard_band(p, outputs, answer, inp, hist, bins, near_idx, near_n) -> None:
    """Count output ``p``'s guard-band pixels (against its problem's ``answer`` and ``inp``,
    uint8 ``(H, W, 3)``) from the canonical arithmetic (module docstring); when a chunk
    listed more than its buffer holds, recount the whole output that way. The output's Lab
    is converted once for both ΔE, the answer's and input's once per colour (they repeat a
    few colours)."""
    o, a, i = outputs[p].reshape(-1, 3), answer.reshape(-1, 3), inp.reshape(-1, 3)
    if (near_n[p] > near_idx.shape[2]).any():  # adversarial images: all pixels, exactly
        flat = np.arange(o.shape[0])
        hist[p] = 0
    else:
        flat = np.concatenate([near_idx[p, c, :near_n[p, c]] for c in range(near_n.shape[1])])
    o, a, i = (np.take(x, flat, axis=0) for x in (o, a, i))  # rows: one copy each, not per pixel
    lab_o = canonical_lab(o)
    bin_oa = bins_of_lab(lab_o, canonical_lab_of_colours(a), NUM_BINS)
    bin_oi = bins_of_lab(lab_o, canonical_lab_of_colours(i), NUM_BINS)
    edit = (a[:, 0] != i[:, 0]) | (a[:, 1] != i[:, 1]) | (a[:, 2] != i[:, 2])
    hist[p, HIST_EDIT] += np.bincount(bin_oa[edit], minlength=NUM_BINS)
    hist[p, HIST_PRESERVATION] += np.bincount(bin_oa[~edit], minlength=NUM_BINS)
    hist[p, HIST_CHANGED] += np.bincount(bin_oi, minlength=NUM_BINS)
    if bins is not None:
        bins[p].reshape(-1)[flat] = bin_oa
