"""``RewardClient`` against services that answer what was not asked: results out of order,
missing, extra or duplicated, and rewards no mIoU can be (a loopback server answers)."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
import torch

from paintkit.rewards import remote
from paintkit.rewards.client import RemoteRewardError, RewardClient
from tests.rewards.hostile_http import HostileServer, batch_items, results


@pytest.fixture
def hostile():
    """``hostile(answer) -> HostileServer``; every one is stopped."""
    servers = []

    def start(answer):
        servers.append(HostileServer(answer))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


IMAGES = [np.zeros((4, 4, 3), np.uint8), np.full((4, 4, 3), 255, np.uint8)]


def _client(server, **settings):
    settings.setdefault("max_retries", 0)
    return RewardClient(server.url, **settings)


@pytest.mark.parametrize("batch", ["binary", "json"])
@pytest.mark.parametrize("answer, what", [
    (lambda ids: [(ids[1], 0.25), (ids[0], 0.75)], "results\\[0\\] is for 'b'"),   # reordered
    (lambda ids: [(ids[0], 0.25)], "1 results for 2 items"),                           # missing
    (lambda ids: [(ids[0], 0.25), (ids[1], 0.75), ("c", 0.5)], "3 results for 2"),     # extra
    (lambda ids: [(ids[0], 0.25), (ids[0], 0.75)], "results\\[1\\] is for 'a'"),      # duplicated
])
def test_results_not_matching_the_items_are_refused(hostile, batch, answer, what):
    def reply(handler, body):
        ids = [item["problem_id"] for item in batch_items(body)]
        handler.send(200, results(*answer(ids)))

    server = hostile(reply)
    with _client(server, batch=batch) as client, pytest.raises(RemoteRewardError, match=what):
        client.score(IMAGES, ["a", "b"])


def test_results_in_order_are_returned_in_order(hostile):
    server = hostile(lambda h, body: h.send(200, results(("a", 0.25), ("b", 0.75), ("a", 1.0))))
    with _client(server) as client:
        assert client.score(IMAGES + IMAGES[:1], ["a", "b", "a"]).tolist() == [0.25, 0.75, 1.0]


@pytest.mark.parametrize("answer", [[], {"results": "x"}, {"results": [7, 8]},
                                    {"results": [{"reward": 0.5}, {"reward": 0.5}]}])
def test_a_malformed_batch_answer_is_one_error(hostile, answer):
    server = hostile(lambda h, body: h.send(200, answer))
    with _client(server) as client, pytest.raises(RemoteRewardError, match="answered"):
        client.score(IMAGES, ["a", "b"])


def test_the_single_image_answer_must_name_its_problem(hostile):
    server = hostile(lambda h, body: h.send(200, {"metric_version": 1, "problem_id": "other",
                                                  "reward": 0.5}))
    with _client(server) as client, pytest.raises(RemoteRewardError, match="'other'"):
        client.score_one(IMAGES[0], "a")
    with pytest.raises(RemoteRewardError, match="'other'"):
        asyncio.run(remote.compute_score(IMAGES[0], "a", server.url, max_retries=0))
    fn = remote.pixel_miou("cpu", server_url=server.url, max_retries=0)
    with pytest.raises(RemoteRewardError):
        fn(torch.zeros(1, 3, 4, 4), ["p"], [{"problem_id": "a"}])
