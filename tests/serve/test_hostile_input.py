"""Hostile input and faults: refused with one line, and the service keeps serving."""

from __future__ import annotations

import base64
import json
import logging
import pickle
import select
import socket
import struct
import time
import zlib
from urllib.parse import urlparse

import httpx
import numpy as np
import pytest

import paintkit.serve.scoring
from paintkit.io.png_encode import encode_png
from paintkit.metrics import reward
from paintkit.metrics.fit import fit_output
from paintkit.rewards.client import RemoteRewardError, RewardClient
from tests.serve.conftest import noisy


def _raw_item(pid, image):
    return {"problem_id": pid, "image": {"raw": base64.b64encode(image.tobytes()).decode(),
                                        "shape": list(image.shape)}}


def _png_with_header(width: int, height: int) -> bytes:
    """A PNG that declares ``width x height`` but carries a few bytes of data (a bomb's header)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


def _healthy(service):
    assert httpx.get(service.url + "/health").status_code == 200


def test_body_over_the_limit_is_413(start_service):
    service = start_service(max_mb=1)
    big = b"{" + b" " * (2 << 20) + b"}"
    declared = httpx.post(service.url + "/v1/score", content=big,
                          headers={"content-type": "application/json"})
    assert declared.status_code == 413 and "exceeds the limit" in declared.json()["error"]

    def chunks():  # no Content-Length: counted while reading
        for _ in range(3):
            yield b" " * (1 << 20)

    streamed = httpx.post(service.url + "/v1/score", content=chunks(),
                          headers={"content-type": "application/json"})
    assert streamed.status_code == 413
    _healthy(service)


def test_bombs_and_oversized_images_are_refused_before_decoding(start_service, problems,
                                                                 monkeypatch):
    def never(*args):
        raise AssertionError("an oversized image was decoded")

    monkeypatch.setattr("paintkit.serve.app.decode", never)
    service = start_service(max_pixels=1 << 20)
    pid = problems[0].metadata["problem_id"]
    bomb = {"problem_id": pid, "image": {"png": base64.b64encode(_png_with_header(60000, 60000)).decode()}}
    raw = {"problem_id": pid, "image": {"raw": base64.b64encode(b"\0" * 30).decode(),
                                        "shape": [2048, 2048, 3]}}
    results = httpx.post(service.url + "/v1/score", json={"items": [bomb, raw]}).json()["results"]
    assert "60000x60000 = 3600000000 pixels exceeds the service's limit" in results[0]["error"]
    assert "needs 12582912 bytes, got 30" in results[1]["error"]
    single = httpx.post(f"{service.url}/v1/score/{pid}", content=_png_with_header(4096, 4096),
                        headers={"content-type": "image/png"})
    assert single.status_code == 422 and "refused before decoding" in single.json()["error"]
    _healthy(service)


def test_wrong_size_names_both_sizes_or_is_fitted_when_asked(start_service, problems):
    service = start_service()
    problem = problems[0]
    pid = problem.metadata["problem_id"]
    small = problem.answer[::2, ::2]
    body = httpx.post(service.url + "/v1/score", json={"items": [_raw_item(pid, small)]}).json()
    assert "image is 128x128 but the answer is 256x256" in body["results"][0]["error"]
    for fit in ("stretch", "cover"):
        got = RewardClient(service.url, fit=fit).score([small], [pid])
        fitted = fit_output(small, (256, 256), fit)
        assert got.tobytes() == reward([fitted], [problem.answer], [problem.input],
                                       fit=fit).numpy().tobytes()


@pytest.mark.parametrize("body", [
    b"not json", b'{"items": 3}', b'{"items": [{"problem_id": "x"}]}', b"[]",
    b'{"items": [], "tolerance": 11}', b'{"items": [], "fit": "squash"}', b"\xff\xfe\x00",
])
def test_malformed_body_is_400_with_one_line(start_service_once, body):
    service = start_service_once
    response = httpx.post(service.url + "/v1/score", content=body,
                          headers={"content-type": "application/json"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error and "\n" not in error and "metric_version" in response.json()


@pytest.fixture(scope="module")
def start_service_once():
    from paintkit.serve.options import ServeOptions
    from tests.serve.conftest import RunningService

    service = RunningService(ServeOptions(device="cpu"))
    yield service
    service.stop()


def test_malformed_single_image_requests(start_service_once, problems):
    url = start_service_once.url + "/v1/score/" + problems[0].metadata["problem_id"]
    wrong_type = httpx.post(url, content=b"abc", headers={"content-type": "image/jpeg"})
    assert wrong_type.status_code == 415 and "image/png" in wrong_type.json()["error"]
    bad_shape = httpx.post(url, content=b"abc", params={"shape": "x,y"},
                           headers={"content-type": "application/octet-stream"})
    assert bad_shape.status_code == 400
    bad_tolerance = httpx.post(url, content=b"abc", params={"tolerance": "12"},
                               headers={"content-type": "image/png"})
    assert bad_tolerance.status_code == 400 and "\n" not in bad_tolerance.json()["error"]


class _Trap:
    sprung = False

    def __reduce__(self):
        return (_spring, ())


def _spring():
    _Trap.sprung = True


def test_pickle_is_refused_without_unpickling(start_service_once):
    payload = pickle.dumps({"images": [b"x"], "prompts": ["p"], "metadata": _Trap()})
    for kind in ("application/python-pickle", "application/octet-stream", "application/json"):
        response = httpx.post(start_service_once.url + "/v1/score", content=payload,
                              headers={"content-type": kind})
        assert 400 <= response.status_code < 500, kind
    assert not _Trap.sprung


def test_stalled_client_times_out_without_blocking_others(start_service, problems):
    service = start_service(body_timeout_s=2.5)
    problem = problems[0]
    client = RewardClient(service.url)
    client.score([problem.answer], [problem.metadata["problem_id"]])  # its target prepared
    address = urlparse(service.url)
    stalled = socket.create_connection((address.hostname, address.port))
    stalled.sendall(b"POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 100000\r\n\r\n{\"items\": [")
    start = time.monotonic()
    # served while the other client stalls: answered before the stalled one's 408
    assert client.score([problem.answer], [problem.metadata["problem_id"]]).tolist() == [1.0]
    assert select.select([stalled], [], [], 0)[0] == [], "the stalled request was answered first"
    client.close()
    stalled.settimeout(10)
    answer = stalled.recv(4096)
    waited = time.monotonic() - start
    stalled.close()
    assert answer.startswith(b"HTTP/1.1 408") and b"not received within 2.5 s" in answer
    assert 2 < waited < 8  # timed from its last byte, not from the connection or the server
    _healthy(service)


def test_a_stalled_large_body_holds_the_read_turn_briefly(start_service, problems):
    """Large bodies are read in turn; a body that stops arriving keeps the turn for a
    moment only, so another large body is read and scored long before the stall's 408."""
    service = start_service(body_timeout_s=30)
    problem = problems[0]  # 256x256: a raw body of 196,608 bytes, large enough to take a turn
    pid = problem.metadata["problem_id"]
    client = RewardClient(service.url)
    assert client.score_one(problem.answer, pid) == 1.0  # its target prepared
    address = urlparse(service.url)
    stalled = socket.create_connection((address.hostname, address.port))
    stalled.sendall(f"POST /v1/score/{pid}?shape=256,256,3 HTTP/1.1\r\nHost: x\r\n"
                    f"Content-Type: application/octet-stream\r\nContent-Length: 196608\r\n"
                    f"\r\n".encode() + bytes(1000))
    time.sleep(0.3)  # its body is being read: it took the turn
    start = time.monotonic()
    output = noisy(problem.answer, 3)
    assert client.score_one(output, pid) == float(reward([output], [problem.answer],
                                                         [problem.input])[0])
    assert time.monotonic() - start < 10, "the stalled body held the turn"
    assert select.select([stalled], [], [], 0)[0] == [], "the stalled request was answered"
    turns = service.service.body_turns
    assert turns.held_out >= 1 and not turns.busy  # the stalled one (a loaded machine may add)
    stalled.close()
    client.close()
    _healthy(service)


def test_token_is_required_and_never_logged(start_service, problems, capfd):
    token = "s3cret-token-7f1c9a"
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(self.format(record))

    handler = Keep()
    loggers = [logging.getLogger(n) for n in ("", "uvicorn", "uvicorn.error", "uvicorn.access")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        service = start_service(token=token, log_level="debug")
        problem = problems[0]
        pid = problem.metadata["problem_id"]
        item = {"items": [_raw_item(pid, problem.answer)]}
        assert httpx.post(service.url + "/v1/score", json=item).status_code == 401
        wrong = httpx.post(service.url + "/v1/score", json=item,
                           headers={"authorization": "Bearer " + token[:-1]})
        assert wrong.status_code == 401 and wrong.headers["www-authenticate"] == "Bearer"
        assert httpx.get(service.url + "/health").status_code == 200  # probes need no token
        with RewardClient(service.url, token=token) as client:
            assert client.score([problem.answer], [pid]).tolist() == [1.0]
            assert token not in repr(client) and token not in repr(service.service.options)
        with pytest.raises(RemoteRewardError, match="401"):
            RewardClient(service.url, token="nope", max_retries=0).score([problem.answer], [pid])
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
    out, err = capfd.readouterr()
    assert any("401" in r for r in records)  # the access log saw the refusals
    assert token not in out + err and not any(token in r for r in records)


def test_scorer_exception_is_500_for_that_request_and_the_service_keeps_serving(
        start_service, problems, monkeypatch):
    service = start_service()
    problem = problems[1]
    pid = problem.metadata["problem_id"]
    real = paintkit.serve.scoring.score_group

    def explode(*args, **kwargs):
        raise RuntimeError("kernel exploded")

    monkeypatch.setattr(paintkit.serve.scoring, "score_group", explode)
    failed = httpx.post(service.url + "/v1/score", json={"items": [_raw_item(pid, problem.answer)]})
    assert failed.status_code == 500
    assert failed.json()["error"] == "scoring failed: RuntimeError: kernel exploded"
    single = httpx.post(f"{service.url}/v1/score/{pid}", content=problem.answer.tobytes(),
                        params={"shape": "256,256,3"},
                        headers={"content-type": "application/octet-stream"})
    assert single.status_code == 500 and "kernel exploded" in single.json()["error"]
    with pytest.raises(RemoteRewardError, match="kernel exploded"):
        RewardClient(service.url, max_retries=1, retry_backoff=0).score([problem.answer], [pid])
    monkeypatch.setattr(paintkit.serve.scoring, "score_group", real)
    with RewardClient(service.url) as client:
        assert client.score([problem.answer, problem.input], [pid] * 2).tolist() == [1.0, 0.0]


def test_raw_bytes_never_leave_their_shape(start_service_once, problems):
    problem = problems[0]
    item = _raw_item(problem.metadata["problem_id"], problem.answer)
    item["image"]["shape"] = [256, 256, 4]
    body = httpx.post(start_service_once.url + "/v1/score", json={"items": [item]}).json()
    assert "shape must be [H, W, 3]" in body["results"][0]["error"]
    item["image"] = {"raw": "%%%not base64"}
    body = httpx.post(start_service_once.url + "/v1/score", json={"items": [item]}).json()
    assert "not valid base64" in body["results"][0]["error"]
    assert np.isnan(np.nan)  # the service answered every item; nothing above was scored 0


def test_binary_batch_framing_is_checked(start_service_once, problems):
    problem = problems[0]
    pid = problem.metadata["problem_id"]
    url = start_service_once.url + "/v1/score"
    kind = {"content-type": "application/x-paintkit-batch"}
    pixels = problem.answer.tobytes()

    def header(*items):
        return json.dumps({"items": list(items)}).encode() + b"\n"

    raw = {"problem_id": pid, "nbytes": len(pixels), "shape": [256, 256, 3]}
    short = httpx.post(url, content=header(raw) + pixels[:-1], headers=kind)
    assert short.status_code == 400 and "declare 196608 bytes" in short.json()["error"]
    no_header = httpx.post(url, content=pixels[:100], headers=kind)
    assert no_header.status_code == 400 and "no header line" in no_header.json()["error"]
    bad = httpx.post(url, content=header({"problem_id": pid, "nbytes": -1}), headers=kind)
    assert bad.status_code == 400 and "items.0.nbytes" in bad.json()["error"]
    png = encode_png(problem.answer)
    small = {"problem_id": pid, "nbytes": 30, "shape": [2, 5, 3]}
    body = header(raw, {"problem_id": pid, "nbytes": len(png)}, small) + pixels + png + b"\0" * 30
    results = httpx.post(url, content=body, headers=kind).json()["results"]
    assert [r["reward"] for r in results[:2]] == [1.0, 1.0]
    assert results[2]["reward"] is None and "image is 5x2 but the answer is 256x256" in results[2]["error"]
    _healthy(start_service_once)
