"""Every reward from the service equals ``paintkit.reward`` in-process, bit for bit, through
each client: perfect, unchanged, noisy and JPEG-damaged outputs, several tasks and sizes.

The default run checks 8 problems at 512x512; the slow one 200 (100 at 512x512, 100 at
1024x1024, 800 rewards per client)."""

from __future__ import annotations

import asyncio
import functools

import numpy as np
import pytest
import torch

from paintkit.metrics import reward
from paintkit.rewards import remote
from paintkit.rewards.client import RewardClient
from paintkit.suites import build_problem
from paintkit.suites.suite import Suite
from tests.serve.conftest import outputs_of

TASKS = ("translation", "rotation", "scaling", "recolor", "flood_fill", "gradient", "removal",
         "point_operations", "border", "counting")


def _problems(size: int, count: int):
    conditions = ("baseline", "n_med", "striped", "nonstandard", "horizontal")
    per_cell = max(1, count // (len(TASKS) * len(conditions)))
    suite = Suite(tasks=TASKS, conditions=conditions, per_cell=per_cell, size=(size, size),
                  preservation=False, namespace="serve_equal")
    step = max(1, len(suite) // count)
    return [build_problem(suite, suite.spec(i)) for i in range(0, len(suite), step)][:count]


def _check_every_client(url, problems):
    outputs = [outputs_of(p, seed) for seed, p in enumerate(problems)]
    expected = [reward(np.stack(outs), [p.answer] * 4, [p.input] * 4).numpy()
                for p, outs in zip(problems, outputs, strict=True)]
    ids = [p.metadata["problem_id"] for p in problems]
    for encoding in ("raw", "png"):
        for batch in ("binary", "json"):
            with RewardClient(url, encoding=encoding, batch=batch) as client:
                for pid, outs, want in zip(ids, outputs, expected, strict=True):
                    assert client.score(outs, [pid] * 4).tobytes() == want.tobytes(), \
                        (encoding, batch, pid)
                    assert client.score_one(outs[0], pid) == float(want[0]), (encoding, pid)

    score = functools.partial(remote.compute_score, server_url=url)

    async def verl_omni():
        return await asyncio.gather(*(
            score(data_source="paintbench", solution_image=torch.from_numpy(o).permute(2, 0, 1),
                  ground_truth=pid, extra_info={}, fit="exact")
            for pid, outs in zip(ids, outputs, strict=True) for o in outs))

    got = np.array([r["score"] for r in asyncio.run(verl_omni())], dtype=np.float32)
    assert got.tobytes() == np.concatenate(expected).tobytes()

    fn = remote.flow_grpo_pixel_miou("cpu", server_url=url, fit="exact")
    model = remote.FlowFactoryPixelMIoU(config={"server_url": url, "fit": "exact"})
    for pid, outs, want in zip(ids, outputs, expected, strict=True):
        images = torch.stack([torch.from_numpy(o).permute(2, 0, 1) for o in outs])
        meta = [{"problem_id": pid}] * 4
        assert fn(images, ["p"] * 4, meta)[0].numpy().tobytes() == want.tobytes()
        assert model(image=list(images), metadata=meta).rewards.numpy().tobytes() == want.tobytes()


def test_every_client_equals_in_process_reward(start_service):
    service = start_service()
    _check_every_client(service.url, _problems(512, 8))


@pytest.mark.slow
@pytest.mark.parametrize("size", [512, 1024])
def test_two_hundred_problems_equal_in_process_reward(start_service, size):
    service = start_service(cache_mb=4096)
    _check_every_client(service.url, _problems(size, 100))
