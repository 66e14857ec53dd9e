"""Tolerance histograms with CIE94 / CIEDE2000 against the canonical NumPy oracle
(tests/support/delta_e_oracle.py; more in tests/metrics/test_delta_e_canonical.py)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from paintkit.kernels.delta_e_counts import tolerance_histograms_delta_e
from paintkit.kernels.tolerance_counts import tolerance_histograms_numba
from tests.support import delta_e_oracle
from tests.support.metric_oracle import lab


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
    expected = delta_e_oracle.histograms(formula, o, a, i, lab)
    got_numba = tolerance_histograms_delta_e(o, a, i, formula)
    got_torch = tolerance_histograms_delta_e(*(torch.from_numpy(x) for x in (o, a, i)), formula)
    for got in (got_numba, got_torch.numpy()):
        assert got.shape == (3, 3, 12)
        np.testing.assert_array_equal(got, expected)  # exact on both backends
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
