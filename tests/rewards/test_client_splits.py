"""``RewardClient.score`` cuts a batch to what the service takes in one request: 22 raw
1024x1024 images (69 MB) against a ``paintkit serve`` at its defaults (64 MiB bodies), a
small ``--max-mb`` and ``--max-items``, and a service that reports no limits but answers
413; the rewards come back in the order of the images."""

from __future__ import annotations

import json

import numpy as np
import pytest

from paintkit.metrics import reward
from paintkit.rewards.client import RemoteRewardError, RewardClient
from tests.rewards.hostile_http import HostileServer, batch_items, results
from tests.serve import conftest as serve
from tests.serve.conftest import outputs_of

problems, start_service = serve.problems, serve.start_service  # the service tests' fixtures


def _problem(size: int):
    from paintkit.suites import build_problem
    from paintkit.suites.suite import Suite

    suite = Suite(tasks=["translation"], conditions=["baseline"], per_cell=1, size=(size, size))
    return build_problem(suite, next(iter(suite.specs())))


def test_22_raw_1024_images_at_the_services_defaults(start_service):
    service = start_service()  # --max-mb 64, as paintkit serve starts
    problem = _problem(1024)
    outputs = [problem.answer, problem.input] * 11  # 8 prompts x G=4 would be 32
    assert sum(o.nbytes for o in outputs) > 64 << 20
    with RewardClient(service.url) as client:
        rewards = client.score(outputs, [problem.metadata["problem_id"]] * 22)
    expected = reward(outputs[:2], [problem.answer] * 2, [problem.input] * 2).numpy()
    np.testing.assert_array_equal(rewards, np.tile(expected, 11))


@pytest.mark.parametrize("batch", ["binary", "json"])
def test_a_batch_over_max_mb_and_max_items_is_cut_and_kept_in_order(start_service, problems,
                                                                   batch):
    service = start_service(max_mb=1, max_items=5)
    outputs, ids, expected = [], [], []
    for seed, problem in enumerate(problems):
        for out in outputs_of(problem, seed):
            outputs.append(out)
            ids.append(problem.metadata["problem_id"])
            expected.append(reward([out], [problem.answer], [problem.input]).numpy()[0])
    outputs, ids, expected = outputs * 2, ids * 2, expected * 2  # 24 x 192 KiB: 4.5 MiB
    with RewardClient(service.url, batch=batch) as client:
        rewards, ious = client.score(outputs, ids, figures=True)
    np.testing.assert_array_equal(rewards, np.array(expected, np.float32))
    assert ious.shape == (24, 11)


def test_a_service_without_limits_is_cut_at_its_413():
    def reply(handler, body):
        if handler.command == "GET":  # a /health that says nothing of limits
            return handler.send(200, {"status": "ok"})
        if len(body) > 100_000:
            return handler.send(413, {"error": "request body too large", "metric_version": 1})
        items = batch_items(body)
        # each reward tells which item it is for: its position in the whole batch
        return handler.send(200, results(*((i["problem_id"], int(i["problem_id"]) / 100)
                                           for i in items)))

    server = HostileServer(reply)
    try:
        images = [np.zeros((64, 64, 3), np.uint8)] * 20  # 12 KiB each, 240 KiB in all
        with RewardClient(server.url, max_retries=0) as client:
            rewards = client.score(images, [str(k) for k in range(20)])
            np.testing.assert_allclose(rewards, np.arange(20) / 100, rtol=1e-6)
            sent = len(server.seen)
            client.score(images, [str(k) for k in range(20)])  # cut as it learned: no 413
            posts = [s for s in server.seen[sent:] if s[0] == "POST"]
            assert len(posts) > 1 and all(len(s[3]) <= 100_000 for s in posts)
            with pytest.raises(RemoteRewardError, match="images\\[0\\] alone .* --max-mb"):
                client.score([np.zeros((256, 256, 3), np.uint8)], ["0"])
    finally:
        server.stop()


def test_health_reports_the_limits(start_service):
    service = start_service(max_mb=3, max_items=7)
    with RewardClient(service.url) as client:
        health = client.health()
    assert (health["max_body_bytes"], health["max_items"]) == (3 << 20, 7)
    json.dumps(health)
