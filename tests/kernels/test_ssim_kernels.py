"""The Numba SSIM/PSNR helpers against NumPy, Pillow and SciPy's Gaussian window."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image
from scipy.ndimage import gaussian_filter

from paintkit.kernels.ssim import (
    gaussian_window,
    luma,
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
