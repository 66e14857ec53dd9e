"""Tolerance histograms with a chosen ΔE formula (CIE76, CIE94 or CIEDE2000).

The same ``(B, 3, 12)`` histograms as :mod:`paintkit.kernels.counting.cie76_numba` (row 0:
``ceil(ΔE(O, A))`` bins over the edit region, row 1: over the preservation region, row 2:
``ceil(ΔE(O, I))`` over all pixels; bin 11 holds ΔE > 10), so
:func:`~paintkit.kernels.counting.bins.counts_from_histograms` and the metric's compute
step apply unchanged. The reference colour of each difference is the answer (``ΔE(O, A)``)
or the input (``ΔE(O, I)``); it matters for CIE94 only.

**Identical counts on every backend and machine.** Both paths take the canonical L*a*b* of
docs/metric-definition.md §3 (Numba: :func:`~paintkit.kernels.color.lab_canonical.lab_of_rgb_canonical`
per colour; torch: the lookup table of :mod:`paintkit.kernels.color.lab_table`, once per distinct
colour pair) and the canonical formulas of :mod:`paintkit.kernels.color.delta_e` (CIE76 in float32,
CIE94 and CIEDE2000 in float64 from IEEE basic operations only), so ΔE, and therefore every
bin, is the same bits on NumPy, Numba (any SIMD path, any thread count) and torch (CPU or
CUDA); the tests check it against a NumPy oracle, next to every integer tolerance too. A
pixel equal to its reference gets ΔE = 0 exactly. The fused CIE76 kernels stay the
benchmark's path; these are for the opt-in formulas.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from paintkit.kernels._validate import check_samples
from paintkit.kernels.color.delta_e import check_delta_e, delta_e_torch
from paintkit.kernels.color.delta_e_numba import FORMULA_CODES, delta_e_pixel
from paintkit.kernels.color.lab_canonical import lab_of_rgb_canonical
from paintkit.kernels.counting.bins import NUM_BINS
from paintkit.kernels.read_only import read_only

__all__ = ["tolerance_histograms_delta_e"]

_PIXELS_PER_STEP = 1 << 20
_CACHE = 1 << 14  # direct-mapped (colour pair -> bin) cache entries per work item
_LAB_CACHE = 1 << 14  # direct-mapped (colour -> canonical Lab) cache entries per work item
_ROWS_PER_ITEM = 64  # rows per work item: fewer cold caches (misses cost ~0.3 µs each)


@njit(inline="always", cache=True)
def _bin(d):
    return min(int(np.ceil(d)), NUM_BINS - 1)


@njit(inline="always", cache=True)
def _code(x, i, j):
    return (np.int64(x[i, j, 0]) << 16) | (np.int64(x[i, j, 1]) << 8) | np.int64(x[i, j, 2])


@njit(inline="always", cache=True)
def _cached_lab(colour, labs, lab_keys, x, i, j):
    """Canonical Lab (float32 ``labs[slot]``) of colour code ``colour`` at pixel (i, j) of
    ``x`` through a direct-mapped cache: the conversion costs ~150 float64 operations, and
    a noisy output pairs each of its colours with an answer and an input colour."""
    slot = ((colour * np.int64(-7046029254386353131)) >> np.int64(40)) & np.int64(_LAB_CACHE - 1)
    if lab_keys[slot] != colour:
        lab = lab_of_rgb_canonical(np.int64(x[i, j, 0]), np.int64(x[i, j, 1]), np.int64(x[i, j, 2]))
        labs[slot, 0] = lab[0]
        labs[slot, 1] = lab[1]
        labs[slot, 2] = lab[2]
        lab_keys[slot] = colour
    return slot


@njit(inline="always", cache=True)
def _cached_bin(code, s_code, r_code, cache_keys, cache_bins, labs, lab_keys, sample,
                reference, i, j):
    """Bin of ΔE(reference, sample) at pixel (i, j) through a direct-mapped cache of colour
    pairs: a noisy output of a flat answer has few distinct pairs, and CIEDE2000 costs
    ~0.3 µs each. The Lab is the canonical one (cached per colour)."""
    pair = (s_code << 24) | r_code
    slot = ((pair * np.int64(-7046029254386353131)) >> np.int64(40)) & np.int64(_CACHE - 1)
    if cache_keys[slot] == pair:
        return cache_bins[slot]
    r = _cached_lab(r_code, labs, lab_keys, reference, i, j)
    lr0, lr1, lr2 = labs[r, 0], labs[r, 1], labs[r, 2]
    s = _cached_lab(s_code, labs, lab_keys, sample, i, j)
    b = _bin(delta_e_pixel(code, lr0, lr1, lr2, labs[s, 0], labs[s, 1], labs[s, 2]))
    cache_keys[slot] = pair
    cache_bins[slot] = b
    return b


@njit(parallel=True, nogil=True, cache=True)
def _histograms_kernel(code, out, ans, inp, samples, hist, bins, write_bins):
    h, w = out.shape[1:3]
    n_rows = out.shape[0] * h
    n_items = (n_rows + _ROWS_PER_ITEM - 1) // _ROWS_PER_ITEM
    for item in prange(n_items):
        cache_keys = np.full(_CACHE, -1, np.int64)
        cache_bins = np.zeros(_CACHE, np.int64)
        labs = np.zeros((_LAB_CACHE, 3), np.float32)
        lab_keys = np.full(_LAB_CACHE, -1, np.int64)
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
                a_code = _code(ans[p // samples], i, j)
                i_code = _code(inp[p // samples], i, j)
                b_oa = 0
                b_oi = 0
                if o_code != a_code:  # equal colours: ΔE = 0, no arithmetic
                    b_oa = _cached_bin(code, o_code, a_code, cache_keys, cache_bins, labs,
                                       lab_keys, out[p], ans[p // samples], i, j)
                if o_code != i_code:  # the key orders (sample, reference): CIE94-safe
                    b_oi = _cached_bin(code, o_code, i_code, cache_keys, cache_bins, labs,
                                       lab_keys, out[p], inp[p // samples], i, j)
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


def _histograms_numba(code, outputs, answers, inputs, samples, return_bins):
    n, h = outputs.shape[:2]
    rows = np.zeros((n * h, 3, NUM_BINS), np.int64)
    bins = np.zeros(outputs.shape[:3] if return_bins else (1, 1, 1), np.uint8)
    if outputs.size:
        _histograms_kernel(code, outputs, answers, inputs, samples, rows, bins, return_bins)
    hist = rows.reshape(n, h, 3, NUM_BINS).sum(axis=1)
    return (hist, bins) if return_bins else hist


def _pair_bins_torch(delta_e, sample_codes, reference_codes):
    """``min(ceil(ΔE(reference, sample)), 11)`` per pixel from int64 colour codes ``(N,)``:
    int64 ``(N,)``. ΔE is computed once per distinct colour pair (an output of flat
    colours has few: a 1024² noisy output ~30 times fewer than pixels), from the canonical
    Lab looked up in the table; equal colours get bin 0 without arithmetic."""
    import torch

    from paintkit.kernels.color.lab_table import lab_of_codes  # torch: the table is a tensor

    bins = torch.zeros(sample_codes.shape, dtype=torch.int64, device=sample_codes.device)
    differ = sample_codes != reference_codes
    if not bool(differ.any()):
        return bins
    pairs, where = torch.unique((sample_codes[differ] << 24) | reference_codes[differ],
                                return_inverse=True)
    lab_s = lab_of_codes((pairs >> 24).to(torch.int32))  # planar (3, P)
    lab_r = lab_of_codes((pairs & 0xFFFFFF).to(torch.int32))
    d = delta_e_torch(lab_r, lab_s, delta_e, channel_dim=0)  # the reference colour first
    bins[differ] = d.ceil().clamp_(max=NUM_BINS - 1).long()[where]
    return bins


def _histograms_torch(delta_e, outputs, answers, inputs, samples, return_bins):
    import torch

    from paintkit.kernels.color.lab_table import colour_codes  # torch

    n = outputs.shape[0]
    device = outputs.device
    hist = torch.zeros((n, 3, NUM_BINS), dtype=torch.int64, device=device)
    bins_all = torch.empty(outputs.shape[:3], dtype=torch.uint8, device=device) \
        if return_bins else None
    for p in range(n):
        o, a, i = (colour_codes(x[k, ..., 0], x[k, ..., 1], x[k, ..., 2]).reshape(-1).long()
                   for x, k in ((outputs, p), (answers, p // samples), (inputs, p // samples)))
        for u in range(0, o.shape[0], _PIXELS_PER_STEP):
            v = u + _PIXELS_PER_STEP
            b_oa = _pair_bins_torch(delta_e, o[u:v], a[u:v])
            b_oi = _pair_bins_torch(delta_e, o[u:v], i[u:v])
            region = (a[u:v] == i[u:v]).long()  # 0 edit, 1 preservation
            hist[p, :2] += torch.bincount(region * NUM_BINS + b_oa,
                                          minlength=2 * NUM_BINS).view(2, NUM_BINS)
            hist[p, 2] += torch.bincount(b_oi, minlength=NUM_BINS)
            if return_bins:
                bins_all[p].view(-1)[u:v] = b_oa.to(torch.uint8)
    return (hist, bins_all) if return_bins else hist


def tolerance_histograms_delta_e(outputs, answers, inputs, delta_e: str = "cie76", *,
                                 return_bins: bool = False, samples_per_problem: int = 1):
    """Per-output ``(3, 12)`` ΔE histograms with formula ``delta_e`` (module docstring).

    Args:
        outputs: uint8 ``(B, H, W, 3)`` (already normalised to the answer size); answers,
            inputs: uint8 ``(B / G, H, W, 3)``, problem ``k`` the reference of outputs
            ``k * G .. k * G + G - 1`` (``G = samples_per_problem``, never repeated). All
            NumPy arrays (parallel Numba, CPU) or all torch tensors (on their device).
        delta_e: ``"cie76"``, ``"cie94"`` or ``"ciede2000"``.
        return_bins: also return ``min(ceil(ΔE(O, A)), 11)`` per pixel, uint8 ``(B, H, W)``.
        samples_per_problem: ``G``, outputs per problem (GRPO groups), problem-major.

    Returns:
        int64 ``(B, 3, 12)`` (array or tensor like the inputs), or ``(histograms, bins)``.
    """
    check_delta_e(delta_e)
    batch = (outputs, answers, inputs)
    numpy_inputs = all(isinstance(x, np.ndarray) for x in batch)
    for name, x in zip(("outputs", "answers", "inputs"), batch, strict=True):
        dtype = str(getattr(x, "dtype", type(x).__name__)).removeprefix("torch.")
        if dtype != "uint8" or x.ndim != 4 or x.shape[-1] != 3 \
                or isinstance(x, np.ndarray) != numpy_inputs:
            raise ValueError(f"{name}: expected uint8 (B, H, W, 3), all NumPy or all torch; got "
                             f"{type(x).__name__} {dtype} {tuple(getattr(x, 'shape', ()))}")
    samples = check_samples(tuple(outputs.shape), tuple(answers.shape), tuple(inputs.shape),
                            samples_per_problem)
    if numpy_inputs:
        images = (read_only(np.ascontiguousarray(x)) for x in batch)
        return _histograms_numba(FORMULA_CODES[delta_e], *images, samples, return_bins)
    return _histograms_torch(delta_e, outputs, answers, inputs, samples, return_bins)
