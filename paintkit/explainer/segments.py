"""Segment-level error maps: the docs/metric-definition.md §11 diff image split into connected error segments.

At tolerance ``t`` a pixel is wrong when ``ΔE(O, A) > t`` (red or orange in the diff
image). Wrong pixels that touch (8-connectivity) form one segment. Each segment reports its
area, bounding box ``[x, y, width, height]`` (px), how many of its pixels lie in the edit
region (red) and in the preservation region (orange), and the elements whose footprint it
overlaps in the answer and in the input scene (pixels per element id). A segment with no
edit pixel that overlaps no element is *spurious*: the output changed pixels nobody asked
to change, outside every object.

The largest :data:`MAX_SEGMENTS` segments are listed; the rest are summed up.
"""

from __future__ import annotations

import numpy as np

from paintkit.kernels.run_labels import label_boxes_of_pixels, label_runs

__all__ = ["MAX_SEGMENTS", "error_segments"]

MAX_SEGMENTS = 100


def _overlaps(labels_on, index_on, ids, keep) -> dict:
    """{segment label: {element id: pixels}} from paired labels / footprint indices."""
    inside = (index_on > 0) & keep[labels_on]
    if not inside.any():
        return {}
    stride = len(ids) + 1
    pairs = labels_on[inside].astype(np.int64) * stride + index_on[inside]
    if keep.size * stride <= 4 * pairs.size + (1 << 16):  # few codes: count them directly
        counts = np.bincount(pairs, minlength=0)
        codes = np.flatnonzero(counts)
        counts = counts[codes]
    else:
        codes, counts = np.unique(pairs, return_counts=True)
    out: dict = {}
    for code, count in zip(codes.tolist(), counts.tolist(), strict=True):
        label, k = divmod(code, stride)
        out.setdefault(label, {})[ids[k - 1]] = int(count)
    return out


def error_segments(edit_mask: np.ndarray, correct: np.ndarray, *, answer_footprints=None,
                   input_footprints=None, max_segments: int = MAX_SEGMENTS,
                   wrong_at: np.ndarray | None = None) -> dict:
    """Connected error segments of one problem at one tolerance (module docstring).

    Args:
        edit_mask: bool ``(H, W)``, the edit region ``E``.
        correct: bool ``(H, W)``, ``ΔE(O, A) <= t``.
        answer_footprints, input_footprints: :class:`~paintkit.explainer.footprints.Footprints`
            of the answer and input scenes, or None when the problem has none (then
            segments carry no element overlaps and none is called spurious).
        max_segments: how many of the largest segments to list.
        wrong_at: ``np.flatnonzero(~correct)`` if the caller has it.

    Returns:
        ``{"segments": [...], "other_segments": {"count", "pixels"}, "spurious":
        {"segments", "pixels"}, "error_pixels"}``; each segment ``{"area", "bbox",
        "edit_pixels", "preservation_pixels", "answer_objects", "input_objects",
        "spurious"}``, largest first.
    """

    if edit_mask.shape != correct.shape:
        raise ValueError(f"edit_mask, correct: expected one (H, W) shape, got {edit_mask.shape} "
                         f"and {correct.shape}")
    known = answer_footprints is not None
    # Everything works on the wrong pixels only, listed once in raster order: they are
    # labelled as runs (no label image), and every per-pixel figure is one take over them.
    at = np.flatnonzero(~correct) if wrong_at is None else wrong_at
    width = correct.shape[1]
    on, count = label_runs(at, width)
    rows, cols = np.divmod(at, width)
    area, box = label_boxes_of_pixels(on, rows, cols, count)
    edit_counts = np.bincount(on[np.ravel(edit_mask).take(at)], minlength=count + 1)
    order = np.argsort(-area[1:], kind="stable")[:max_segments] + 1
    keep = np.zeros(count + 1, bool)
    keep[order] = True
    fps = (answer_footprints, input_footprints)
    index_on = [np.ravel(fp.index).take(at) if fp is not None else None for fp in fps]
    answer_hits = _overlaps(on, index_on[0], answer_footprints.ids, keep) if known else {}
    input_hits = _overlaps(on, index_on[1], input_footprints.ids, keep) \
        if input_footprints is not None else {}
    # Spurious is decided for every segment (not only the listed ones).
    touched = np.zeros(count + 1, bool)
    for index in index_on:
        if index is not None:
            touched[on[index > 0]] = True
    spurious = known & (edit_counts == 0) & ~touched
    spurious[0] = False
    segments = []
    for label in order.tolist():
        top, left, bottom, right = box[label].tolist()
        segments.append({
            "area": int(area[label]),
            "bbox": [left, top, right - left + 1, bottom - top + 1],
            "edit_pixels": int(edit_counts[label]),
            "preservation_pixels": int(area[label] - edit_counts[label]),
            "answer_objects": answer_hits.get(label, {}) if known else None,
            "input_objects": input_hits.get(label, {}) if input_footprints is not None
            else None,
            "spurious": bool(spurious[label]),
        })
    rest = ~keep
    rest[0] = False
    return {
        "error_pixels": int(area[1:].sum()),
        "segments": segments,
        "other_segments": {"count": int(rest.sum()), "pixels": int(area[rest].sum())},
        "spurious": {"segments": int(spurious.sum()), "pixels": int(area[spurious].sum())},
    }
