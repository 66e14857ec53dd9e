"""pytest-benchmark: metric kernels at 1024x1024 (run: pytest -n 0 bench/ --benchmark-only)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from paintkit.eval.synthetic import model_output, synthetic_problem
from paintkit.metrics import prepare_targets, tolerance_statistics

SIZE, BATCH = 1024, 8


@pytest.fixture(scope="module", params=["flat", "noisy"])
def batch(request):
    rng = np.random.default_rng(0)
    pairs = [synthetic_problem(rng, SIZE, SIZE, n_shapes=12) for _ in range(BATCH)]
    inp = np.stack([p[0] for p in pairs])
    ans = np.stack([p[1] for p in pairs])
    style = "partial" if request.param == "flat" else "noisy"
    out = np.stack([model_output(rng, a, i, style) for a, i in zip(ans, inp, strict=True)])
    return out, ans, inp


def test_numba_batch(benchmark, batch):
    out, ans, inp = batch
    benchmark(tolerance_statistics, out, ans, inp, backend="numba")


def test_torch_cpu_with_reference(benchmark, batch):
    out, ans, inp = batch
    ref = prepare_targets(torch.from_numpy(ans), torch.from_numpy(inp))
    outputs = torch.from_numpy(out)
    benchmark(tolerance_statistics, outputs, ref, backend="torch")
