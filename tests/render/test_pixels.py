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


def test_distinct_colors_matches_row_unique():
    from paintkit.kernels.pixels import distinct_colors

    rng = np.random.default_rng(3)
    image = rng.integers(0, 4, (33, 17, 3), dtype=np.uint8) * 60
    expected = {tuple(c) for c in np.unique(image.reshape(-1, 3), axis=0).tolist()}
    assert distinct_colors(image) == expected
    with pytest.raises(ValueError, match="uint8"):
        distinct_colors(image.astype(np.int16))
