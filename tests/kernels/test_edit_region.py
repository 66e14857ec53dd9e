import numpy as np
import pytest

from paintkit.kernels.edit_region import changed_mask_numba, count_changed


def test_matches_numpy_definition():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 3, (37, 53, 3), dtype=np.uint8)
    b = rng.integers(0, 3, (37, 53, 3), dtype=np.uint8)
    expected = np.any(a != b, axis=-1)
    assert np.array_equal(changed_mask_numba(a, b), expected)
    assert count_changed(a, b) == int(expected.sum())
    assert count_changed(a, a) == 0


def test_bad_input():
    a = np.zeros((4, 4, 3), np.uint8)
    with pytest.raises(ValueError, match="shape"):
        changed_mask_numba(a, np.zeros((4, 5, 3), np.uint8))
    with pytest.raises(ValueError, match="uint8"):
        changed_mask_numba(a.astype(np.float32), a)


def test_sparse_edits_and_non_contiguous_inputs():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 256, (64, 48, 3), dtype=np.uint8)
    b = a.copy()
    b[5, 7, 2] ^= 1
    b[40, 0, 0] ^= 255
    b[63, 47, 1] ^= 3
    expected = np.any(a != b, axis=-1)
    assert np.array_equal(changed_mask_numba(a, b), expected)
    assert count_changed(a, b) == 3
    wide_a = np.repeat(a, 2, axis=1)[:, ::2]
    wide_b = np.repeat(b, 2, axis=1)[:, ::2]
    assert count_changed(wide_a, wide_b) == 3
