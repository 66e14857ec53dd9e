"""Fused per-problem tolerance statistics (SPEC 1.4-1.6): one pass over the pixels.

For every pixel the kernels compute ``ΔE(O, A)`` and ``ΔE(O, I)`` (CIE76, float32), bucket
``ceil(ΔE)`` into 12 bins (0..10 and "more than 10") and count, split by region. A problem's
histogram has shape ``(3, 12)``:

- row 0: ``ΔE(O, A)`` bins over the edit region ``E`` (pixels where ``I != A``);
- row 1: ``ΔE(O, A)`` bins over the preservation region ``P``;
- row 2: ``ΔE(O, I)`` bins over all pixels.

A pixel is correct at tolerance ``t`` iff ``ΔE <= t`` iff ``ceil(ΔE) <= t``, so cumulative
sums of the bins give every count for the 11 tolerances at once
(:func:`counts_from_histograms`).

Implementations: :func:`tolerance_histograms_numba` (parallel Numba CPU, from raw uint8;
consecutive pixels of one colour reuse their Lab, and identical colours give ``ΔE = 0``
without any arithmetic) and :func:`tolerance_histograms_torch` (runs where its tensors are;
accepts precomputed Lab and edit masks for the answer and input).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange
from paintkit.kernels.lab import LINEAR_LUT, lab_of_rgb, srgb_planes_to_lab, srgb_to_lab

NUM_TOLERANCES = 11  # t = 0, 1, ..., 10
NUM_BINS = NUM_TOLERANCES + 1  # ceil(ΔE) = 0..10, and 11 for ΔE > 10
HIST_EDIT, HIST_PRESERVATION, HIST_CHANGED = 0, 1, 2
_MAX_T = np.float32(NUM_TOLERANCES - 1)
_CACHE_SIZE = 1 << 12
_CACHE_MASK = _CACHE_SIZE - 1


@njit(inline="always", cache=True)
def _bin_of(dl, da, db):
    d = math.sqrt(dl * dl + da * da + db * db)
    if d > _MAX_T:
        return NUM_BINS - 1
    return int(math.ceil(d))


@njit(parallel=True, cache=True)
def _histograms_kernel(out, ans, inp, lut, n_chunks, hist, bins, write_bins):
    n_problems, height, width = out.shape[0], out.shape[1], out.shape[2]
    for item in prange(n_problems * n_chunks):
        p = item // n_chunks
        chunk = item % n_chunks
        row0 = chunk * height // n_chunks
        row1 = (chunk + 1) * height // n_chunks
        local = np.zeros((3, NUM_BINS), np.int64)
        # Direct-mapped colour -> Lab cache for the output (noisy outputs repeat colours).
        cache_key = np.full(_CACHE_SIZE, -1, np.int32)
        cache_lab = np.empty((_CACHE_SIZE, 3), np.float32)
        # One-entry caches: last colour seen in O, A, I and its Lab.
        ko = np.int32(-1)
        ka = np.int32(-1)
        ki = np.int32(-1)
        lo0 = lo1 = lo2 = np.float32(0.0)
        la0 = la1 = la2 = np.float32(0.0)
        li0 = li1 = li2 = np.float32(0.0)
        for y in range(row0, row1):
            for x in range(width):
                o_r = np.int32(out[p, y, x, 0])
                o_g = np.int32(out[p, y, x, 1])
                o_b = np.int32(out[p, y, x, 2])
                a_r = np.int32(ans[p, y, x, 0])
                a_g = np.int32(ans[p, y, x, 1])
                a_b = np.int32(ans[p, y, x, 2])
                i_r = np.int32(inp[p, y, x, 0])
                i_g = np.int32(inp[p, y, x, 1])
                i_b = np.int32(inp[p, y, x, 2])
                o = (o_r << 16) | (o_g << 8) | o_b
                a = (a_r << 16) | (a_g << 8) | a_b
                i = (i_r << 16) | (i_g << 8) | i_b
                if (o != a or o != i) and o != ko:
                    ko = o
                    slot = ((np.int64(o) * 2654435761) >> 14) & _CACHE_MASK
                    if cache_key[slot] == o:
                        lo0 = cache_lab[slot, 0]
                        lo1 = cache_lab[slot, 1]
                        lo2 = cache_lab[slot, 2]
                    else:
                        lo0, lo1, lo2 = lab_of_rgb(o_r, o_g, o_b, lut)
                        cache_key[slot] = o
                        cache_lab[slot, 0] = lo0
                        cache_lab[slot, 1] = lo1
                        cache_lab[slot, 2] = lo2
                # Identical colours have identical Lab: ΔE = 0 exactly, no arithmetic.
                bin_oa = 0
                if o != a:
                    if a != ka:
                        la0, la1, la2 = lab_of_rgb(a_r, a_g, a_b, lut)
                        ka = a
                    bin_oa = _bin_of(lo0 - la0, lo1 - la1, lo2 - la2)
                bin_oi = 0
                if o != i:
                    if i != ki:
                        li0, li1, li2 = lab_of_rgb(i_r, i_g, i_b, lut)
                        ki = i
                    bin_oi = _bin_of(lo0 - li0, lo1 - li1, lo2 - li2)
                if a != i:
                    local[0, bin_oa] += 1
                else:
                    local[1, bin_oa] += 1
                local[2, bin_oi] += 1
                if write_bins:
                    bins[p, y, x] = bin_oa
        hist[p, chunk] = local


def _as_batch(name: str, array: np.ndarray) -> np.ndarray:
    if not isinstance(array, np.ndarray) or array.dtype != np.uint8 or array.ndim != 4 \
            or array.shape[-1] != 3:
        got = f"{getattr(array, 'dtype', type(array).__name__)} {getattr(array, 'shape', '')}"
        raise ValueError(f"{name}: expected a uint8 array of shape (B, H, W, 3), got {got}")
    return np.ascontiguousarray(array)


def tolerance_histograms_numba(
    outputs: np.ndarray,
    answers: np.ndarray,
    inputs: np.ndarray,
    *,
    return_bins: bool = False,
    chunks_per_problem: int | None = None,
):
    """Per-problem ``(3, 12)`` ΔE histograms (see module docstring), parallel Numba CPU.

    Args:
        outputs, answers, inputs: uint8 arrays ``(B, H, W, 3)`` of one shape (outputs
            already normalised to the answer size).
        return_bins: also return ``ceil(ΔE(O, A))`` clipped to 11 per pixel, uint8
            ``(B, H, W)`` (for diff images).
        chunks_per_problem: row bands per problem (parallel work items); default splits a
            batch into at least ~4 items per thread.

    Returns:
        int64 ``(B, 3, 12)``, or ``(histograms, bins)`` with ``return_bins``.
    """
    import numba

    outputs = _as_batch("outputs", outputs)
    answers = _as_batch("answers", answers)
    inputs = _as_batch("inputs", inputs)
    if not outputs.shape == answers.shape == inputs.shape:
        raise ValueError(
            "outputs, answers, inputs: expected one shape (B, H, W, 3), got "
            f"{outputs.shape}, {answers.shape}, {inputs.shape}"
        )
    n, height = outputs.shape[0], outputs.shape[1]
    if chunks_per_problem is None:
        threads = numba.get_num_threads()
        chunks_per_problem = max(1, min(height, -(-4 * threads // max(n, 1))))
    chunks = max(1, min(int(chunks_per_problem), max(height, 1)))
    hist = np.zeros((n, chunks, 3, NUM_BINS), np.int64)
    bins = np.zeros(outputs.shape[:3] if return_bins else (1, 1, 1), np.uint8)
    if n and height and outputs.shape[2]:
        _histograms_kernel(outputs, answers, inputs, LINEAR_LUT, chunks, hist, bins,
                           return_bins)
    hist = hist.sum(axis=1)
    return (hist, bins) if return_bins else hist


# --------------------------------------------------------------------------------- torch


def edit_mask_torch(answers, inputs):
    """Edit region ``E`` (SPEC 1.5): bool ``(B, H, W)`` from uint8 ``(B, H, W, 3)`` tensors."""
    return (answers != inputs).any(dim=-1)


def delta_e_bins_torch(lab_a, lab_b):
    """``ceil(ΔE)`` clipped to 11 per pixel, int64 ``(...)`` from planar Lab ``(3, ...)``."""
    d = lab_a[0] - lab_b[0]
    dist = d.mul_(d)
    for c in (1, 2):
        d = lab_a[c] - lab_b[c]
        dist.addcmul_(d, d)
    return dist.sqrt_().ceil_().clamp_(max=NUM_BINS - 1).long()


def tolerance_histograms_torch(
    outputs,
    answers=None,
    inputs=None,
    *,
    lab_answers=None,
    lab_inputs=None,
    edit_mask=None,
    return_bins: bool = False,
    max_pixels_per_step: int = 1 << 23,
):
    """Per-problem ``(3, 12)`` ΔE histograms with torch, on the tensors' device.

    Args:
        outputs: uint8 ``(B, H, W, 3)`` (normalised to the answer size).
        answers, inputs: uint8 ``(B, H, W, 3)``; may be omitted when ``lab_answers``,
            ``lab_inputs`` (float32 ``(B, H, W, 3)``) and ``edit_mask`` (bool ``(B, H, W)``)
            are given — precomputed once and reused for many outputs.
        return_bins: also return ``ceil(ΔE(O, A))`` clipped to 11, uint8 ``(B, H, W)``.
        max_pixels_per_step: problems are processed in groups of at most this many pixels
            (bounds temporary memory; at least one problem per group).

    Returns:
        int64 ``(B, 3, 12)`` on the outputs' device, or ``(histograms, bins)``.
    """
    import torch

    if lab_answers is None:
        lab_answers = srgb_to_lab(answers)
    if lab_inputs is None:
        lab_inputs = srgb_to_lab(inputs)
    if edit_mask is None:
        edit_mask = edit_mask_torch(answers, inputs)
    n, height, width = outputs.shape[:3]
    device = outputs.device
    hist = torch.zeros((n, 3, NUM_BINS), dtype=torch.int64, device=device)
    bins_all = torch.empty((n, height, width), dtype=torch.uint8, device=device) \
        if return_bins else None
    step = max(1, max_pixels_per_step // max(1, height * width))
    for start in range(0, n, step):
        sl = slice(start, min(n, start + step))
        k = sl.stop - sl.start
        lab_out = srgb_planes_to_lab(outputs[sl].movedim(-1, 0))
        bin_oa = delta_e_bins_torch(lab_out, lab_answers[sl].movedim(-1, 0))
        bin_oi = delta_e_bins_torch(lab_out, lab_inputs[sl].movedim(-1, 0))
        if bins_all is not None:
            bins_all[sl] = bin_oa.to(torch.uint8)
        offset = (torch.arange(k, device=device) * (3 * NUM_BINS)).view(k, 1, 1)
        region = torch.where(edit_mask[sl], HIST_EDIT, HIST_PRESERVATION) * NUM_BINS
        index = torch.cat(
            ((bin_oa + region + offset).reshape(-1),
             (bin_oi + HIST_CHANGED * NUM_BINS + offset).reshape(-1))
        )
        hist[sl] = torch.bincount(index, minlength=k * 3 * NUM_BINS).view(k, 3, NUM_BINS)
    return (hist, bins_all) if return_bins else hist


# ------------------------------------------------------------------------- histograms -> counts


def counts_from_histograms(hist):
    """Tolerance counts from ``(B, 3, 12)`` histograms (NumPy array or torch tensor).

    Returns a dict of ``edit_pixels`` ``(B,)``, ``preservation_pixels`` ``(B,)`` and, each
    ``(B, 11)`` for t = 0..10, ``edit_correct`` (CE_t), ``preservation_correct`` (CP_t)
    and ``changed`` (pixels with ``ΔE(O, I) > t``).
    """
    if isinstance(hist, np.ndarray):
        cum = np.cumsum(hist, axis=-1)
    else:
        cum = hist.cumsum(dim=-1)
    edit_pixels = cum[:, HIST_EDIT, -1]
    preservation_pixels = cum[:, HIST_PRESERVATION, -1]
    total = cum[:, HIST_CHANGED, -1]
    return {
        "edit_pixels": edit_pixels,
        "preservation_pixels": preservation_pixels,
        "edit_correct": cum[:, HIST_EDIT, :NUM_TOLERANCES],
        "preservation_correct": cum[:, HIST_PRESERVATION, :NUM_TOLERANCES],
        "changed": total[:, None] - cum[:, HIST_CHANGED, :NUM_TOLERANCES],
    }
