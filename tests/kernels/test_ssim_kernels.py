"""The Numba SSIM/PSNR helpers against NumPy, Pillow and SciPy's Gaussian window."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image
from scipy.ndimage import gaussian_filter

from paintkit.kernels.ssim import (
    changed_blocks,
    gaussian_window,
    luma,
    luma_pair,
    squared_error_sum,
    ssim_sum,
)


def test_luma_is_pillows_and_sse_is_exact():
    rng = np.random.default_rng(1)
    rgb = rng.integers(0, 256, (33, 47, 3), dtype=np.uint8)
    np.testing.assert_array_equal(luma(rgb), np.asarray(Image.fromarray(rgb).convert("L")))
    other = rng.integers(0, 256, rgb.shape, dtype=np.uint8)
    expected = int(((rgb.astype(np.int64) - other) ** 2).sum())
    assert squared_error_sum(rgb, other) == expected


def test_window_is_scipys_truncated_gaussian():
    impulse = np.zeros(21)
    impulse[10] = 1
    scipy_window = gaussian_filter(impulse, 1.5, truncate=3.5, mode="constant")[5:16]
    np.testing.assert_allclose(gaussian_window(), scipy_window, atol=1e-15)


def test_ssim_sum_of_equal_images_counts_every_position_as_one():
    x = np.random.default_rng(2).integers(0, 256, (40, 30)).astype(np.uint8)
    total, positions = ssim_sum(x, x, 6.5025, 58.5225)
    assert positions == 30 * 20 and total == pytest.approx(positions, abs=1e-9)
    with pytest.raises(ValueError, match="at least 11x11"):
        ssim_sum(x[:5], x[:5], 1.0, 1.0)
    with pytest.raises(ValueError, match="uint8 arrays of one shape"):
        squared_error_sum(x, x[:5])


def _ssim_sum_oracle(x, y, c1, c2):
    """The SSIM map summed, from NumPy float64 window sums (no separable trick, no bands)."""
    win = gaussian_window()
    kernel = np.outer(win, win)
    windows = [np.lib.stride_tricks.sliding_window_view(p, kernel.shape)
               for p in (x, y, x * x, y * y, x * y)]
    mx, my, xx, yy, xy = (np.einsum("ijkl,kl->ij", w, kernel) for w in windows)
    vx, vy, cov = xx - mx * mx, yy - my * my, xy - mx * my
    ssim_map = ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
    return float(ssim_map.sum()), ssim_map.size


@pytest.mark.parametrize("shape", [(11, 11), (40, 30), (300, 157)])  # 300 rows: 3 bands
def test_ssim_sum_matches_a_plain_numpy_oracle(shape):
    rng = np.random.default_rng(shape[0])
    flat = np.full(shape, 90, np.uint8)
    flat[shape[0] // 3:, : shape[1] // 2] = 200
    noisy = np.clip(flat + rng.integers(-3, 4, shape), 0, 255).astype(np.uint8)
    random = rng.integers(0, 256, shape).astype(np.uint8)
    local = flat.copy()  # one small change: most bands and columns are skipped (SSIM 1)
    local[shape[0] // 2, shape[1] // 2] = 7
    edge = flat.copy()  # changes on the first and last columns
    edge[:, 0] = edge[-1, -1] = 3
    for x, y in ((noisy, flat), (random, flat), (random, noisy), (local, flat), (edge, flat),
                 (flat, flat)):
        total, positions = ssim_sum(x, y, 6.5025, 58.5225)
        want, want_positions = _ssim_sum_oracle(x.astype(np.float64), y.astype(np.float64),
                                                6.5025, 58.5225)
        assert positions == want_positions
        assert total == pytest.approx(want, rel=1e-12)
    with pytest.raises(ValueError, match="11 weights"):
        ssim_sum(noisy, flat, 1.0, 1.0, window=np.ones(7) / 7)


def test_luma_pair_is_luma_twice_and_the_changed_blocks():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 256, (30, 141, 3), dtype=np.uint8)
    b = a.copy()
    b[3, 7] = 255 - b[3, 7]
    b[9, 2:140:5, 0] ^= 1  # a red step of 1 can leave the luma unchanged
    b[20:22, 140] = 0
    x, y, blocks = luma_pair(a, b)
    np.testing.assert_array_equal(x, luma(a))
    np.testing.assert_array_equal(y, luma(b))
    differs = np.zeros((30, 192), bool)
    differs[:, :141] = x != y
    np.testing.assert_array_equal(blocks, differs.reshape(30, 3, 64).any(axis=2))
    np.testing.assert_array_equal(changed_blocks(x, y), blocks)
    assert blocks[3].tolist() == [True, False, False] and blocks[20].tolist() == [False] * 2 + [True]
    with pytest.raises(ValueError, match="one shape"):
        luma_pair(a, b[:5])


def test_ssim_sum_skips_only_windows_without_changes():
    """Changes in separate blocks and rows of one band, and on block edges: the boxes
    computed must cover every window that sees one (against the oracle)."""
    rng = np.random.default_rng(9)
    y = rng.integers(0, 256, (150, 330)).astype(np.uint8)
    for spots in ([(5, 63), (120, 64)], [(60, 0), (61, 329), (140, 200)], [(0, 127), (149, 128)]):
        x = y.copy()
        for r, c in spots:
            x[r, c] = 255 - x[r, c]
        total, positions = ssim_sum(x, y, 6.5025, 58.5225)
        want, _ = _ssim_sum_oracle(x.astype(np.float64), y.astype(np.float64), 6.5025, 58.5225)
        assert total == pytest.approx(want, rel=1e-13) and total < positions
    with pytest.raises(ValueError, match="changed_blocks"):
        ssim_sum(x, y, 1.0, 1.0, changed=np.zeros((150, 2), bool))
