"""Run-based labelling of a pixel list against the label-image kernel (connected_components)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import paintkit.kernels.run_labels as run_labels_module
from paintkit.kernels.components import connected_components
from paintkit.kernels.run_labels import label_runs


@pytest.mark.parametrize("density", [0.05, 0.3, 0.6, 0.9])
def test_labels_and_numbering_equal_connected_components(density):
    rng = np.random.default_rng(int(density * 100))
    for shape in ((1, 17), (23, 1), (40, 57)):
        mask = rng.random(shape) < density
        mask[rng.integers(0, shape[0]), :] = False  # an empty row splits the runs
        labels, count = connected_components(mask)
        flat = np.flatnonzero(mask)
        got, got_count = label_runs(flat, shape[1])
        assert got_count == count
        np.testing.assert_array_equal(got, labels.reshape(-1)[flat])


def test_corner_contacts_and_u_shapes_merge():
    mask = np.zeros((6, 9), bool)
    mask[0, 0] = mask[1, 1] = True  # diagonal: one component
    mask[0, 4] = mask[0, 8] = True  # a U whose arms meet only at the bottom
    mask[1, 4] = mask[1, 8] = True
    mask[2, 4:9] = True
    mask[4, 2] = mask[5, 3] = mask[5, 0] = True  # a corner, and a run two columns away
    labels, count = connected_components(mask)
    flat = np.flatnonzero(mask)
    got, got_count = label_runs(flat, 9)
    assert got_count == count == 4
    np.testing.assert_array_equal(got, labels.reshape(-1)[flat])


def test_empty_and_bad_input():
    labels, count = label_runs(np.zeros(0, np.int64), 5)
    assert count == 0 and labels.size == 0
    with pytest.raises(ValueError, match="strictly increasing"):
        label_runs(np.array([3, 1]), 5)
    assert doctest.testmod(run_labels_module, raise_on_error=False).failed == 0


def test_boxes_of_pixels_equal_label_boxes():
    from paintkit.kernels.components import label_boxes
    from paintkit.kernels.run_labels import label_boxes_of_pixels

    mask = np.random.default_rng(3).random((31, 44)) < 0.4
    labels, count = connected_components(mask)
    flat = np.flatnonzero(mask)
    got = label_boxes_of_pixels(labels.reshape(-1)[flat], *np.divmod(flat, 44), count)
    for a, b in zip(got, label_boxes(labels, count), strict=True):
        np.testing.assert_array_equal(a, b)
