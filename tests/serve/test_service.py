"""The service answers what the in-process reward gives, bit for bit, with its protocol."""

from __future__ import annotations

import base64
import concurrent.futures
import io

import httpx
import numpy as np
import pytest
from PIL import Image

from paintkit.metrics import reward
from paintkit.metrics.version import METRIC_VERSION
from paintkit.rewards.client import RewardClient
from tests.serve.conftest import outputs_of


def _in_process(problems, outputs):
    return np.concatenate([reward(np.stack(outs), [p.answer] * len(outs), [p.input] * len(outs)).numpy()
                           for p, outs in zip(problems, outputs, strict=True)])


def _flat(problems, outputs):
    images = [o for outs in outputs for o in outs]
    ids = [p.metadata["problem_id"] for p, outs in zip(problems, outputs, strict=True) for _ in outs]
    return images, ids


def test_health_names_the_metric_version(start_service):
    service = start_service()
    body = httpx.get(service.url + "/health").json()
    assert body["status"] == "ok" and body["metric_version"] == METRIC_VERSION
    assert body["device"] == "cpu"


@pytest.mark.parametrize("encoding", ["raw", "png"])
def test_batch_rewards_equal_in_process_bit_for_bit(start_service, problems, encoding):
    service = start_service()
    outputs = [outputs_of(p, seed) for seed, p in enumerate(problems)]
    images, ids = _flat(problems, outputs)
    with RewardClient(service.url, encoding=encoding) as client:
        rewards, iou = client.score(images, ids, figures=True)
        at_five = client.score(images, ids, tolerance=5)
    expected = _in_process(problems, outputs)
    assert rewards.dtype == np.float32 and rewards.tobytes() == expected.tobytes()
    assert iou.shape == (len(images), 11)
    five = np.concatenate([reward(np.stack(outs), [p.answer] * 4, [p.input] * 4, tolerance=5).numpy()
                           for p, outs in zip(problems, outputs, strict=True)])
    assert at_five.tobytes() == five.tobytes() == np.ascontiguousarray(iou[:, 5]).tobytes()
    assert set(rewards[:2]) == {1.0, 0.0}  # perfect, unchanged


def test_single_image_endpoint_png_and_raw(start_service, problems):
    service = start_service()
    problem = problems[1]
    pid = problem.metadata["problem_id"]
    from paintkit.io.png_encode import encode_png

    png = httpx.post(f"{service.url}/v1/score/{pid}", content=encode_png(problem.answer),
                     headers={"content-type": "image/png"}, params={"figures": "true"})
    assert png.status_code == 200
    assert png.json()["reward"] == 1.0 and png.json()["metric_version"] == METRIC_VERSION
    assert png.json()["iou"] == [1.0] * 11
    h, w, _ = problem.input.shape
    raw = httpx.post(f"{service.url}/v1/score/{pid}", content=problem.input.tobytes(),
                     headers={"content-type": "application/octet-stream"},
                     params={"shape": f"{h},{w},3"})
    assert raw.status_code == 200 and raw.json()["reward"] == 0.0
    unknown = httpx.post(f"{service.url}/v1/score/paintbench-nothing-baseline-amount-000000",
                         content=encode_png(problem.answer), headers={"content-type": "image/png"})
    assert unknown.status_code == 422 and "unknown folder 'nothing'" in unknown.json()["error"]


def test_unknown_and_malformed_keys_are_per_item_errors_never_zero(start_service, problems):
    service = start_service()
    good = problems[0]
    items = [{"problem_id": pid, "image": {"raw": base64.b64encode(good.answer.tobytes()).decode(),
                                           "shape": list(good.answer.shape)}}
             for pid in (good.metadata["problem_id"], "paintbench-nothing-baseline-amount-000000",
                         "not a key")]
    body = httpx.post(service.url + "/v1/score", json={"items": items}).json()
    first, unknown, malformed = body["results"]
    assert body["metric_version"] == METRIC_VERSION and first["reward"] == 1.0
    for result, key in ((unknown, "paintbench-nothing"), (malformed, "not a key")):
        assert result["reward"] is None and key in result["error"]
    with RewardClient(service.url) as client, pytest.raises(ValueError, match="not a key"):
        client.score([good.answer], ["not a key"])


def test_problems_read_from_a_benchmark_tree(start_service, tmp_path):
    from paintkit.engines.driver import write_suite
    from paintkit.suites import build_problem
    from paintkit.suites.suite import Suite

    suite = Suite(tasks=["scaling"], conditions=["baseline"], per_cell=1, size=(256, 256),
                  namespace="tree")
    write_suite(suite, tmp_path, engine="inprocess", progress=False)
    problem = build_problem(suite, suite.spec(0))
    service = start_service(benchmarks=str(tmp_path))
    with RewardClient(service.url) as client:
        got = client.score([problem.answer, problem.input], [problem.metadata["problem_id"]] * 2)
        assert got.tolist() == [1.0, 0.0]
        with pytest.raises(ValueError, match="not found under"):
            client.score([problem.answer], ["tree-scaling-baseline@256x256-amount-000007"])


def test_settings_are_checked_before_serving(tmp_path):
    from paintkit.serve.options import ServeOptions

    with pytest.raises(ValueError, match="is not a folder"):
        ServeOptions(benchmarks=str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="max_batch"):
        ServeOptions(max_batch=0)
    assert "hunter2" not in repr(ServeOptions(token="hunter2"))


def test_prepared_targets_are_cached_and_bounded_in_bytes(start_service, problems):
    service = start_service(cache_mb=1)  # a 256x256 problem takes 384 KiB on the CPU
    with RewardClient(service.url) as client:
        client.score([problems[0].answer], [problems[0].metadata["problem_id"]])
        assert service.service.targets.cache.nbytes <= 1 << 20
    roomy = start_service()
    with RewardClient(roomy.url) as client:
        for p in problems:
            client.score([p.answer, p.input], [p.metadata["problem_id"]] * 2)
    cache = roomy.service.targets.cache
    assert len(cache) == len(problems) and cache.nbytes == len(problems) * 256 * 256 * 6


def test_concurrent_requests_are_gathered_into_batches(start_service, problems):
    service = start_service(max_batch=16, max_wait_ms=200)
    problem = problems[2]
    pid = problem.metadata["problem_id"]
    outputs = outputs_of(problem, 7) * 4
    client = RewardClient(service.url)
    before = service.service.batcher.batches
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        got = list(pool.map(lambda image: client.score([image], [pid])[0], outputs))
    assert service.service.batcher.batches - before < len(outputs)
    expected = reward(np.stack(outputs), [problem.answer] * 16, [problem.input] * 16).numpy()
    assert np.array(got, dtype=np.float32).tobytes() == expected.tobytes()


def test_openapi_schema_documents_the_protocol(start_service):
    service = start_service()
    schema = httpx.get(service.url + "/openapi.json").json()
    assert {"/health", "/v1/score", "/v1/score/{problem_id}"} <= set(schema["paths"])
    batch = schema["paths"]["/v1/score"]["post"]
    assert "application/json" in batch["requestBody"]["content"]
    assert {"400", "401", "413", "415", "500"} <= set(batch["responses"])
    single = schema["paths"]["/v1/score/{problem_id}"]["post"]["requestBody"]["content"]
    assert {"image/png", "application/octet-stream"} <= set(single)
    assert {"ItemIn", "ImageIn", "BatchResponse"} <= set(schema["components"]["schemas"])


def test_decoding_runs_off_the_event_loop(start_service, problems, monkeypatch):
    import threading

    from paintkit.serve import images

    armed, started, release = threading.Event(), threading.Event(), threading.Event()

    def slow_decode(data, shape, where, max_pixels):  # a large image that takes long to decode
        if armed.is_set():  # until /health has been answered: no clock, however loaded the machine
            started.set()
            release.wait(30)
        return images.decode(data, shape, where, max_pixels)

    monkeypatch.setattr("paintkit.serve.app.decode", slow_decode)
    service = start_service()
    problem = problems[0]
    RewardClient(service.url).score([problem.answer], [problem.metadata["problem_id"]])  # prepared
    armed.set()
    done = {}
    png = io.BytesIO()
    Image.fromarray(problem.answer).save(png, format="PNG")
    slow = threading.Thread(target=lambda: done.setdefault("rewards", [httpx.post(
        f"{service.url}/v1/score/{problem.metadata['problem_id']}", content=png.getvalue(),
        headers={"content-type": "image/png"}, timeout=60).json()["reward"]]))
    slow.start()
    try:
        assert started.wait(30), "the image was never decoded"
        # a decode on the event loop would hold /health until the 30 s wait ran out
        assert httpx.get(service.url + "/health", timeout=20).status_code == 200
        assert "rewards" not in done  # answered while the other request decodes
    finally:
        release.set()
    slow.join(60)
    assert done["rewards"] == [1.0]
