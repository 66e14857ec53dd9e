"""Border: brute-force distances on a crop around the target: every recolored pixel is a
background pixel within the stated distance of the target, and every such pixel was
recolored; the instruction names one shape and states the distance."""

import re

import numpy as np
import pytest
from structural_checks import color_mask, problems, shapes_named

from paintkit.renderers import render_mask
from paintkit.tasks import task_module


def _min_sq_distance(points, targets):
    """Min squared distance from each of ``points`` (N, 2) to ``targets`` (M, 2), exact ints."""
    out = np.empty(len(points), np.int64)
    for i in range(0, len(points), 2048):
        chunk = points[i:i + 2048, None, :] - targets[None, :, :]
        out[i:i + 2048] = (chunk ** 2).sum(axis=-1).min(axis=1)
    return out


def _edge_pixels(mask):
    """Target pixels with a non-target 4-neighbour (the nearest target pixel to any outside
    pixel is always one of them)."""
    padded = np.pad(mask, 1)
    interior = padded[:-2, 1:-1] & padded[2:, 1:-1] & padded[1:-1, :-2] & padded[1:-1, 2:]
    return mask & ~interior


@pytest.mark.parametrize("condition", ["baseline", "vertical", "striped", "n_high"])
def test_border_is_exactly_the_near_background(condition):
    for p, scene in problems("border", None, (condition,), slots=(0, 1)):
        prm = p.metadata["params"]
        d = prm["distance"]
        assert 0.02 * scene.canvas.width <= d <= 0.04 * scene.canvas.width
        assert f"within {d} pixels" in p.instruction
        target_id = p.metadata["targets"][0]
        mask = render_mask(scene, target_id)
        rows, cols = np.nonzero(mask)
        top, left = max(0, rows.min() - d - 2), max(0, cols.min() - d - 2)
        bottom, right = rows.max() + d + 3, cols.max() + d + 3
        changed = np.any(p.input != p.answer, axis=-1)
        # Nothing changes outside the crop (no pixel there can be within d).
        outside = np.ones_like(changed)
        outside[top:bottom, left:right] = False
        assert not changed[outside].any()
        crop = (slice(top, bottom), slice(left, right))
        background = color_mask(p.input[crop], scene.background.colors)
        edge = np.argwhere(_edge_pixels(mask[crop]))
        candidates = np.argwhere(~mask[crop])
        near = np.zeros(background.shape, bool)
        near[tuple(candidates.T)] = _min_sq_distance(candidates, edge) <= d * d
        assert np.array_equal(changed[crop], near & background)
        assert (p.answer[crop][changed[crop]] == np.asarray(prm["color"], np.uint8)).all()


def test_target_phrase_names_one_shape():
    for p, scene in problems("border", None, ("baseline", "n_xhigh"), slots=range(4)):
        phrase = re.search(r"border around (the [^:]+):", p.instruction).group(1)
        named = shapes_named(phrase, scene)
        assert [s.id for s in named] == p.metadata["targets"]
        assert tuple(p.metadata["params"]["color"]) != named[0].fill


def test_single_mode():
    with pytest.raises(ValueError, match="allowed: default"):
        task_module("border").generate(0, "baseline", "thick")
