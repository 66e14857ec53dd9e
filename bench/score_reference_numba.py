"""The Numba counting kernel as it was before issue 28's second round (side-by-side benches).

:func:`tolerance_histograms_numba_before` is
:func:`~paintkit.kernels.tolerance_counts.tolerance_histograms_numba` with the previous
kernel: the answers' and inputs' Lab converted in full (SIMD loops) for every row that
differs from the last one converted, where the current kernel converts only the pixels
that changed. Same counts; only the time differs.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from paintkit.kernels import tolerance_counts as tc
from paintkit.kernels.lab import LINEAR_LUT, lab_planes, linear_row


@njit(parallel=True, cache=True, error_model="numpy")
def _histograms_kernel_before(out, ans, inp, lut, n_chunks, hist, bins, write_bins, near_idx, near_n):
    n_problems, height, width = out.shape[0], out.shape[1], out.shape[2]
    for item in prange(n_problems * n_chunks):
        p = item // n_chunks
        chunk = item % n_chunks
        row0 = chunk * height // n_chunks
        row1 = (chunk + 1) * height // n_chunks
        local = np.zeros((4, 3 * tc._SLOTS), np.int64)
        same = np.zeros((4, tc._SLOTS), np.int64)  # ΔE(O, A) bins of rows with A == I
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
            o, a, i = out[p, y], ans[p, y], inp[p, y]
            same_oa = tc._rows_equal(o, a)
            same_ai = tc._rows_equal(a, i)
            if same_oa and same_ai:  # O == A == I: all in P, ΔE = 0 twice
                local[0, tc.HIST_PRESERVATION * tc._SLOTS] += width
                local[0, tc.HIST_CHANGED * tc._SLOTS] += width
                if write_bins:
                    bins[p, y, :] = 0
                continue
            same_oi = not same_ai and tc._rows_equal(o, i)
            # Lab of the rows that need it; identical colours give identical Lab (one
            # deterministic function), so O == A gives ΔE = 0 exactly, as without arithmetic.
            if row_a < 0 or not tc._rows_equal(a, ans[p, row_a]):
                linear_row(a, lut, lin)
                lab_planes(lin, lab_a)
                row_a = y
            if not same_ai and (row_i < 0 or not tc._rows_equal(i, inp[p, row_i])):
                linear_row(i, lut, lin)
                lab_planes(lin, lab_i)
                row_i = y
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
                n_near += tc._delta_e_bins(lo, lab_a, bin_oa)
                boa = bin_oa
            if same_ai:
                boi = boa
            elif same_oi:
                boi = zeros
            elif same_oa:
                n_near += tc._delta_e_bins(lab_a, li, bin_oi)
                boi = bin_oi
            else:
                n_near += tc._delta_e_bins(lo, li, bin_oi)
                boi = bin_oi
            if same_ai:
                tc._count_same_regions(boa, same)
            else:
                tc._count_row(a, i, boa, boi, local)
            if n_near:
                tc._record_near(y, a, i, boa, boi, same_ai, local, near_idx[p, chunk],
                             near_n[p, chunk:chunk + 1])
            if write_bins:
                for x in range(width):
                    bins[p, y, x] = boa[x] % tc._NEAR
        for k in range(4):
            for b in range(tc.NUM_BINS):
                hist[p, chunk, tc.HIST_EDIT, b] += local[k, b + tc.HIST_EDIT * tc._SLOTS]
                hist[p, chunk, tc.HIST_PRESERVATION, b] += local[k, b + tc.HIST_PRESERVATION * tc._SLOTS] \
                    + same[k, b]
                hist[p, chunk, tc.HIST_CHANGED, b] += local[k, b + tc.HIST_CHANGED * tc._SLOTS] \
                    + same[k, b]


def tolerance_histograms_numba_before(outputs, answers, inputs, *, return_bins=False,
                                      chunks_per_problem=None):
    """int64 ``(B, 3, 12)`` histograms from the previous kernel (uint8 ``(B, H, W, 3)``);
    ``return_bins`` is not supported (False only), ``chunks_per_problem`` as the current one."""
    if return_bins:
        raise ValueError("return_bins: the previous kernel is benched without diff bins")
    outputs, answers, inputs = (np.ascontiguousarray(x) for x in (outputs, answers, inputs))
    n, height, width = outputs.shape[:3]
    chunks = chunks_per_problem or max(1, min(height, -(-4 * numba.get_num_threads() // max(n, 1))))
    hist = np.zeros((n, chunks, 3, tc.NUM_BINS), np.int64)
    bins = np.zeros((1, 1, 1), np.uint8)
    rows = -(-height // chunks)
    near_idx = np.empty((n, chunks, max(64, rows * width // 64)), np.int64)
    near_n = np.zeros((n, chunks), np.int64)
    _histograms_kernel_before(outputs, answers, inputs, LINEAR_LUT, chunks, hist, bins, False,
                              near_idx, near_n)
    hist = hist.sum(axis=1)
    for p in np.flatnonzero(near_n.sum(axis=1)):
        tc._count_guard_band(p, outputs, answers[p], inputs[p], hist, None, near_idx, near_n)
    return hist
