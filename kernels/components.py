"""Connected components of a bool mask and per-label areas and boxes (Numba, CPU).

Definition: two True pixels are connected when they touch by an edge or a corner
(8-connectivity); components are numbered 1, 2, ... in the raster order (row by row, left
to right) of their first pixel, 0 elsewhere, as ``scipy.ndimage.label`` numbers them with a
3x3 structure of ones.

Algorithm: one raster pass giving provisional labels, merged with a union-find whose root
is always the smallest label (so the root is the label of the component's first pixel),
then a second pass writing the final numbers. O(H W).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from paintkit.kernels._validate import check_mask

__all__ = ["connected_components", "label_boxes"]


@njit(inline="always", cache=True)
def _root(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def _label8(mask, labels, parent):
    h, w = mask.shape
    n = 0
    for i in range(h):
        for j in range(w):
            if not mask[i, j]:
                continue
            best = 0
            for di, dj in ((-1, -1), (-1, 0), (-1, 1), (0, -1)):
                ni, nj = i + di, j + dj
                if ni < 0 or nj < 0 or nj >= w or labels[ni, nj] == 0:
                    continue
                r = _root(parent, labels[ni, nj])
                if best == 0:
                    best = r
                elif r != best:  # merge: the smaller label stays the root
                    low, high = min(r, best), max(r, best)
                    parent[high] = low
                    best = low
            if best == 0:
                n += 1
                parent[n] = n
                best = n
            labels[i, j] = best
    remap = np.zeros(n + 1, np.int32)
    count = 0
    for i in range(h):
        for j in range(w):
            if labels[i, j] > 0:
                r = _root(parent, labels[i, j])
                if remap[r] == 0:
                    count += 1
                    remap[r] = count
                labels[i, j] = remap[r]
    return count


def connected_components(mask: np.ndarray) -> tuple[np.ndarray, int]:
    """8-connected components of a bool ``(H, W)`` mask.

    Returns:
        ``(labels, count)``: int32 ``(H, W)`` with 0 off the mask and 1..count on it.

    Example:
        >>> m = np.array([[1, 0, 0, 1], [0, 1, 0, 1]], bool)
        >>> connected_components(m)[0].tolist()
        [[1, 0, 0, 2], [0, 1, 0, 2]]
    """
    h, w = check_mask("mask", mask)
    labels = np.zeros((h, w), np.int32)
    parent = np.zeros(h * w // 2 + 2, np.int32)  # at most one provisional label per 2 px
    count = _label8(np.ascontiguousarray(mask), labels, parent)
    return labels, int(count)


@njit(inline="always", cache=True)
def _grow_box(area, box, k, i, j):
    """Count pixel ``(i, j)`` into label ``k``'s area and ``(top, left, bottom, right)`` box."""
    if area[k] == 0:
        box[k, 0], box[k, 1], box[k, 2], box[k, 3] = i, j, i, j
    else:
        box[k, 0] = min(box[k, 0], i)
        box[k, 1] = min(box[k, 1], j)
        box[k, 2] = max(box[k, 2], i)
        box[k, 3] = max(box[k, 3], j)
    area[k] += 1


@njit(cache=True)
def _boxes(labels, count, area, box):
    for i in range(labels.shape[0]):
        for j in range(labels.shape[1]):
            k = labels[i, j]
            if 0 < k <= count:
                _grow_box(area, box, k, i, j)


def label_boxes(labels: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Area and bounding box of labels 1..count of an int ``(H, W)`` label image.

    Returns:
        ``(area, box)``: int64 ``(count + 1,)`` pixels per label (index 0 unused) and int64
        ``(count + 1, 4)`` boxes ``(top, left, bottom, right)``, inclusive, in pixels
        (zeros for labels with no pixel).
    """
    labels = np.ascontiguousarray(labels)
    if labels.ndim != 2 or labels.dtype.kind not in "iu":
        raise ValueError(f"labels: expected an integer (H, W) array, got {labels.dtype} "
                         f"{labels.shape}")
    area = np.zeros(count + 1, np.int64)
    box = np.zeros((count + 1, 4), np.int64)
    _boxes(labels, int(count), area, box)  # compiled per integer dtype: no copy
    return area, box
