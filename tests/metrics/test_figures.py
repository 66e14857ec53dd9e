"""The compute step (counts -> figures) is one function: same bits on NumPy and torch, and
the oracle's rules (docs/metric-definition.md §6-8, §10)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from paintkit.metrics import score
from paintkit.metrics.compute_step import mean_over_tolerances, tolerance_figures
from paintkit.metrics.statistics import ToleranceStatistics
from tests.support import metric_oracle as oracle


def _random_counts(rng, n=200):
    e = rng.integers(0, 50, n)
    p = rng.integers(0, 50, n)
    e[:3], p[:3] = 0, [0, 7, 0]  # empty regions
    p[3] = 0
    ce = np.sort(rng.integers(0, 51, (n, 11)), axis=1) % (e[:, None] + 1)
    cp = np.sort(rng.integers(0, 51, (n, 11)), axis=1) % (p[:, None] + 1)
    ch = rng.integers(0, 100, (n, 11))
    has = rng.random(n) > 0.2
    ce, cp, ch = (x * has[:, None] for x in (ce, cp, ch))
    return e, p, ce, cp, ch, has


def test_numpy_and_torch_give_the_same_bits(rng):
    counts = _random_counts(rng)
    ours = tolerance_figures(*counts)
    theirs = tolerance_figures(*(torch.from_numpy(np.asarray(x)) for x in counts))
    for key, value in ours.items():
        assert np.array_equal(value.view(np.uint64), theirs[key].numpy().view(np.uint64)), key


@pytest.mark.parametrize("dtype", [None, torch.float64, torch.float32, torch.float16])
def test_cpu_statistics_figures_are_torch_s_bits_in_every_dtype(rng, dtype):
    """On the CPU ``ToleranceStatistics.figures`` runs on NumPy views (a reward per image
    paid ~100 µs of torch's per-operation overhead): the bits of the torch operations, as
    tensors of the asked dtype; a dtype NumPy does not mirror here stays in torch."""
    counts = [torch.from_numpy(np.asarray(x)) for x in _random_counts(rng)]
    stats = ToleranceStatistics(*counts)
    got = stats.figures(dtype)
    want = tolerance_figures(*counts, dtype)
    assert got.keys() == want.keys()
    for key, value in want.items():
        assert isinstance(got[key], torch.Tensor) and got[key].dtype == value.dtype, key
        assert torch.equal(got[key].view(torch.uint8), value.view(torch.uint8)), key


def test_the_rules_of_the_definition(rng):
    e, p, ce, cp, ch, has = _random_counts(rng)
    f = tolerance_figures(e, p, ce, cp, ch, has)
    for k in range(len(e)):
        for t in range(11):
            acc_e = (ce[k, t] / e[k] if e[k] else 1.0) if has[k] else 0.0
            acc_p = (cp[k, t] / p[k] if p[k] else 1.0) if has[k] else 0.0
            den = e[k] + p[k] - cp[k, t]
            assert f["edit_accuracy"][k, t] == acc_e
            assert f["preservation_accuracy"][k, t] == acc_p
            assert f["iou"][k, t] == (ce[k, t] / den if den else 1.0)
        total = 0.0
        for t in range(11):
            total += f["iou"][k, t]
        assert f["miou"][k] == total / 11
        assert np.isnan(f["over_edit_ratio"][k]) if e[k] == 0 else \
            f["over_edit_ratio"][k] == ch[k, 5] / e[k]


def test_mean_over_tolerances_sums_in_order():
    """A pairwise or compensated sum would give other bits on these values."""
    values = np.array([[1e16] + [1.0] * 10, [0.1] * 11])
    for row, mean in zip(values, mean_over_tolerances(values), strict=True):
        total = row[0]
        for v in row[1:]:
            total = total + v
        assert mean == total / 11
    assert mean_over_tolerances(torch.from_numpy(values)).tolist() == \
        mean_over_tolerances(values).tolist()


def test_scores_carry_the_oracle_figures(rng):
    answers = rng.integers(0, 256, (3, 12, 16, 3), dtype=np.uint8)
    inputs = answers.copy()
    inputs[:, 2:8, 3:9] = 0
    outputs = np.clip(answers.astype(int) + rng.integers(-4, 5, answers.shape), 0, 255)
    outputs = outputs.astype(np.uint8)
    for backend in ("numba", "torch"):
        for k, result in enumerate(score(outputs, answers, inputs, backend=backend)):
            expected = oracle.problem_stats(outputs[k], answers[k], inputs[k])
            assert result.to_schema()["cie76_threshold"] == expected["cie76_threshold"]
            assert result.miou == result.to_schema()["cie76_mean"]["iou"]
