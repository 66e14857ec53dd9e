"""Tolerance histograms with CIE94 / CIEDE2000 against a NumPy + scikit-image oracle."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from skimage.color import deltaE_cie76, deltaE_ciede94, deltaE_ciede2000
from test_delta_e import _spec_lab

from paintkit.kernels.delta_e_counts import tolerance_histograms_delta_e
from paintkit.kernels.tolerance_counts import tolerance_histograms_numba

REFERENCE = {"cie76": deltaE_cie76, "cie94": deltaE_ciede94, "ciede2000": deltaE_ciede2000}


def _oracle(formula, o, a, i):
    """Histograms from float64 ΔE per pixel (reference colour first), plus the pixels whose
    ΔE lies within 1e-3 of an integer (where float32 Lab may move a count)."""
    hist = np.zeros((o.shape[0], 3, 12), np.int64)
    ambiguous = 0
    for p in range(o.shape[0]):
        flat = [x[p].reshape(-1, 3) for x in (o, a, i)]
        lab_o, lab_a, lab_i = (_spec_lab(x) for x in flat)
        d_oa = REFERENCE[formula](lab_a, lab_o)
        d_oi = REFERENCE[formula](lab_i, lab_o)
        edit = (flat[1] != flat[2]).any(axis=1)
        # Equal colours differ by 0 (skimage's CIE94 leaves ~1e-6 there by cancellation).
        d_oa[(flat[0] == flat[1]).all(axis=1)] = 0
        d_oi[(flat[0] == flat[2]).all(axis=1)] = 0
        for d in (d_oa, d_oi):
            ambiguous += int(np.sum((np.abs(d - np.round(d)) < 1e-3) & (d > 1e-3)))
        b_oa = np.minimum(np.ceil(d_oa - 1e-9), 11).astype(int)
        b_oi = np.minimum(np.ceil(d_oi - 1e-9), 11).astype(int)
        hist[p, 0] = np.bincount(b_oa[edit], minlength=12)
        hist[p, 1] = np.bincount(b_oa[~edit], minlength=12)
        hist[p, 2] = np.bincount(b_oi, minlength=12)
    return hist, ambiguous


def _batch(rng, n=3, h=17, w=23):
    """Inputs from a few colours, answers editing a block, outputs near the answers (small
    noise, so every bin 0..11 is populated) with some pixels exactly right."""
    palette = rng.integers(0, 256, (4, 3), dtype=np.uint8)
    inputs = palette[rng.integers(0, 4, (n, h, w))]
    answers = inputs.copy()
    answers[:, 4:12, 5:15] = palette[0]
    noise = rng.integers(-6, 7, (n, h, w, 3))
    keep = rng.random((n, h, w)) < 0.4
    outputs = np.clip(answers.astype(int) + noise, 0, 255).astype(np.uint8)
    outputs[keep] = answers[keep]
    return outputs, answers, inputs


@pytest.mark.parametrize("formula", ["cie76", "cie94", "ciede2000"])
def test_histograms_match_the_oracle_on_both_backends(formula):
    o, a, i = _batch(np.random.default_rng(11))
    expected, ambiguous = _oracle(formula, o, a, i)
    got_numba = tolerance_histograms_delta_e(o, a, i, formula)
    got_torch = tolerance_histograms_delta_e(*(torch.from_numpy(x) for x in (o, a, i)), formula)
    for got in (got_numba, got_torch.numpy()):
        assert got.shape == (3, 3, 12)
        assert np.abs(got - expected).sum() <= 2 * ambiguous
        np.testing.assert_array_equal(got.sum(axis=2), expected.sum(axis=2))
    assert expected[:, :, 1:11].sum() > 0  # the noise reaches the middle bins


def test_cie76_agrees_with_the_benchmark_kernel():
    o, a, i = _batch(np.random.default_rng(2))
    np.testing.assert_array_equal(tolerance_histograms_delta_e(o, a, i, "cie76"),
                                  tolerance_histograms_numba(o, a, i))


def test_perfect_output_is_all_in_bin_zero_and_bins_are_returned():
    _, a, i = _batch(np.random.default_rng(4))
    hist, bins = tolerance_histograms_delta_e(a, a, i, "ciede2000", return_bins=True)
    assert hist[:, :2, 1:].sum() == 0 and not bins.any()
    t_hist, t_bins = tolerance_histograms_delta_e(
        *(torch.from_numpy(x) for x in (a, a, i)), "cie94", return_bins=True)
    assert t_hist[:, :2, 1:].sum() == 0 and not t_bins.any()


def test_bad_batches_are_refused():
    o, a, i = _batch(np.random.default_rng(0))
    with pytest.raises(ValueError, match="all NumPy or all torch"):
        tolerance_histograms_delta_e(torch.from_numpy(o), a, i, "cie94")
    with pytest.raises(ValueError, match="one shape"):
        tolerance_histograms_delta_e(o[:, :5], a, i, "cie94")
