"""Output normalisation (docs/metric-definition.md §2): nearest-neighbour resize to cover, then centre crop.

When an output's size differs from the answer's, ``scale = max(W_a / W_o, H_a / H_o)``,
``nW = ceil(W_o * scale)``, ``nH = ceil(H_o * scale)``; the output is resized to (nW, nH)
with Pillow's ``NEAREST`` and the centred ``W_a x H_a`` box is kept. Both steps together
are a gather with one source index per output row and column, computed here exactly as
Pillow does (double-precision coordinate stepped by repeated addition, truncated), so the
result is byte-identical to ``Image.resize(..., NEAREST).crop(...)``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange


def pillow_nearest_sources(src: int, dst: int) -> np.ndarray:
    """Source index of each of ``dst`` pixels when Pillow's ``NEAREST`` resizes ``src``
    pixels to ``dst`` along one axis: int64 ``(dst,)``, each in ``[0, src)``.

    >>> pillow_nearest_sources(4, 2).tolist()
    [1, 3]
    """
    # Pillow (Geometry.c, ImagingScaleAffine): xo = a / 2, then xo += a per pixel, with
    # a = src / dst in double; the source index is (int) xo.
    step = src / dst
    coords = np.full(dst, step, dtype=np.float64)
    coords[0] = step * 0.5
    return np.minimum(np.add.accumulate(coords).astype(np.int64), src - 1)


def normalize_indices(
    output_size: tuple[int, int], answer_size: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Source row and column of every normalised pixel, int64 ``(H_a,)`` and ``(W_a,)``.

    Args:
        output_size: ``(W_o, H_o)`` of the model output (both >= 1).
        answer_size: ``(W_a, H_a)`` of the answer.
    """
    w_o, h_o = (int(v) for v in output_size)
    w_a, h_a = (int(v) for v in answer_size)
    if min(w_o, h_o) < 1:
        raise ValueError(f"output_size: expected a non-empty (W, H), got {output_size}")
    scale = max(w_a / w_o, h_a / h_o)
    n_w, n_h = math.ceil(w_o * scale), math.ceil(h_o * scale)
    x0, y0 = (n_w - w_a) // 2, (n_h - h_a) // 2
    xs = pillow_nearest_sources(w_o, n_w)[x0:x0 + w_a]
    ys = pillow_nearest_sources(h_o, n_h)[y0:y0 + h_a]
    return ys, xs


@njit(parallel=True, nogil=True, cache=True)
def _gather_rows_cols(image, ys, xs, out):
    for y in prange(ys.shape[0]):
        src = image[ys[y]]
        for x in range(xs.shape[0]):
            for c in range(image.shape[2]):
                out[y, x, c] = src[xs[x], c]


def normalize_output_numba(image: np.ndarray, answer_size: tuple[int, int]) -> np.ndarray:
    """Normalise a uint8 ``(H_o, W_o, 3)`` output to ``answer_size = (W_a, H_a)``.

    Returns the input itself when the sizes already agree; otherwise a new
    ``(H_a, W_a, 3)`` array, byte-identical to Pillow's resize + crop.
    """
    h_o, w_o = image.shape[:2]
    if (w_o, h_o) == tuple(answer_size):
        return image
    ys, xs = normalize_indices((w_o, h_o), answer_size)
    out = np.empty((len(ys), len(xs), image.shape[2]), image.dtype)
    _gather_rows_cols(np.ascontiguousarray(image), ys, xs, out)
    return out


def normalize_output_torch(images, answer_size: tuple[int, int]):
    """Normalise outputs ``(..., H_o, W_o, 3)`` (any dtype, any device) to ``answer_size``.

    A batch of equally sized outputs is normalised with one gather on its device.
    """
    import torch

    h_o, w_o = images.shape[-3], images.shape[-2]
    if (w_o, h_o) == tuple(answer_size):
        return images
    ys, xs = normalize_indices((w_o, h_o), answer_size)
    ys_t = torch.from_numpy(ys).to(images.device)
    xs_t = torch.from_numpy(xs).to(images.device)
    return images.index_select(-3, ys_t).index_select(-2, xs_t)

