"""``PixelEditIoU`` and ``PixelEditIoUAccumulator`` on 2 CPU processes with gloo: ``compute()`` and
``compute_all()`` are synced over the ranks and equal one process scoring every problem."""

import numpy as np
import pytest
import torch

from tests.support.gloo import run_on_gloo
from tests.support.metric_images import palette_pair

pytest.importorskip("torchmetrics")

SHARES = (7, 5)  # unequal: rank 0 scores 7 problems, rank 1 five


def _problems(seed: int, n: int):
    rng = np.random.default_rng(seed)
    pairs = [palette_pair(rng, 12, 16) for _ in range(n)]
    inp = np.stack([p[0] for p in pairs])
    ans = np.stack([p[1] for p in pairs])
    out = ans.copy()
    out[:, :6] = inp[:, :6]  # half the edit done
    return torch.from_numpy(out), torch.from_numpy(ans), torch.from_numpy(inp)


def _as_python(figures: dict) -> dict:
    return {k: v.tolist() if isinstance(v, torch.Tensor) else v for k, v in figures.items()}


def _rank(rank: int, world_size: int) -> dict:
    from paintkit.metrics import PixelEditIoU, PixelEditIoUAccumulator

    batch = _problems(rank, SHARES[rank])
    metric, accumulator = PixelEditIoU(), PixelEditIoUAccumulator()
    metric.update(*batch)
    accumulator.update(*batch)
    value, figures = float(metric.compute()), _as_python(metric.compute_all())
    after = int(metric.problems)  # the local state is restored after the sync
    accumulator.sync()
    return {"compute": value, "compute_all": figures, "local_after": after,
            "accumulator": accumulator.compute()}


def test_compute_and_compute_all_are_synced_over_two_gloo_ranks(tmp_path):
    from paintkit.metrics import PixelEditIoU, PixelEditIoUAccumulator

    ranks = run_on_gloo(_rank, 2, (), tmp_path)
    whole, accumulator = PixelEditIoU(), PixelEditIoUAccumulator()
    for rank, n in enumerate(SHARES):
        whole.update(*_problems(rank, n))
        accumulator.update(*_problems(rank, n))
    expected = _as_python(whole.compute_all())
    assert expected["problems"] == sum(SHARES)
    for rank, got in enumerate(ranks):
        assert got["compute"] == float(whole.compute())
        assert got["compute_all"] == expected
        assert got["local_after"] == SHARES[rank]
        assert got["accumulator"] == accumulator.compute()
