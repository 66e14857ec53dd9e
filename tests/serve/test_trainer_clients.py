"""The remote rewards called the way trainers call them, equal to the in-process adapters.

- verl-omni's visual reward manager awaits ``compute_score(data_source=...,
  solution_image=<uint8 (C, H, W) tensor>, ground_truth=..., extra_info=...)`` from one
  asyncio task per sample, many at once, with ``server_url`` (and retries) bound from the
  reward's config;
- flow_grpo calls ``fn(images, prompts, metadata)`` from an 8-thread executor, float
  ``(B, 3, H, W)`` images in [0, 1];
- Flow-Factory builds ``cls(config=..., accelerator=...)`` and calls
  ``model(prompt=..., image=[(3, H, W) float tensors], condition_images=..., metadata=...)``.
"""

from __future__ import annotations

import asyncio
import functools
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest
import torch

from paintkit.metrics import reward
from paintkit.rewards import remote
from paintkit.rewards.client import RemoteRewardError, RewardClient
from tests.serve.conftest import outputs_of


@pytest.fixture(scope="module")
def service():
    from paintkit.serve.options import ServeOptions
    from tests.serve.conftest import RunningService

    running = RunningService(ServeOptions(device="cpu", max_wait_ms=2))
    yield running
    running.stop()


def _samples(problems):
    """(CHW uint8 tensor, problem) for 4 outputs of each problem."""
    return [(torch.from_numpy(o).permute(2, 0, 1).contiguous(), p)
            for seed, p in enumerate(problems) for o in outputs_of(p, seed)]


def test_verl_omni_awaits_compute_score_from_many_tasks(service, problems):
    samples = _samples(problems) * 4  # 48 tasks at once, as the reward loop runs them
    compute_score = functools.partial(remote.compute_score, server_url=service.url,
                                      max_retries=2, retry_backoff=0.5)

    async def reward_loop():
        async def run_single(image, problem, k):
            batch = image[None] if k % 2 else image  # (C, H, W) or (1, C, H, W)
            return await compute_score(data_source="paintbench", solution_image=batch,
                                       ground_truth=problem.metadata["problem_id"],
                                       extra_info={"index": k})
        return await asyncio.gather(*(run_single(img, p, k) for k, (img, p) in enumerate(samples)))

    results = asyncio.run(reward_loop())
    assert all(set(r) == {"score"} and isinstance(r["score"], float) for r in results)
    for (image, problem), result in zip(samples, results, strict=True):
        expected = reward([image.permute(1, 2, 0).numpy()], [problem.answer], [problem.input])
        assert np.float32(result["score"]) == expected.numpy()[0]
    # the in-process verl adapter agrees (it reports score()'s float64 mean of the same IoUs,
    # the service reward()'s float32 one)
    from paintkit.rewards.verl import compute_score as local_score

    image, problem = samples[2]
    local = local_score("paintbench", image.numpy(), {"answer": problem.answer, "input": problem.input})
    assert local["score"] == pytest.approx(results[2]["score"], abs=1e-6)


def test_verl_omni_compute_score_refuses_what_its_client_refuses(service, problems):
    with pytest.raises(ValueError, match="max_retries must be non-negative"):
        asyncio.run(remote.compute_score(None, "k", service.url, max_retries=-1))
    with pytest.raises(ValueError, match="retry_backoff must be non-negative"):
        asyncio.run(remote.compute_score(None, "k", service.url, retry_backoff=-1))
    image = torch.zeros(3, 256, 256, dtype=torch.uint8)
    with pytest.raises(ValueError, match="unknown folder 'nothing'"):
        asyncio.run(remote.compute_score(image, "paintbench-nothing-baseline-amount-000000",
                                         service.url))


def test_flow_grpo_executor_calls_match_the_in_process_adapter(service, problems):
    from paintkit.rewards.flow_grpo import flow_grpo_pixel_miou as local_factory

    remote_fn = remote.flow_grpo_pixel_miou("cpu", server_url=service.url)
    local_fn = local_factory("cpu")
    batches = []
    for seed, problem in enumerate(problems):
        images = torch.stack([torch.from_numpy(o).permute(2, 0, 1) for o in outputs_of(problem, seed)])
        images = images.float() / 255  # the VAE decode, in [0, 1]
        meta = [{"problem_id": problem.metadata["problem_id"], "answer": problem.answer,
                 "image": problem.input} for _ in range(len(images))]
        batches.append((images, ["prompt"] * len(images), meta))
    with ThreadPoolExecutor(8) as executor:
        futures = [executor.submit(remote_fn, *batch) for batch in batches * 4]
        got = [f.result() for f in futures]
    for (scores, info), batch in zip(got, batches * 4, strict=True):
        expected, _ = local_fn(*batch)
        assert scores.dtype == torch.float32 and scores.numpy().tobytes() == expected.numpy().tobytes()
        assert info["miou_mean"].ndim == 0
    with pytest.raises(ValueError, match="problem_id"):
        remote_fn(batches[0][0], batches[0][1], [{"answer": problems[0].answer}] * 4)


def test_flow_factory_model_matches_the_in_process_model(service, problems):
    from paintkit.rewards.flow_factory import FlowFactoryPixelMIoU as Local

    config = {"server_url": service.url, "fit": "stretch"}
    model = remote.FlowFactoryPixelMIoU(config=config, accelerator=None)
    local = Local(config={"fit": "stretch"})
    for seed, problem in enumerate(problems):
        images = [torch.from_numpy(o).permute(2, 0, 1).float() / 255 for o in outputs_of(problem, seed)]
        meta = [{"problem_id": problem.metadata["problem_id"], "answer": problem.answer,
                 "input": problem.input}] * len(images)
        out = model(prompt=["p"] * 4, image=images, condition_images=None, metadata=meta)
        expected = local(prompt=["p"] * 4, image=images, metadata=meta)
        assert out.rewards.numpy().tobytes() == expected.rewards.numpy().tobytes()
    with pytest.raises(ValueError, match="server_url"):
        remote.FlowFactoryPixelMIoU(config={})


class _Flaky:
    """A loopback server answering 503 (with Retry-After) ``failures`` times, then a batch
    response; records each request's arrival time and the client's port (its connection)."""

    def __init__(self, failures: int, status: int = 503, retry_after: str | None = "0"):
        self.times: list[float] = []
        self.ports: list[int] = []
        import time

        flaky = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers["content-length"]))
                flaky.times.append(time.monotonic())
                flaky.ports.append(self.client_address[1])
                if len(flaky.times) <= failures:
                    body, code = b'{"error": "busy", "metric_version": 2}', status
                else:
                    body, code = json.dumps({"metric_version": 2, "results": [
                        {"problem_id": "k", "reward": 0.25}]}).encode(), 200
                self.send_response(code)
                if code != 200 and retry_after is not None:
                    self.send_header("retry-after", retry_after)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.parametrize("status", [408, 429, 500, 503])
def test_retries_honour_retry_after_then_succeed(status):
    flaky = _Flaky(2, status, retry_after="0.3")
    try:
        client = RewardClient(flaky.url, max_retries=2, retry_backoff=5.0)
        assert client.score([np.zeros((4, 4, 3), np.uint8)], ["k"]).tolist() == [0.25]
        gaps = np.diff(flaky.times)
        assert len(flaky.times) == 3 and all(0.25 < g < 3 for g in gaps)  # 0.3 s, not 5 s
    finally:
        flaky.close()


def test_retries_are_bounded_and_raise_never_zero():
    flaky = _Flaky(10, 503, retry_after=None)
    try:
        client = RewardClient(flaky.url, max_retries=2, retry_backoff=0.05)
        with pytest.raises(RemoteRewardError, match="HTTP 503: busy"):
            client.score([np.zeros((4, 4, 3), np.uint8)], ["k"])
        assert len(flaky.times) == 3
        with pytest.raises(RemoteRewardError, match="HTTP 503"):
            asyncio.run(remote.compute_score(torch.zeros(3, 4, 4, dtype=torch.uint8), "k",
                                             flaky.url, max_retries=1, retry_backoff=0.01))
    finally:
        flaky.close()


def test_connection_errors_are_retried_then_raised():
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    client = RewardClient(url, max_retries=2, retry_backoff=0.01)
    with pytest.raises(RemoteRewardError, match="after 3 attempts"):
        client.score([np.zeros((4, 4, 3), np.uint8)], ["k"])
    with pytest.raises(RemoteRewardError, match="after 2 attempts"):
        asyncio.run(remote.compute_score(torch.zeros(3, 4, 4, dtype=torch.uint8), "k", url,
                                         max_retries=1, retry_backoff=0.01))


def test_clients_reuse_their_connections():
    flaky = _Flaky(0)
    try:
        client = RewardClient(flaky.url, max_connections=4)
        image = np.zeros((4, 4, 3), np.uint8)
        for _ in range(5):
            assert client.score([image], ["k"]).tolist() == [0.25]
        assert len(set(flaky.ports)) == 1  # one connection, kept open

        async def many():
            return await asyncio.gather(*(client.ascore([image], ["k"]) for _ in range(24)))

        assert [g.tolist() for g in asyncio.run(many())] == [[0.25]] * 24
        assert len(flaky.ports) == 29 and len(set(flaky.ports)) <= 4  # at most max_connections
        client.close()
    finally:
        flaky.close()


def test_score_one_sends_the_pixels_as_they_are(service, problems):
    problem = problems[0]
    pid = problem.metadata["problem_id"]
    client = RewardClient(service.url)
    image = np.ascontiguousarray(problem.answer)
    before = image.copy()
    assert client.score_one(image, pid) == 1.0
    assert asyncio.run(client.ascore_one(torch.from_numpy(image).permute(2, 0, 1), pid)) == 1.0
    assert np.array_equal(image, before)
    with pytest.raises(ValueError, match="HTTP 422"):
        client.score_one(image[:8], pid)
    client.close()
