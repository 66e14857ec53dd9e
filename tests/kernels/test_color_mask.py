"""color_mask against the pixel-by-pixel oracle."""

from __future__ import annotations

import numpy as np
import oracles
import pytest

from paintkit.kernels.color_mask import color_mask


@pytest.mark.parametrize("seed", range(6))
def test_matches_oracle_on_few_colour_images(seed):
    rng = np.random.default_rng(seed)
    palette = rng.integers(0, 256, (5, 3), dtype=np.uint8)
    # Near misses too: colours one channel off a listed one must not match.
    near = palette.copy()
    near[:, seed % 3] ^= 1
    image = np.concatenate([palette, near])[rng.integers(0, 10, (17, 23))]
    colors = [tuple(int(v) for v in c) for c in palette[: seed % 4 + 1]]
    got = color_mask(image, colors)
    assert got.dtype == bool and got.shape == (17, 23)
    np.testing.assert_array_equal(got, oracles.color_mask(image, colors))
    assert got.any() and not got.all()


def test_any_leading_shape_and_no_colours():
    image = np.zeros((4, 3), np.uint8)
    image[1] = (255, 255, 255)
    assert color_mask(image, [(255, 255, 255)]).tolist() == [False, True, False, False]
    assert not color_mask(np.zeros((2, 2, 3), np.uint8), []).any()


def test_channel_order_matters():
    image = np.array([[[1, 2, 3], [3, 2, 1]]], np.uint8)
    assert color_mask(image, [(1, 2, 3)]).tolist() == [[True, False]]


@pytest.mark.parametrize("image, colors, message", [
    (np.zeros((2, 2, 4), np.uint8), [(0, 0, 0)], r"uint8 array of shape \(\.\.\., 3\), got ndarray uint8"),
    (np.zeros((2, 2, 3), np.float32), [(0, 0, 0)], r"shape \(\.\.\., 3\), got ndarray float32"),
    (np.zeros((2, 2, 3), np.uint8), [(0, 0, 256)], r"triples of ints in \[0, 255\], got \(0, 0, 256\)"),
    (np.zeros((2, 2, 3), np.uint8), [(0, 0)], r"triples .* got \(0, 0\)"),
])
def test_bad_input_names_what_was_expected(image, colors, message):
    with pytest.raises(ValueError, match=message):
        color_mask(image, colors)
