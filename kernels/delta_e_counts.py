"""Tolerance histograms with a chosen ΔE formula (CIE76, CIE94 or CIEDE2000).

The same ``(B, 3, 12)`` histograms as :mod:`paintkit.kernels.tolerance_counts` (row 0:
``ceil(ΔE(O, A))`` bins over the edit region, row 1: over the preservation region, row 2:
``ceil(ΔE(O, I))`` over all pixels; bin 11 holds ΔE > 10), so
:func:`~paintkit.kernels.tolerance_counts.counts_from_histograms` and the metric's compute
step apply unchanged. The reference colour of each difference is the answer (``ΔE(O, A)``)
or the input (``ΔE(O, I)``); it matters for CIE94 only.

Lab per docs/metric-definition.md §3 in float32; the formula in float64 (on both backends), so the choice of
backend moves a count only for pixels whose ΔE lies within ~1e-3 of an integer (the §9
contract). A pixel equal to its reference gets ΔE = 0 exactly. The fused CIE76 kernels
stay the benchmark's path; these are for the opt-in formulas.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from paintkit.kernels.delta_e import check_formula, delta_e_torch
from paintkit.kernels.delta_e_numba import FORMULA_CODES, delta_e_pixel
from paintkit.kernels.lab import LINEAR_LUT, lab_of_rgb, srgb_to_lab_torch

__all__ = ["tolerance_histograms_delta_e"]

NUM_BINS = 12  # ceil(ΔE) = 0..10, and 11 for ΔE > 10
_PIXELS_PER_STEP = 1 << 20
_CACHE = 1 << 14  # direct-mapped (colour pair -> bin) cache entries per work item
_ROWS_PER_ITEM = 64  # rows per work item: fewer cold caches (misses cost ~0.3 µs each)


@njit(inline="always", cache=True)
def _bin(d):
    return min(int(np.ceil(d)), NUM_BINS - 1)


@njit(inline="always", cache=True)
def _code(x, i, j):
    return (np.int64(x[i, j, 0]) << 16) | (np.int64(x[i, j, 1]) << 8) | np.int64(x[i, j, 2])


@njit(inline="always", cache=True)
def _pair_bin(code, sample, reference, i, j, lut):
    """Bin of ΔE(reference, sample) at pixel (i, j)."""
    lr = lab_of_rgb(np.int32(reference[i, j, 0]), np.int32(reference[i, j, 1]),
                    np.int32(reference[i, j, 2]), lut)
    ls = lab_of_rgb(np.int32(sample[i, j, 0]), np.int32(sample[i, j, 1]),
                    np.int32(sample[i, j, 2]), lut)
    return _bin(delta_e_pixel(code, lr[0], lr[1], lr[2], ls[0], ls[1], ls[2]))


@njit(inline="always", cache=True)
def _cached_bin(code, pair, cache_keys, cache_bins, sample, reference, i, j, lut):
    """Bin of a (sample, reference) colour pair through a direct-mapped cache: a noisy
    output of a flat answer has few distinct pairs, and CIEDE2000 costs ~0.3 µs each."""
    slot = ((pair * np.int64(-7046029254386353131)) >> np.int64(40)) & np.int64(_CACHE - 1)
    if cache_keys[slot] == pair:
        return cache_bins[slot]
    b = _pair_bin(code, sample, reference, i, j, lut)
    cache_keys[slot] = pair
    cache_bins[slot] = b
    return b


@njit(parallel=True, cache=True)
def _histograms_kernel(code, out, ans, inp, lut, hist, bins, write_bins):
    h, w = out.shape[1:3]
    n_rows = out.shape[0] * h
    n_items = (n_rows + _ROWS_PER_ITEM - 1) // _ROWS_PER_ITEM
    for item in prange(n_items):
        cache_keys = np.full(_CACHE, -1, np.int64)
        cache_bins = np.zeros(_CACHE, np.int64)
        for r in range(item * _ROWS_PER_ITEM, min(n_rows, (item + 1) * _ROWS_PER_ITEM)):
            p = r // h
            i = r % h
            # bin-0 counts (most pixels of a fair output) stay in registers: one memory
            # add per row, not a dependent add to one histogram cell per pixel
            zero_edit = 0
            zero_kept = 0
            zero_input = 0
            for j in range(w):
                o_code = _code(out[p], i, j)
                a_code = _code(ans[p], i, j)
                i_code = _code(inp[p], i, j)
                b_oa = 0
                b_oi = 0
                if o_code != a_code:  # equal colours: ΔE = 0, no arithmetic
                    b_oa = _cached_bin(code, (o_code << 24) | a_code, cache_keys, cache_bins,
                                       out[p], ans[p], i, j, lut)
                if o_code != i_code:  # the key orders (sample, reference): CIE94-safe
                    b_oi = _cached_bin(code, (o_code << 24) | i_code, cache_keys, cache_bins,
                                       out[p], inp[p], i, j, lut)
                if b_oa != 0:
                    hist[r, 0 if a_code != i_code else 1, b_oa] += 1
                elif a_code != i_code:
                    zero_edit += 1
                else:
                    zero_kept += 1
                if b_oi != 0:
                    hist[r, 2, b_oi] += 1
                else:
                    zero_input += 1
                if write_bins:
                    bins[p, i, j] = b_oa
            hist[r, 0, 0] += zero_edit
            hist[r, 1, 0] += zero_kept
            hist[r, 2, 0] += zero_input


def _histograms_numba(code, outputs, answers, inputs, return_bins):
    n, h = outputs.shape[:2]
    rows = np.zeros((n * h, 3, NUM_BINS), np.int64)
    bins = np.zeros(outputs.shape[:3] if return_bins else (1, 1, 1), np.uint8)
    if outputs.size:
        _histograms_kernel(code, outputs, answers, inputs, LINEAR_LUT, rows, bins, return_bins)
    hist = rows.reshape(n, h, 3, NUM_BINS).sum(axis=1)
    return (hist, bins) if return_bins else hist


def _histograms_torch(formula, outputs, answers, inputs, return_bins):
    import torch

    n = outputs.shape[0]
    device = outputs.device
    hist = torch.zeros((n, 3, NUM_BINS), dtype=torch.int64, device=device)
    bins_all = torch.empty(outputs.shape[:3], dtype=torch.uint8, device=device) \
        if return_bins else None
    for p in range(n):
        o, a, i = (x[p].reshape(-1, 3) for x in (outputs, answers, inputs))
        edit = (a != i).any(dim=-1)
        for u in range(0, o.shape[0], _PIXELS_PER_STEP):
            v = u + _PIXELS_PER_STEP
            lab_o = srgb_to_lab_torch(o[u:v]).double()
            d_oa = delta_e_torch(srgb_to_lab_torch(a[u:v]).double(), lab_o, formula)
            d_oi = delta_e_torch(srgb_to_lab_torch(i[u:v]).double(), lab_o, formula)
            # Equal 8-bit colours are exactly 0 whatever the float path did.
            b_oa = d_oa.ceil().clamp_(max=NUM_BINS - 1).long().masked_fill_(
                (o[u:v] == a[u:v]).all(dim=-1), 0)
            b_oi = d_oi.ceil().clamp_(max=NUM_BINS - 1).long().masked_fill_(
                (o[u:v] == i[u:v]).all(dim=-1), 0)
            region = (~edit[u:v]).long()  # 0 edit, 1 preservation
            hist[p, :2] += torch.bincount(region * NUM_BINS + b_oa,
                                          minlength=2 * NUM_BINS).view(2, NUM_BINS)
            hist[p, 2] += torch.bincount(b_oi, minlength=NUM_BINS)
            if return_bins:
                bins_all[p].view(-1)[u:v] = b_oa.to(torch.uint8)
    return (hist, bins_all) if return_bins else hist


def tolerance_histograms_delta_e(outputs, answers, inputs, formula: str = "cie76", *,
                                 return_bins: bool = False):
    """Per-problem ``(3, 12)`` ΔE histograms with ``formula`` (module docstring).

    Args:
        outputs, answers, inputs: uint8 ``(B, H, W, 3)`` of one shape (outputs already
            normalised to the answer size), all NumPy arrays (parallel Numba, CPU) or all
            torch tensors (on their device).
        formula: ``"cie76"``, ``"cie94"`` or ``"ciede2000"``.
        return_bins: also return ``min(ceil(ΔE(O, A)), 11)`` per pixel, uint8 ``(B, H, W)``.

    Returns:
        int64 ``(B, 3, 12)`` (array or tensor like the inputs), or ``(histograms, bins)``.
    """
    check_formula(formula)
    batch = (outputs, answers, inputs)
    numpy_inputs = all(isinstance(x, np.ndarray) for x in batch)
    for name, x in zip(("outputs", "answers", "inputs"), batch, strict=True):
        dtype = str(getattr(x, "dtype", type(x).__name__)).removeprefix("torch.")
        if dtype != "uint8" or x.ndim != 4 or x.shape[-1] != 3 \
                or isinstance(x, np.ndarray) != numpy_inputs:
            raise ValueError(f"{name}: expected uint8 (B, H, W, 3), all NumPy or all torch; got "
                             f"{type(x).__name__} {dtype} {tuple(getattr(x, 'shape', ()))}")
    if not outputs.shape == answers.shape == inputs.shape:
        raise ValueError("outputs, answers, inputs: expected one shape (B, H, W, 3), got "
                         f"{tuple(outputs.shape)}, {tuple(answers.shape)}, {tuple(inputs.shape)}")
    if numpy_inputs:
        return _histograms_numba(FORMULA_CODES[formula], *(np.ascontiguousarray(x) for x in batch),
                                 return_bins)
    return _histograms_torch(formula, outputs, answers, inputs, return_bins)
