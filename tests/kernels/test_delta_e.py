"""CIE76 / CIE94 / CIEDE2000 (torch and Numba) against scikit-image and the Sharma pairs."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from skimage.color import deltaE_cie76, deltaE_ciede94, deltaE_ciede2000

from paintkit.kernels.color.delta_e import DELTA_E_FORMULAS, delta_e_rgb_torch, delta_e_torch
from paintkit.kernels.color.delta_e_numba import delta_e_numba, delta_e_rgb_numba
from tests.support.sharma_pairs import SHARMA_PAIRS

SKIMAGE = {
    "cie76": deltaE_cie76,
    "cie94": lambda x, y: deltaE_ciede94(x, y, kL=1, k1=0.045, k2=0.015),
    "ciede2000": deltaE_ciede2000,
}
PAIRS = np.array(SHARMA_PAIRS, np.float64)


def _spec_lab(rgb):
    """SPEC 1.3 sRGB -> Lab in float64, straight from the formulas (skimage's rgb2lab
    rounds the white point differently, ~4e-3 in ΔE)."""
    c = rgb.astype(np.float64) / 255
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = lin @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), (29 / 6) ** 2 / 3 * xyz + 4 / 29)
    return np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], 1)


def _torch(formula, x, y, **kw):
    return delta_e_torch(torch.from_numpy(x), torch.from_numpy(y), formula, **kw).numpy()


def _random_lab(rng, n):
    lab = np.empty((n, 3))
    lab[:, 0] = rng.uniform(0, 100, n)
    lab[:, 1:] = rng.uniform(-128, 128, (n, 2))
    return lab


def _adversarial_lab():
    """Achromatic colours, colours on the a axis either side of the hue cut (b = ±0),
    near-opposite hues, and identical pairs."""
    tiny = (0.0, 1e-9, -1e-9, 1e-4, -1e-4)
    rows = []
    for l1 in (0.0, 50.0, 100.0):
        for a in (-60.0, -2.5, 0.0, 2.5, 60.0):
            for b in tiny + (25.0, -25.0):
                for a2, b2 in ((-a, -b), (a, -b), (a, b), (0.0, 0.0), (b, a)):
                    rows.append((l1, a, b, 100.0 - l1, a2, b2))
    return np.array(rows)


def test_sharma_pairs_published_values_and_skimage():
    expected = PAIRS[:, 6]
    reference = deltaE_ciede2000(PAIRS[:, :3], PAIRS[:, 3:6])
    np.testing.assert_allclose(reference, expected, atol=5e-5)  # our typed table is the paper's
    for got in (_torch("ciede2000", PAIRS[:, :3], PAIRS[:, 3:6]),
                delta_e_numba(PAIRS[:, :3], PAIRS[:, 3:6], "ciede2000")):
        np.testing.assert_allclose(got, expected, atol=5e-5)
        np.testing.assert_allclose(got, reference, rtol=0, atol=1e-10)


def test_ciede2000_is_symmetric_and_hue_wraps_the_short_way():
    swapped = _torch("ciede2000", PAIRS[:, 3:6], PAIRS[:, :3])
    np.testing.assert_allclose(swapped, PAIRS[:, 6], atol=5e-5)
    # Two colours 1 degree either side of the 0/360 hue cut are as close as 1 degree apart.
    c = 30.0
    near_cut = np.array([[50.0, c * np.cos(np.radians(0.5)), c * np.sin(np.radians(0.5))]])
    other = np.array([[50.0, c * np.cos(np.radians(-0.5)), c * np.sin(np.radians(-0.5))]])
    same_side = np.array([[50.0, c * np.cos(np.radians(1.5)), c * np.sin(np.radians(1.5))]])
    across = _torch("ciede2000", near_cut, other)
    beside = _torch("ciede2000", near_cut, same_side)
    np.testing.assert_allclose(across, beside, rtol=0.05)
    assert across[0] < 1.0


def _at_the_hue_cut(x, y):
    """Pairs whose CIEDE2000 hues (a scaled by 1 + G) are within 1e-9 rad of opposite."""
    c = 0.5 * (np.hypot(x[:, 1], x[:, 2]) + np.hypot(y[:, 1], y[:, 2]))
    g1 = 1 + 0.5 * (1 - np.sqrt(c ** 7 / (c ** 7 + 25.0 ** 7)))
    a1p, a2p = x[:, 1] * g1, y[:, 1] * g1
    gap = np.abs(np.abs(np.arctan2(x[:, 2], a1p) - np.arctan2(y[:, 2], a2p)) - np.pi)
    return (gap < 1e-9) & (np.hypot(a1p, x[:, 2]) > 0) & (np.hypot(a2p, y[:, 2]) > 0)


@pytest.mark.parametrize("formula", DELTA_E_FORMULAS)
def test_random_and_adversarial_colours_match_skimage(formula):
    rng = np.random.default_rng(14)
    x = np.concatenate([_random_lab(rng, 4000), _adversarial_lab()[:, :3]])
    y = np.concatenate([_random_lab(rng, 4000), _adversarial_lab()[:, 3:]])
    expected = SKIMAGE[formula](x, y)
    # CIEDE2000 jumps where two hues are opposite: there an ulp of rounding in the hue angles
    # picks the branch, and the canonical arithmetic need not pick libm's (it takes exactly
    # opposite hues as 180 degrees apart, like the paper's pair 10).
    keep = ~_at_the_hue_cut(x, y) if formula == "ciede2000" else slice(None)
    np.testing.assert_allclose(_torch(formula, x, y)[keep], expected[keep], rtol=1e-9, atol=1e-6)
    np.testing.assert_allclose(delta_e_numba(x, y, formula)[keep], expected[keep], rtol=1e-9,
                               atol=1e-6)
    # A perfect pixel must stay in the t = 0 bin: identical colours give exactly 0.
    assert np.all(_torch(formula, x, x) == 0) and np.all(delta_e_numba(x, x, formula) == 0)


@pytest.mark.parametrize("formula", DELTA_E_FORMULAS)
def test_float32_and_planar_batches(formula):
    rng = np.random.default_rng(3)
    x, y = _random_lab(rng, 2 * 5 * 7), _random_lab(rng, 2 * 5 * 7)
    expected = SKIMAGE[formula](x, y).reshape(2, 5, 7)
    planar_x = torch.from_numpy(x.reshape(2, 5, 7, 3)).permute(0, 3, 1, 2).float()
    planar_y = torch.from_numpy(y.reshape(2, 5, 7, 3)).permute(0, 3, 1, 2).float()
    got = delta_e_torch(planar_x, planar_y, formula, channel_dim=1)
    assert got.shape == (2, 5, 7) and got.dtype == torch.float32
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-4, atol=1e-3)
    got_numba = delta_e_numba(x.astype(np.float32), y.astype(np.float32), formula)
    assert got_numba.dtype == np.float32
    np.testing.assert_allclose(got_numba, expected.reshape(-1), rtol=1e-4, atol=1e-3)


def test_cie94_reference_is_the_first_colour():
    ref, sample = np.array([[50.0, 60.0, 0.0]]), np.array([[50.0, 0.0, 0.0]])
    forward, backward = _torch("cie94", ref, sample), _torch("cie94", sample, ref)
    np.testing.assert_allclose(forward, 60.0 / (1 + 0.045 * 60.0))  # hand-worked: ΔC / SC
    np.testing.assert_allclose(backward, 60.0)


@pytest.mark.parametrize("formula", DELTA_E_FORMULAS)
def test_rgb_variants_agree_with_skimage_lab(formula):
    rng = np.random.default_rng(5)
    a = rng.integers(0, 256, (64, 3), dtype=np.uint8)
    b = rng.integers(0, 256, (64, 3), dtype=np.uint8)
    expected = SKIMAGE[formula](_spec_lab(a), _spec_lab(b))
    np.testing.assert_allclose(delta_e_rgb_numba(a, b, formula), expected, rtol=1e-5, atol=1e-3)
    torch_rgb = delta_e_rgb_torch(torch.from_numpy(a), torch.from_numpy(b), formula).numpy()
    np.testing.assert_allclose(torch_rgb, expected, rtol=1e-5, atol=1e-3)


def test_bad_inputs_name_what_was_expected():
    good = torch.zeros(4, 3)
    with pytest.raises(ValueError, match="one of cie76, cie94, ciede2000"):
        delta_e_torch(good, good, "cie2000")
    with pytest.raises(ValueError, match=r"3 Lab channels along dim -1"):
        delta_e_torch(torch.zeros(4, 4), good)
    with pytest.raises(ValueError, match="floating-point"):
        delta_e_torch(torch.zeros(4, 3, dtype=torch.uint8), good)
    with pytest.raises(ValueError, match="one shape"):
        delta_e_numba(np.zeros((4, 3)), np.zeros((5, 3)))
    with pytest.raises(ValueError, match="uint8 array"):
        delta_e_rgb_numba(np.zeros((4, 3)), np.zeros((4, 3)))


def test_docstring_examples_run():
    import doctest

    import paintkit.kernels.color.delta_e as torch_module
    import paintkit.kernels.color.delta_e_numba as numba_module

    for module in (torch_module, numba_module):
        assert doctest.testmod(module, raise_on_error=False).failed == 0


def test_rgb_parallel_path_equals_the_serial_path():
    from paintkit.kernels.color.delta_e_numba import SERIAL_PIXELS

    rng = np.random.default_rng(8)
    a = rng.integers(0, 256, (SERIAL_PIXELS + 5, 3), dtype=np.uint8)
    b = rng.integers(0, 256, (SERIAL_PIXELS + 5, 3), dtype=np.uint8)
    whole = delta_e_rgb_numba(a, b, "ciede2000")
    np.testing.assert_array_equal(whole[:100], delta_e_rgb_numba(a[:100], b[:100], "ciede2000"))


@pytest.mark.parametrize("formula", DELTA_E_FORMULAS)
def test_within_and_count_within_decide_like_delta_e(formula):
    """The tolerance tests (explain's hot path) against ΔE itself, on runs of one colour
    pair (the kernels remember the last pair), exact matches and colours near the limit."""
    from paintkit.kernels.color.delta_e_numba import (
        SERIAL_PIXELS,
        count_within_delta_e_rgb,
        within_delta_e_rgb,
    )

    rng = np.random.default_rng(31)
    n = SERIAL_PIXELS + 4099  # the parallel path, several work items
    ref = rng.integers(0, 256, (n, 3), dtype=np.uint8)
    sample = np.clip(ref.astype(np.int16) + rng.integers(-6, 7, (n, 3)), 0, 255).astype(np.uint8)
    ref[:500], sample[:500] = ref[0], sample[0]  # a run of one pair...
    sample[200:260] = ref[0]  # ... broken by equal colours
    sample[300:302] = ref[0] + 1
    for limit in (0, 3, 5, 10):
        expected = delta_e_rgb_numba(ref, sample, formula) <= limit
        np.testing.assert_array_equal(within_delta_e_rgb(ref, sample, limit, formula),
                                      expected)
        np.testing.assert_array_equal(within_delta_e_rgb(ref[:300], sample[:300], limit,
                                                               formula), expected[:300])
        one = delta_e_rgb_numba(np.broadcast_to(ref[3], sample.shape), sample, formula) <= limit
        np.testing.assert_array_equal(within_delta_e_rgb(ref[3], sample, limit, formula),
                                      one)
        images = ref[:200 * 300].reshape(200, 300, 3), sample[:200 * 300].reshape(200, 300, 3)
        mask = rng.random((200, 300)) < 0.6
        inside = (slice(7, 180), slice(11, 290))  # views, not copies
        want = int((expected[:200 * 300].reshape(200, 300) & mask)[inside].sum())
        assert count_within_delta_e_rgb(images[0][inside], images[1][inside],
                                              mask[inside], limit, formula) == want
    with pytest.raises(ValueError, match="bool"):
        count_within_delta_e_rgb(images[0], images[1], mask.astype(np.uint8), 5)
