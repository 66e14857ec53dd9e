"""No secret in what ``RewardClient`` raises or prints: a service whose error body echoes
the ``Authorization`` header, and a URL with a password (a loopback server answers)."""

from __future__ import annotations

import asyncio
import socket

import numpy as np
import pytest

from paintkit.rewards import remote
from paintkit.rewards.client import RemoteRewardError, RewardClient
from tests.rewards.hostile_http import HostileServer

IMAGE = np.zeros((4, 4, 3), np.uint8)
TOKEN = "tok-9f8e7d6c5b4a"
PASSWORD = "pw-0a1b2c3d4e5f"


@pytest.fixture
def echo():
    """A server that answers ``status`` with the request's headers in its error body (and,
    for a 200, in each item's error)."""
    servers = []

    def start(status: int):
        def reply(handler, body):
            echoed = " ".join(f"{k}: {v}" for k, v in handler.headers.items())
            if status == 200:
                handler.send(200, {"metric_version": 1, "results": [
                    {"problem_id": "a", "reward": None, "error": f"bad request ({echoed})"}]})
            else:
                handler.send(status, {"error": f"refused ({echoed})", "metric_version": 1})

        servers.append(HostileServer(reply))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def _secret_free(text: str) -> None:
    assert TOKEN not in text and PASSWORD not in text, text


@pytest.mark.parametrize("status, error", [(401, RemoteRewardError), (500, RemoteRewardError),
                                           (422, ValueError), (200, ValueError)])
def test_an_error_body_echoing_the_token_is_masked(echo, status, error):
    server = echo(status)
    url = server.url.replace("http://", f"http://user:{PASSWORD}@")
    with RewardClient(url, token=TOKEN, max_retries=0) as client:
        _secret_free(repr(client))
        with pytest.raises(error) as raised:
            client.score([IMAGE], ["a"])
        _secret_free(str(raised.value))
        assert "Bearer ***" in str(raised.value)
        if status != 200:
            assert "http://***@127.0.0.1" in str(raised.value)
            with pytest.raises(error) as raised:
                client.score_one(IMAGE, "a")
            _secret_free(str(raised.value))
    headers = {k.lower(): v for k, v in server.seen[0][2].items()}
    assert headers["authorization"] == f"Bearer {TOKEN}"  # it was sent


def test_a_url_password_never_appears_in_a_connection_error():
    with socket.socket() as sock:  # a free port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://user:{PASSWORD}@127.0.0.1:{port}"
    with pytest.raises(RemoteRewardError) as raised:
        asyncio.run(remote.compute_score(IMAGE, "a", url, max_retries=0, token=TOKEN))
    _secret_free(str(raised.value))
    assert "http://***@127.0.0.1" in str(raised.value)
    with pytest.raises(ValueError) as refused:
        RewardClient(f"ftp://user:{PASSWORD}@host")
    _secret_free(str(refused.value))
