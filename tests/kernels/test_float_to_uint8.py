"""``float_to_uint8``: the metric's ``round(x * 255)`` (half to even) of float32 outputs, with
values outside [0, 1] and NaN counted and written as 0 (docs/metric-definition.md §2),
against NumPy's ``rint`` as the oracle."""

import numpy as np
import pytest

from paintkit.kernels.pixels import float_to_uint8


def oracle(src: np.ndarray) -> tuple[np.ndarray, int]:
    inside = (src >= 0) & (src <= 1)
    out = np.where(inside, np.rint(np.where(inside, src, 0) * np.float32(255.0)), 0)
    return out.astype(np.uint8), int(np.count_nonzero(~inside))


def _near_ties() -> np.ndarray:
    """float32 x whose x * 255 lies within a few ulps of every k + 0.5 (the rounding ties),
    and of every integer."""
    values = []
    for k in range(256):
        for target in (k - 0.5, k, k + 0.5):
            x = np.float32(target / 255.0)
            for _ in range(4):
                x = np.nextafter(x, np.float32(-1))
            for _ in range(9):
                values.append(x)
                x = np.nextafter(x, np.float32(2))
    return np.array(values, np.float32)


def test_rounding_ties_and_integers_match_rint():
    src = _near_ties()
    got, bad = float_to_uint8(src)
    want, want_bad = oracle(src)
    np.testing.assert_array_equal(got, want)
    assert bad == want_bad


@pytest.mark.parametrize("shape", [(1,), (7, 5, 3), (2, 64, 48, 3)])
def test_random_values_with_bad_ones(shape):
    rng = np.random.default_rng(sum(shape))
    src = rng.uniform(-0.25, 1.25, size=shape).astype(np.float32)
    flat = src.reshape(-1)
    flat[::7] = np.nan
    flat[1::11] = np.inf
    flat[2::13] = -np.inf
    flat[3::5] = np.float32(1.0)
    got, bad = float_to_uint8(src)
    want, want_bad = oracle(src)
    np.testing.assert_array_equal(got, want)
    assert bad == want_bad and got.shape == src.shape


@pytest.mark.slow
def test_every_float32_in_the_unit_interval():
    top = np.float32(1.0).view(np.uint32).item() + 1
    chunk = 1 << 24
    for start in range(0, top, chunk):
        x = np.arange(start, min(top, start + chunk), dtype=np.uint32).view(np.float32)
        got, bad = float_to_uint8(x)
        assert bad == 0
        np.testing.assert_array_equal(got, np.rint(x * np.float32(255.0)).astype(np.uint8))
