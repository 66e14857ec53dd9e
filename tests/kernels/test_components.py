"""Connected components (8-connectivity) against scipy.ndimage.label."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from scipy import ndimage

import paintkit.kernels.components as components
from paintkit.kernels.components import connected_components, label_boxes

EIGHT = np.ones((3, 3), bool)


@pytest.mark.parametrize("density", [0.1, 0.45, 0.6, 0.9])
def test_labels_match_scipy_on_random_masks(density):
    rng = np.random.default_rng(int(density * 100))
    mask = rng.random((67, 91)) < density
    labels, count = connected_components(mask)
    expected, expected_count = ndimage.label(mask, structure=EIGHT)
    assert count == expected_count
    np.testing.assert_array_equal(labels, expected)


def test_adversarial_shapes():
    # a U joined only at the bottom, a spiral-like merge, diagonal chains, a checkerboard
    u = np.zeros((6, 7), bool)
    u[:, 0] = u[:, 6] = u[5, :] = True
    diagonal = np.eye(9, dtype=bool) | np.fliplr(np.eye(9, dtype=bool))
    checker = (np.indices((8, 8)).sum(axis=0) % 2).astype(bool)
    for mask in (u, diagonal, checker, np.zeros((3, 3), bool), np.ones((1, 5), bool)):
        labels, count = connected_components(mask)
        expected, expected_count = ndimage.label(mask, structure=EIGHT)
        assert count == expected_count
        np.testing.assert_array_equal(labels, expected)


def test_boxes_and_areas():
    mask = np.zeros((10, 12), bool)
    mask[2:5, 3:9] = True
    mask[7, 1] = True
    labels, count = connected_components(mask)
    area, box = label_boxes(labels, count)
    assert area.tolist() == [0, 18, 1]
    assert box[1].tolist() == [2, 3, 4, 8] and box[2].tolist() == [7, 1, 7, 1]
    with pytest.raises(ValueError, match="integer"):
        label_boxes(labels.astype(float), count)
    with pytest.raises(ValueError, match="bool array"):
        connected_components(labels)


def test_docstring_examples_run():
    assert doctest.testmod(components, raise_on_error=False).failed == 0
