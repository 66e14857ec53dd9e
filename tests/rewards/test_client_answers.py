"""``RewardClient`` against services that answer what was not asked: results out of order,
missing, extra or duplicated, and rewards no mIoU can be (a loopback server answers)."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
import torch

from paintkit.rewards import remote
from paintkit.rewards.client import RemoteRewardError, RewardClient
from tests.rewards.hostile_http import batch_items, results

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
    fn = remote.flow_grpo_pixel_miou("cpu", server_url=server.url, max_retries=0)
    with pytest.raises(RemoteRewardError):
        fn(torch.zeros(1, 3, 4, 4), ["p"], [{"problem_id": "a"}])


# a reward no mIoU can be: JSON null, NaN, ±Infinity, outside [0, 1], a bool, a string
IMPOSSIBLE = [b"null", b"NaN", b"Infinity", b"-Infinity", b"-0.5", b"7.0", b"true", b'"0.9"']


def _raw_json(template: bytes, value: bytes):
    def reply(handler, body):
        handler.send(200, template.replace(b"VALUE", value))
    return reply


BATCH = b'{"metric_version": 1, "results": [{"problem_id": "a", "reward": VALUE}]}'
ONE = b'{"metric_version": 1, "problem_id": "a", "reward": VALUE}'


@pytest.mark.parametrize("value", IMPOSSIBLE)
def test_an_impossible_reward_is_an_error_on_every_path(hostile, value):
    batch = hostile(_raw_json(BATCH, value))
    one = hostile(_raw_json(ONE, value))
    match = "a reward is a finite number in \\[0, 1\\]"
    with _client(batch) as client, pytest.raises(RemoteRewardError, match=match):
        client.score(IMAGES[:1], ["a"])
    with _client(one) as client, pytest.raises(RemoteRewardError, match=match):
        client.score_one(IMAGES[0], "a")
    with pytest.raises(RemoteRewardError, match=match):
        asyncio.run(remote.compute_score(IMAGES[0], "a", one.url, max_retries=0))
    fn = remote.flow_grpo_pixel_miou("cpu", server_url=batch.url, max_retries=0)
    with pytest.raises(RemoteRewardError, match=match):
        fn(torch.zeros(1, 3, 4, 4), ["p"], [{"problem_id": "a"}])


@pytest.mark.parametrize("iou", [b"null", b"[0.5]", b"[" + b"0.5, " * 10 + b"NaN]",
                                 b"[" + b"1, " * 10 + b"2]", b'"x"'])
def test_impossible_per_tolerance_figures_are_an_error(hostile, iou):
    template = b'{"metric_version": 1, "results": [{"problem_id": "a", "reward": 0.5, "iou": VALUE}]}'
    server = hostile(_raw_json(template, iou))
    with _client(server) as client, pytest.raises(RemoteRewardError, match="results\\[0\\].iou"):
        client.score(IMAGES[:1], ["a"], figures=True)


def test_rewards_at_the_bounds_are_kept(hostile):
    server = hostile(lambda h, body: h.send(200, results(("a", 0), ("b", 1))))
    with _client(server) as client:
        assert client.score(IMAGES, ["a", "b"]).tolist() == [0.0, 1.0]
