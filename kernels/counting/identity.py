"""What the "do nothing" output scores: edit pixels and ΔE(I, A) bins in one pass.

A generator rejects a problem whose unchanged input, scored as a model output, would
already do well (docs/metric-definition.md §5-6). With the output equal to the input, every
preservation pixel scores ΔE = 0 and ``ΔE(O, I)`` is 0 everywhere, so the only figures left
are the size of the edit region ``E`` (pixels where ``I != A``) and the histogram of
``min(ceil(ΔE(I, A)), 11)`` over ``E``: 12 bins, the edit row of the metric's ``(3, 12)``
histogram.

:func:`identity_counts` computes both in one pass over the two images, without the full
metric kernel: rows where input and answer agree are skipped by a vectorised OR of XORs,
and the ΔE of an edit pixel is computed once per distinct ``(input colour, answer colour)``
pair (benchmark edit regions hold a handful of pairs: flat shapes, no anti-aliasing), with
the metric's *canonical* arithmetic (:func:`~paintkit.kernels.color.lab_canonical.lab_of_rgb_canonical`,
then ``sqrt((dL² + da²) + db²)`` in float32), so the bins are exactly the metric's. Images
with many distinct pairs (photographs, noise) go through
:func:`~paintkit.kernels.counting.cie76_numba.tolerance_histograms_numba` instead, whose
counts are the same canonical ones.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from paintkit.kernels.color.lab_canonical import lab_of_rgb_canonical
from paintkit.kernels.counting.bins import HIST_EDIT, NUM_BINS
from paintkit.kernels.counting.cie76_numba import tolerance_histograms_numba
from paintkit.kernels.read_only import read_only

__all__ = ["identity_counts"]

_TABLE_BITS = 12  # 4096 cached pairs; the table stops taking new pairs when half full
_TABLE_SIZE = 1 << _TABLE_BITS
_MAX_PAIRS = 4096  # distinct pairs computed before handing over to the metric kernel
_GOLDEN = np.int64(0x9E3779B97F4A7C15 - (1 << 64))  # Fibonacci hashing multiplier


@njit(inline="always", cache=True)
def _canonical_bin(i_code, a_code):
    """``min(ceil(ΔE), 11)`` of two colour codes ``r << 16 | g << 8 | b`` (canonical)."""
    li = lab_of_rgb_canonical(i_code >> 16, (i_code >> 8) & 255, i_code & 255)
    la = lab_of_rgb_canonical(a_code >> 16, (a_code >> 8) & 255, a_code & 255)
    d0 = li[0] - la[0]
    d1 = li[1] - la[1]
    d2 = li[2] - la[2]
    d = np.sqrt((d0 * d0 + d1 * d1) + d2 * d2)
    return np.int64(min(np.ceil(d), np.float32(NUM_BINS - 1)))


@njit(cache=True, nogil=True)
def _identity_kernel(inp, ans, words_i, words_a, hist):
    """Fill ``hist`` (int64 ``(12,)``) and return the edit pixel count, or -1 when more than
    ``_MAX_PAIRS`` distinct pairs turned up (``hist`` is then incomplete). ``words_i`` and
    ``words_a`` are the images' rows as uint64 ``(H, 3 W / 8)`` (``(H, 0)`` when ``W`` is
    not a multiple of 8): inside a row that differs, 8 pixels are compared as 3 words."""
    height, width = inp.shape[0], inp.shape[1]
    n_words = words_i.shape[1]
    flat_i = inp.reshape(height, width * 3)
    flat_a = ans.reshape(height, width * 3)
    keys = np.zeros(_TABLE_SIZE, np.int64)  # 0: empty (an edit pair never codes to 0)
    vals = np.zeros(_TABLE_SIZE, np.int64)
    stored = 0
    pairs = 0
    edit = 0
    for y in range(height):
        acc = np.uint8(0)
        row_i = flat_i[y]
        row_a = flat_a[y]
        for k in range(width * 3):
            acc |= row_i[k] ^ row_a[k]
        if acc == 0:
            continue
        last_key = np.int64(0)
        last_bin = np.int64(0)
        x = 0
        while x < width:
            if (x & 7) == 0 and x + 8 <= n_words * 8 // 3:  # 8 pixels = 3 words agree?
                w = 3 * (x >> 3)
                if ((words_i[y, w] ^ words_a[y, w]) | (words_i[y, w + 1] ^ words_a[y, w + 1])
                        | (words_i[y, w + 2] ^ words_a[y, w + 2])) == 0:
                    x += 8
                    continue
            ir, ig, ib = inp[y, x, 0], inp[y, x, 1], inp[y, x, 2]
            ar, ag, ab = ans[y, x, 0], ans[y, x, 1], ans[y, x, 2]
            x += 1
            if ir == ar and ig == ag and ib == ab:
                continue
            edit += 1
            i_code = (np.int64(ir) << 16) | (np.int64(ig) << 8) | np.int64(ib)
            a_code = (np.int64(ar) << 16) | (np.int64(ag) << 8) | np.int64(ab)
            key = (i_code << 24) | a_code
            if key != last_key:
                slot = (key * _GOLDEN) >> (64 - _TABLE_BITS)
                slot &= _TABLE_SIZE - 1
                while keys[slot] != 0 and keys[slot] != key:
                    slot = (slot + 1) & (_TABLE_SIZE - 1)
                if keys[slot] == key:
                    last_bin = vals[slot]
                else:
                    pairs += 1
                    if pairs > _MAX_PAIRS:
                        return -1
                    last_bin = _canonical_bin(i_code, a_code)
                    if 2 * stored < _TABLE_SIZE:
                        keys[slot] = key
                        vals[slot] = last_bin
                        stored += 1
                last_key = key
            hist[last_bin] += 1
    return edit


def identity_counts(input_pixels: np.ndarray, answer_pixels: np.ndarray) -> tuple[int, np.ndarray]:
    """Edit pixels and the ΔE(I, A) bins over them: what the unchanged input scores.

    Args:
        input_pixels, answer_pixels: uint8 ``(H, W, 3)`` of one shape.

    Returns:
        ``(edit_pixels, hist)``: the count of pixels where the images differ and int64
        ``(12,)``, the count of edit pixels with ``min(ceil(ΔE(I, A)), 11) == k`` (the
        edit row of :func:`~paintkit.kernels.counting.cie76_numba.tolerance_histograms_numba`
        for output = input, bit for bit).
    """
    for name, arr in (("input_pixels", input_pixels), ("answer_pixels", answer_pixels)):
        if not isinstance(arr, np.ndarray) or arr.dtype != np.uint8 or arr.ndim != 3 \
                or arr.shape[-1] != 3:
            got = f"{getattr(arr, 'dtype', type(arr).__name__)} {getattr(arr, 'shape', '')}"
            raise ValueError(f"{name}: expected a uint8 array of shape (H, W, 3), got {got}")
    if input_pixels.shape != answer_pixels.shape:
        raise ValueError(f"answer_pixels must have the shape of input_pixels "
                         f"{input_pixels.shape}, got {answer_pixels.shape}")
    inp = read_only(np.ascontiguousarray(input_pixels))
    ans = read_only(np.ascontiguousarray(answer_pixels))
    hist = np.zeros(NUM_BINS, np.int64)
    height, width = inp.shape[0], inp.shape[1]
    if width % 8 == 0:
        words_i = inp.reshape(height, width * 3).view(np.uint64)
        words_a = ans.reshape(height, width * 3).view(np.uint64)
    else:
        words_i = words_a = read_only(np.zeros((height, 0), np.uint64))  # as the views are
    edit = int(_identity_kernel(inp, ans, words_i, words_a, hist)) if inp.size else 0
    if edit >= 0:
        return edit, hist
    # Many distinct colour pairs: the metric kernel (vectorised Lab) is faster; one thread,
    # since generation already runs one problem per process.
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        full = tolerance_histograms_numba(inp[None], ans[None], inp[None], chunks_per_problem=1)
    finally:
        numba.set_num_threads(threads)
    hist = full[0, HIST_EDIT].copy()
    return int(hist.sum()), hist
