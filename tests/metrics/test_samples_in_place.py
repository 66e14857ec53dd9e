"""A GRPO batch on the CPU (``samples_per_problem = G``): the counting kernel reads each
problem's answer and input in place for its G samples. Repeating them G times cost a
1024x1024 batch of 2 problems x 8 samples 15-25 % of its reward time."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import torch

import paintkit.metrics.counts as histograms
from paintkit.metrics import prepare_targets, reward
from tests.support.metric_images import palette_pair

score_module = importlib.import_module("paintkit.metrics.batch_scoring")


def _group_batch(problems=3, samples=4, seed=0):
    rng = np.random.default_rng(seed)
    pairs = [palette_pair(rng, 12, 10) for _ in range(problems)]
    inputs = np.stack([p[0] for p in pairs])
    answers = np.stack([p[1] for p in pairs])
    noise = rng.integers(-3, 4, (problems * samples, 12, 10, 3))
    outputs = np.clip(np.repeat(answers, samples, axis=0) + noise, 0, 255).astype(np.uint8)
    return outputs, answers, inputs


@pytest.fixture
def kernel_calls(monkeypatch):
    """Each call of the CPU kernel: (outputs, answers, inputs, samples_per_problem)."""
    seen = []
    real = histograms.tolerance_histograms_numba

    def spy(outputs, answers, inputs, **kwargs):
        seen.append((outputs, answers, inputs, kwargs.get("samples_per_problem", 1)))
        return real(outputs, answers, inputs, **kwargs)

    monkeypatch.setattr(histograms, "tolerance_histograms_numba", spy)
    return seen


@pytest.mark.parametrize("kind", ["uint8", "float32"])
def test_the_kernel_reads_each_problem_once_for_its_samples(kernel_calls, monkeypatch, kind):
    outputs, answers, inputs = _group_batch()
    targets = prepare_targets(answers, inputs)
    batch = torch.from_numpy(outputs)
    if kind == "float32":  # converted and counted in chunks of 8 outputs (two whole groups)
        monkeypatch.setattr(score_module, "FLOAT_CHUNK_BYTES", 9 * 12 * 10 * 3)
        batch = batch.float() / 255
    got = reward(batch, targets, samples_per_problem=4)
    assert kernel_calls and all(g == 4 for *_, g in kernel_calls)
    for outs, a, i, _ in kernel_calls:
        assert len(a) * 4 == len(outs)
        assert np.shares_memory(a, targets.numpy_batch()[0])
        assert np.shares_memory(i, targets.numpy_batch()[1])
    wide = prepare_targets(np.repeat(answers, 4, axis=0), np.repeat(inputs, 4, axis=0))
    assert torch.equal(got, reward(batch, wide))


def test_a_group_larger_than_a_chunk_still_counts_against_its_problem(monkeypatch):
    outputs, answers, inputs = _group_batch(problems=2, samples=5)
    monkeypatch.setattr(score_module, "FLOAT_CHUNK_BYTES", 3 * 12 * 10 * 3)  # 3 outputs
    batch = torch.from_numpy(outputs).float() / 255
    got = reward(batch, prepare_targets(answers, inputs), samples_per_problem=5)
    wide = prepare_targets(np.repeat(answers, 5, axis=0), np.repeat(inputs, 5, axis=0))
    assert torch.equal(got, reward(batch, wide))
