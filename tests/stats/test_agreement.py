"""Agreement statistics against SciPy where it has them, hand-worked cases where not."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from scipy.stats import kendalltau, spearmanr

import paintkit.stats.agreement as agreement
from paintkit.stats.agreement import (
    agreement_report,
    bootstrap_ci,
    krippendorff_alpha_interval,
    leave_one_out,
    pairwise_accuracy,
    signed_bias,
    spearman,
)

NAN = math.nan
# Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 observers x 12 units.
KRIPPENDORFF_EXAMPLE = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
    [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
]


@pytest.mark.parametrize("seed", range(5))
def test_spearman_matches_scipy_with_ties(seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 6, 60).astype(float)  # many ties
    y = x + rng.normal(0, 2, 60)
    assert spearman(x, y) == pytest.approx(spearmanr(x, y).statistic, abs=1e-12)
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))


@pytest.mark.parametrize("seed", range(5))
def test_pairwise_accuracy_without_ties_is_half_tau_plus_one(seed):
    rng = np.random.default_rng(seed)
    x, y = rng.normal(size=700), rng.normal(size=700)  # > one block of pairs
    y += x
    tau = kendalltau(x, y).statistic
    assert pairwise_accuracy(x, y) == pytest.approx((tau + 1) / 2, abs=1e-12)


def test_pairwise_accuracy_ties_hand_worked():
    # (0,1) tied on both sides -> agree; (0,2), (1,2) ordered alike -> agree
    assert pairwise_accuracy([1, 1, 2], [5, 5, 5.0001]) == 1.0
    # with epsilon_y the ratings all tie: (0,2), (1,2) tied on one side only -> disagree
    assert pairwise_accuracy([1, 1, 2], [5, 5, 5.0001], epsilon_y=0.001) == pytest.approx(1 / 3)
    # one-sided tie: (0,1) x tied, y ordered -> disagree; the other two agree
    assert pairwise_accuracy([1, 1, 2], [1, 2, 3]) == pytest.approx(2 / 3)
    # epsilon on x: 1.0 vs 1.05 becomes a tie, agreeing with the tied ratings
    assert pairwise_accuracy([1.0, 1.05, 3.0], [2, 2, 4], epsilon_x=0.1) == 1.0
    assert pairwise_accuracy([1.0, 1.05, 3.0], [2, 2, 4]) == pytest.approx(2 / 3)
    # copies of one item (groups) form no pair
    assert pairwise_accuracy([1, 1, 2], [3, 4, 5], groups=[0, 0, 1]) == 1.0


def test_krippendorff_published_example_and_edge_cases():
    assert krippendorff_alpha_interval(KRIPPENDORFF_EXAMPLE) == pytest.approx(0.849, abs=5e-4)
    assert krippendorff_alpha_interval([[1, 2, 3], [1, 2, 3]]) == 1.0
    # hand-worked: units (1, 2) and (3, 3): D_o = (2/1 * 1) / 4 = 0.5;
    # values 1, 2, 3, 3: D_e = sum over ordered pairs of squares / (4 * 3) = 22 / 12
    assert krippendorff_alpha_interval([[1, 3], [2, 3]]) == pytest.approx(1 - 0.5 / (22 / 12))
    assert math.isnan(krippendorff_alpha_interval([[1, NAN], [NAN, 2]]))


def test_leave_one_out_hand_worked():
    ratings = np.array([[1, 2, 3], [2, 2, 1], [3, 5, 2], [4, 4, 4.0]])
    # rater 0 vs mean(1, 2) = [2.5, 1.5, 3.5, 4]; rater 1 vs [2, 1.5, 2.5, 4]; rater 2 vs [1.5, 2, 4, 4]
    expected = np.mean([spearman(ratings[:, 0], [2.5, 1.5, 3.5, 4]),
                        spearman(ratings[:, 1], [2, 1.5, 2.5, 4]),
                        spearman(ratings[:, 2], [1.5, 2, 4, 4])])
    assert leave_one_out(spearman, ratings) == pytest.approx(expected)
    metric = np.array([0.1, 0.2, 0.3, 0.4])
    expected_metric = np.mean([spearman(metric, [2.5, 1.5, 3.5, 4]),
                               spearman(metric, [2, 1.5, 2.5, 4]),
                               spearman(metric, [1.5, 2, 4, 4])])
    assert leave_one_out(spearman, ratings, against=metric) == pytest.approx(expected_metric)
    # missing ratings: items without a value on a side drop out of that fold only
    sparse = np.array([[1, 2], [2, NAN], [3, 3], [4, 5.0]])
    assert leave_one_out(spearman, sparse) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="at least 2 raters"):
        leave_one_out(spearman, ratings[:, :1])


def test_signed_bias_and_bootstrap():
    assert signed_bias([3, 4], [1, 1]) == 2.5
    x = np.arange(50.0)
    ci = bootstrap_ci(lambda idx: float(np.mean(x[idx])), 50, resamples=300, seed=1)
    assert ci == bootstrap_ci(lambda idx: float(np.mean(x[idx])), 50, resamples=300, seed=1)
    assert ci[0] < 24.5 < ci[1]
    with pytest.raises(ValueError, match="confidence level"):
        bootstrap_ci(lambda idx: 0.0, 5, level=95)


def test_report_metric_and_raters():
    rng = np.random.default_rng(0)
    truth = rng.uniform(size=40)
    ratings = np.stack([np.round(truth * 4 + rng.normal(0, 0.5, 40)) for _ in range(3)], axis=1)
    ratings[3, 1] = NAN
    report = agreement_report(truth, ratings, resamples=50)
    assert report["n_items"] == 40 and report["n_raters"] == 3
    rho = report["metric_vs_raters"]["spearman"]
    assert rho["ci95_low"] <= rho["value"] <= rho["ci95_high"] and rho["value"] > 0.7
    assert set(report["rater_vs_rater"]) == {"spearman", "pairwise_accuracy",
                                             "krippendorff_alpha"}
    single = agreement_report(truth, ratings[:, 0], resamples=0)
    assert single["rater_vs_rater"] is None
    assert math.isnan(single["metric_vs_raters"]["spearman"]["ci95_low"])
    with pytest.raises(ValueError, match="at least one rating"):
        agreement_report([0.1, 0.2], [[1.0], [NAN]])


def test_docstring_examples_run():
    assert doctest.testmod(agreement, raise_on_error=False).failed == 0
