"""Tolerance histograms with CIE94 / CIEDE2000 against the canonical NumPy oracle
(tests/support/delta_e_oracle.py; more in tests/metrics/test_delta_e_canonical.py)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from paintkit.kernels.counting.cie76_numba import tolerance_histograms_numba
from paintkit.kernels.counting.formulas import tolerance_histograms_delta_e
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


@pytest.mark.parametrize("formula", ["cie76", "cie94", "ciede2000"])
@pytest.mark.parametrize("backend", ["numba", "torch"])
def test_g_samples_per_problem_count_like_repeated_answers(formula, backend):
    """Problem k is the reference of outputs 2k and 2k + 1, read in place (not repeated)."""
    rng = np.random.default_rng(21)
    o, a, i = _batch(rng, n=6)
    a, i = a[:3], i[:3]
    wide = (np.repeat(a, 2, axis=0), np.repeat(i, 2, axis=0))
    arrays = (o, a, i, *wide) if backend == "numba" else \
        tuple(torch.from_numpy(np.ascontiguousarray(x)) for x in (o, a, i, *wide))
    o, a, i, wide_a, wide_i = arrays
    got, bins = tolerance_histograms_delta_e(o, a, i, formula, return_bins=True,
                                             samples_per_problem=2)
    want, want_bins = tolerance_histograms_delta_e(o, wide_a, wide_i, formula, return_bins=True)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    np.testing.assert_array_equal(np.asarray(bins), np.asarray(want_bins))


@pytest.mark.parametrize("kernel", ["benchmark", "formula"])
def test_samples_per_problem_that_does_not_fit_the_shapes_is_refused(kernel):
    o, a, i = _batch(np.random.default_rng(3), n=4)

    def call(o, a, i, samples):
        if kernel == "benchmark":
            return tolerance_histograms_numba(o, a, i, samples_per_problem=samples)
        return tolerance_histograms_delta_e(o, a, i, "cie94", samples_per_problem=samples)

    with pytest.raises(ValueError, match=r"answers and inputs of one shape \(B / 3, H, W, 3\)"):
        call(o, a[:1], i[:1], 3)  # 4 outputs are not 3 samples of 1 problem
    with pytest.raises(ValueError, match=r"got \(4, 17, 23, 3\), \(2, 17, 23, 3\), \(1, 17"):
        call(o, a[:2], i[:1], 2)
    with pytest.raises(ValueError, match="samples_per_problem: expected an int >= 1, got 0"):
        call(o, a, i, 0)
    assert np.asarray(call(o, a[:2], i[:2], 2)).shape == (4, 3, 12)
