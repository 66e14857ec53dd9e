"""Error segments against SciPy's labelling on random masks placed away from the image
corner (segments are computed in the box of the wrong pixels, then placed back)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import ndimage

from paintkit.explainer import error_segments
from paintkit.explainer.footprints import Footprints


def _footprints(index: np.ndarray, n: int) -> Footprints:
    ids = [f"e{k}" for k in range(n)]
    return Footprints(scene=None, ids=ids, index=index, area=None, boxes=None)


def _oracle(edit, correct, answer_fp, input_fp, max_segments):
    wrong = ~correct
    labels, count = ndimage.label(wrong, structure=np.ones((3, 3), int))
    area = np.bincount(labels.ravel(), minlength=count + 1)
    area[0] = 0
    order = np.argsort(-area[1:], kind="stable")[:max_segments] + 1
    segments, spurious = [], []
    for label in range(1, count + 1):
        here = labels == label
        ys, xs = np.nonzero(here)
        edit_pixels = int((here & edit).sum())
        objects = []
        for fp in (answer_fp, input_fp):
            hits = {}
            for k, element_id in enumerate(fp.ids):
                n = int((here & (fp.index == k + 1)).sum())
                if n:
                    hits[element_id] = n
            objects.append(hits)
        is_spurious = edit_pixels == 0 and not objects[0] and not objects[1]
        spurious.append(is_spurious)
        segments.append({"area": int(here.sum()),
                         "bbox": [int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1),
                                  int(ys.max() - ys.min() + 1)],
                         "edit_pixels": edit_pixels,
                         "preservation_pixels": int(here.sum()) - edit_pixels,
                         "answer_objects": objects[0], "input_objects": objects[1],
                         "spurious": is_spurious})
    listed = [segments[label - 1] for label in order.tolist()]
    rest = [label for label in range(1, count + 1) if label not in set(order.tolist())]
    return {"error_pixels": int(area.sum()), "segments": listed,
            "other_segments": {"count": len(rest), "pixels": int(sum(area[r] for r in rest))},
            "spurious": {"segments": int(sum(spurious)),
                         "pixels": int(sum(a for a, s in zip(area[1:], spurious, strict=True) if s))}}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_segments_match_scipy_labelling(seed):
    rng = np.random.default_rng(seed)
    h, w = 90, 120
    wrong = np.zeros((h, w), bool)
    # blobs and specks in a box away from the corner
    wrong[30:80, 40:110] = ndimage.binary_opening(rng.random((50, 70)) < 0.55)
    wrong[33, 41] = wrong[79, 109] = True
    edit = np.zeros((h, w), bool)
    edit[20:60, 10:80] = True
    answer_index = np.zeros((h, w), np.int32)
    answer_index[25:70, 35:75] = 1
    answer_index[50:88, 90:118] = 2
    input_index = np.zeros((h, w), np.int32)
    input_index[60:85, 45:65] = 1
    fps = _footprints(answer_index, 2), _footprints(input_index, 1)
    for max_segments in (3, 100):
        got = error_segments(edit, ~wrong, answer_footprints=fps[0], input_footprints=fps[1],
                             max_segments=max_segments)
        assert got == _oracle(edit, ~wrong, *fps, max_segments)
    empty = error_segments(edit, np.ones((h, w), bool), answer_footprints=fps[0])
    assert empty["segments"] == [] and empty["error_pixels"] == 0
