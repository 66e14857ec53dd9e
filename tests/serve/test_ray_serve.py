"""The same application on Ray Serve (a local Ray instance) gives the same rewards."""

from __future__ import annotations

import socket
import time

import numpy as np
import pytest

pytest.importorskip("ray.serve", exc_type=ImportError)

from paintkit.metrics import reward  # noqa: E402
from paintkit.rewards.client import RewardClient  # noqa: E402
from tests.serve.conftest import outputs_of  # noqa: E402


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow  # 23-35 s on this 2-core machine (starting Ray and Serve)
def test_ray_serve_deployment_scores_like_in_process(problems):
    import ray
    from ray import serve

    from paintkit.serve.ray_serve import build_app

    port = _free_port()
    # address="local": a fresh instance of its own, even when another Ray runs on this machine
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        # what `serve run paintkit.serve.ray_serve:build_app device=cpu num_replicas=1` builds
        serve.run(build_app({"device": "cpu", "num_replicas": "1", "max_batch": "8"}),
                  name="paintkit", route_prefix="/")
        with RewardClient(f"http://127.0.0.1:{port}") as client:
            deadline = time.monotonic() + 120
            while client.health()["status"] != "ok":  # the replica warms its kernels up
                assert time.monotonic() < deadline
                time.sleep(0.2)
            assert client.health()["score_threads"] == 1  # the replica's one CPU, not the cores
            for seed, problem in enumerate(problems):
                outs = outputs_of(problem, seed)
                got = client.score(outs, [problem.metadata["problem_id"]] * 4)
                want = reward(np.stack(outs), [problem.answer] * 4, [problem.input] * 4).numpy()
                assert got.tobytes() == want.tobytes()
                # the single-image endpoint (the fast path behind Ray Serve's proxy)
                one = [client.score_one(out, problem.metadata["problem_id"]) for out in outs]
                assert np.array(one, np.float32).tobytes() == want.tobytes()
            with pytest.raises(ValueError, match="unknown folder"):
                client.score([outs[0]], ["paintbench-nothing-baseline-amount-000000"])
    finally:
        serve.shutdown()
        ray.shutdown()


def test_build_app_refuses_unknown_settings():
    from paintkit.serve.ray_serve import build_app

    with pytest.raises(ValueError, match="unknown setting 'colour'"):
        build_app({"colour": "red"})
