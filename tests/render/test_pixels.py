"""RGBA -> RGB kernel against NumPy slicing."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from paintkit.kernels import pixels
from paintkit.kernels.pixels import rgba_to_rgb


@pytest.mark.parametrize("shape", [(1, 1, 4), (3, 5, 4), (576, 1024, 4)])
def test_matches_slicing(shape):
    rgba = np.random.default_rng(0).integers(0, 256, shape, dtype=np.uint8)
    np.testing.assert_array_equal(rgba_to_rgb(rgba), rgba[..., :3])


def test_writes_into_out():
    rgba = np.random.default_rng(1).integers(0, 256, (7, 9, 4), dtype=np.uint8)
    out = np.zeros((7, 9, 3), np.uint8)
    assert rgba_to_rgb(rgba, out) is out
    np.testing.assert_array_equal(out, rgba[..., :3])


@pytest.mark.parametrize("bad", [np.zeros((4, 4, 3), np.uint8), np.zeros((4, 4, 4), np.float32),
                                 np.zeros((4, 8, 4), np.uint8)[:, ::2], [[1, 2, 3, 4]]])
def test_rejects_bad_input(bad):
    with pytest.raises(ValueError, match=r"\(H, W, 4\)"):
        rgba_to_rgb(bad)


def test_rejects_bad_out():
    with pytest.raises(ValueError, match="out must be"):
        rgba_to_rgb(np.zeros((2, 2, 4), np.uint8), np.zeros((2, 3, 3), np.uint8))


def test_docstring_example():
    assert doctest.testmod(pixels).failed == 0
