"""``RewardClient`` and the remote adapters against services that never finish: a deadline
per attempt (a dripped answer too), ``timeout=`` passed through, any ``Retry-After``."""

from __future__ import annotations

import asyncio
import time

import numpy as np
import pytest
import torch

from paintkit.rewards import remote
from paintkit.rewards.client import RemoteRewardError, RewardClient
from tests.rewards.hostile_http import results

IMAGE = np.zeros((4, 4, 3), np.uint8)
DRIP_S = 12  # how long a hostile server keeps a connection going


def _drip(head: bool):
    """Drip an answer a byte a second: the status line and headers too (``head``), or a
    prompt head and then the body."""
    def reply(handler, body):
        data = (b'{"metric_version": 1, "problem_id": "a", "reward": 0.5}' + b" " * 100)
        answer = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
                  + str(len(data)).encode() + b"\r\n\r\n")
        if not head:
            handler.wfile.write(answer)
            handler.wfile.flush()
            answer = b""
        for byte in (answer + data)[:DRIP_S]:
            try:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
            except OSError:
                return
            time.sleep(1)
        handler.close_connection = True
    return reply


@pytest.mark.parametrize("head", [True, False], ids=["dripped-head", "dripped-body"])
def test_a_dripped_answer_is_given_up_on_at_the_deadline(hostile, head):
    server = hostile(_drip(head))
    with RewardClient(server.url, timeout=1.5, max_retries=0) as client:
        start = time.monotonic()
        with pytest.raises(RemoteRewardError, match="TimeoutError|timed out"):
            client.score_one(IMAGE, "a")
        assert time.monotonic() - start < 8  # the 1.5 s deadline, not the 12 s drip (loaded machine: slack)


def _hang(handler, body):
    time.sleep(DRIP_S)
    handler.close_connection = True


def test_remote_adapters_pass_their_timeout_through(hostile):
    server = hostile(_hang)
    start = time.monotonic()
    with pytest.raises(RemoteRewardError, match="after 1 attempts"):
        asyncio.run(remote.compute_score(IMAGE, "a", server.url, max_retries=0, timeout=1))
    assert time.monotonic() - start < 8  # the 1 s timeout, not the server's 12 s hang
    fn = remote.flow_grpo_pixel_miou("cpu", server_url=server.url, max_retries=0, timeout=1)
    assert fn.client.timeout == 1
    start = time.monotonic()
    with pytest.raises(RemoteRewardError, match="after 1 attempts"):
        fn(torch.zeros(1, 3, 4, 4), ["p"], [{"problem_id": "a"}])
    assert time.monotonic() - start < 8


@pytest.mark.parametrize("header", ["nan", "-5", "soon", "inf", "Wed, 21 Oct 2015 07:28:00 GMT"])
def test_any_retry_after_is_retried_not_a_crash(hostile, header):
    def reply(handler, body):
        if len(server.seen) == 1:
            handler.send(503, {"error": "busy", "metric_version": 1}, {"retry-after": header})
        else:
            handler.send(200, results(("a", 0.5)))

    server = hostile(reply)
    with RewardClient(server.url, max_retries=1, retry_backoff=0.01) as client:
        start = time.monotonic()
        assert client.score([IMAGE], ["a"]).tolist() == [0.5]
        assert time.monotonic() - start < 10  # the backoff, not a garbage wait (up to 30 s)
    assert len(server.seen) == 2
