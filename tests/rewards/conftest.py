"""Shared fixtures of the reward tests."""

import numpy as np
import pytest

from tests.rewards.hostile_http import HostileServer


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


@pytest.fixture
def hostile():
    """``hostile(answer) -> HostileServer`` (tests/rewards/hostile_http.py) on 127.0.0.1; every
    one is stopped."""
    servers = []

    def start(answer):
        servers.append(HostileServer(answer))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()
