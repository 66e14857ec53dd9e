"""``RewardClient`` reads at most what a result for the items asked can take: a service
answering far more is refused after a bounded read, and the client's memory does not grow
with the answer (a loopback server answers)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from paintkit.rewards.client import RemoteRewardError, RewardClient, answer_limit
from tests.rewards.hostile_http import HostileServer

IMAGE = np.zeros((4, 4, 3), np.uint8)
HUGE = 128 << 20  # what the hostile server offers
SENT_AT_MOST = 40 << 20  # what it may get out before the client hangs up (socket buffers)


@pytest.fixture
def flood():
    """A server answering 200 with a JSON-looking body of ``HUGE`` bytes, declared in its
    Content-Length or not (then it is sent until the client closes); ``server.sent`` counts
    the bytes that went out."""
    servers = []

    def start(declared: bool):
        def reply(handler, body):
            handler.send_response(200)
            handler.send_header("content-type", "application/json")
            if declared:
                handler.send_header("content-length", str(HUGE))
            else:
                handler.send_header("connection", "close")
            handler.end_headers()
            chunk = b'{"results": [' + b" " * ((1 << 20) - 13)
            try:
                for _ in range(HUGE >> 20):
                    handler.wfile.write(chunk)
                    server.sent += len(chunk)
                    chunk = b" " * (1 << 20)
            except OSError:
                pass
            handler.close_connection = True

        server = HostileServer(reply)
        server.sent = 0
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "until-close"])
@pytest.mark.parametrize("call", ["score", "score_one"])
def test_an_answer_larger_than_a_result_can_be_is_refused_after_a_bounded_read(flood, declared,
                                                                                  call):
    server = flood(declared)
    with RewardClient(server.url, max_retries=0) as client:
        tracemalloc.start()
        try:
            with pytest.raises(RemoteRewardError, match="a result for this request can take"):
                if call == "score":
                    client.score([IMAGE], ["a"])
                else:
                    client.score_one(IMAGE, "a")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < 8 << 20  # the bound and the client's own, not the 128 MiB answer
    server.stop()
    assert server.sent < SENT_AT_MOST


def test_the_bound_grows_with_the_items_asked():
    assert answer_limit(["a"] * 1024) > 1024 * 1000 > answer_limit(["a"])
    # a real answer with figures and an error line per item fits
    ious = ", ".join(["0.123456789"] * 11)
    result = f'{{"problem_id": "{"k" * 80}", "reward": 0.123456789, "iou": [{ious}], "error": null}}'
    assert len(result) * 32 < answer_limit(["k" * 80] * 32)
