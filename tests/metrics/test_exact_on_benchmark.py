"""One number everywhere on real benchmark problems: Numba, torch (eager and through the
public API) and the canonical oracle count the same pixels for noisy and JPEG outputs of
PaintBench problems (docs/metric-definition.md §9)."""

from __future__ import annotations

import io

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.kernels.counting.bins import counts_from_histograms
from paintkit.kernels.counting.cie76_numba import tolerance_histograms_numba
from paintkit.kernels.counting.cie76_torch import tolerance_histograms_torch
from paintkit.metrics import score
from paintkit.sources import generate
from tests.support import metric_oracle as oracle

PROBLEMS = [("point_operations", "baseline", 0), ("flood_fill", "n_high", 1)]


def _outputs(answer: np.ndarray, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    noisy = np.clip(answer.astype(np.int16) + rng.integers(-3, 4, answer.shape), 0, 255)
    buf = io.BytesIO()
    Image.fromarray(answer).save(buf, "JPEG", quality=70)
    return [noisy.astype(np.uint8), np.asarray(Image.open(buf).convert("RGB"))]


@pytest.mark.parametrize(("task", "condition", "slot"), PROBLEMS)
def test_every_backend_counts_like_the_oracle(task, condition, slot):
    problem = generate(task, slot, condition, None)
    answer, inp = problem.answer, problem.input
    outs = np.stack(_outputs(answer, slot))
    answers, inputs = np.stack([answer] * len(outs)), np.stack([inp] * len(outs))
    numba = counts_from_histograms(tolerance_histograms_numba(outs, answers, inputs))
    eager = counts_from_histograms(tolerance_histograms_torch(
        *(torch.from_numpy(x) for x in (outs, answers, inputs))).numpy())
    for backend_counts in (numba, eager):
        for key in ("edit_correct", "preservation_correct", "changed"):
            assert np.array_equal(backend_counts[key], numba[key]), key
    for out in outs:
        expected = oracle.problem_stats(out, answer, inp)
        for backend in ("numba", "torch"):
            got = score(out[None], answer[None], inp[None], backend=backend)[0].to_schema()
            assert got["cie76_threshold"] == expected["cie76_threshold"], backend
    # the noisy output does put pixels next to integer tolerances (where arithmetic matters)
    assert sum(oracle.near_integer_pixels(outs[0], answer, inp)) > 0
