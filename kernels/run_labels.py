"""Connected components of a sparse mask given as its pixels, through runs (Numba, CPU).

Same definition and numbering as :func:`paintkit.kernels.components.connected_components`
(8-connectivity; components numbered 1, 2, ... in the raster order of their first pixel),
but the mask comes as the sorted raster indices of its True pixels and the labels come back
per pixel, in that order: no label image is written or scanned, so the cost follows the
number of pixels and runs, not the image size (error segments of a fair output are few
pixels in a large image).

Algorithm: consecutive indices on one row form a run; a run joins every run of the row
above that overlaps it or touches it by a corner (a two-pointer sweep, union-find whose
root is the smallest run, i.e. the component's first run); roots are numbered in run order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from paintkit.kernels.components import _grow_box, _root  # shared with the label image

__all__ = ["label_boxes_of_pixels", "label_runs"]


@njit(cache=True)
def _label_runs(run_row, run_start, run_end, run_label):
    n = run_row.shape[0]
    parent = np.arange(n)
    above = 0  # first run of the previous row that may still touch the current one
    row_first = 0  # first run of the current row
    for k in range(n):
        if k > 0 and run_row[k] != run_row[k - 1]:
            above = row_first if run_row[k] == run_row[k - 1] + 1 else k
            row_first = k
        if above == row_first:  # no run on the row above
            continue
        # runs of the row above, in order: skip those ending before this run's left corner
        while above < row_first and run_end[above] < run_start[k] - 1:
            above += 1
        m = above
        while m < row_first and run_start[m] <= run_end[k] + 1:
            a, b = _root(parent, m), _root(parent, k)
            if a != b:
                parent[max(a, b)] = min(a, b)
            m += 1
    count = 0
    for k in range(n):
        r = _root(parent, k)
        if r == k:
            count += 1
            run_label[k] = count
        else:
            run_label[k] = run_label[r]
    return count


def label_runs(flat: np.ndarray, width: int) -> tuple[np.ndarray, int]:
    """8-connected components of the pixels at sorted raster indices ``flat`` (int, of an
    image ``width`` px wide).

    Returns:
        ``(labels, count)``: int32 ``(len(flat),)``, each pixel's component 1..count,
        numbered like :func:`~paintkit.kernels.components.connected_components`.

    Example:
        >>> label_runs(np.array([0, 3, 5, 7]), 4)[0].tolist()  # [[1,0,0,2],[0,1,0,2]]
        [1, 2, 1, 2]
    """
    flat = np.asarray(flat, np.int64)
    if flat.ndim != 1 or (flat.size > 1 and not (np.diff(flat) > 0).all()):
        raise ValueError("flat: expected strictly increasing raster indices (N,)")
    if flat.size == 0:
        return np.zeros(0, np.int32), 0
    rows = flat // width
    starts = np.flatnonzero(np.concatenate(([True], (np.diff(flat) != 1) | (np.diff(rows) != 0))))
    ends = np.append(starts[1:], flat.size) - 1
    run_label = np.zeros(starts.size, np.int32)
    count = _label_runs(rows[starts], flat[starts] - rows[starts] * width,
                        flat[ends] - rows[starts] * width, run_label)
    return np.repeat(run_label, ends - starts + 1), int(count)


@njit(cache=True)
def _pixel_boxes(labels, rows, cols, area, box):
    for k in range(labels.shape[0]):
        _grow_box(area, box, labels[k], rows[k], cols[k])


def label_boxes_of_pixels(labels: np.ndarray, rows: np.ndarray, cols: np.ndarray,
                          count: int) -> tuple[np.ndarray, np.ndarray]:
    """Area and box of labels 1..count from labelled pixels (``labels``, ``rows``, ``cols``:
    ``(N,)`` each): the same ``(area, box)`` as
    :func:`~paintkit.kernels.components.label_boxes` of the label image, int64
    ``(count + 1,)`` and ``(count + 1, 4)`` ``(top, left, bottom, right)`` inclusive."""
    labels = np.asarray(labels)
    if not labels.shape == np.shape(rows) == np.shape(cols) or labels.ndim != 1:
        raise ValueError(f"labels, rows, cols: expected three (N,) arrays, got {labels.shape}, "
                         f"{np.shape(rows)}, {np.shape(cols)}")
    area = np.zeros(count + 1, np.int64)
    box = np.zeros((count + 1, 4), np.int64)
    _pixel_boxes(labels, np.asarray(rows, np.int64), np.asarray(cols, np.int64), area, box)
    return area, box
