"""Batches that would make the service work for nothing: too many items, huge ``@nK``
counts; each refused before any item is decoded or any problem made."""

from __future__ import annotations

import base64
import json

import httpx
import numpy as np

from paintkit.serve import protocol


def _tiny_items(pid: str, n: int) -> list[dict]:
    raw = base64.b64encode(np.zeros((1, 1, 3), np.uint8).tobytes()).decode()
    return [{"problem_id": pid, "image": {"raw": raw, "shape": [1, 1, 3]}}] * n


def test_a_batch_over_max_items_is_413_before_any_item_is_looked_up(start_service, problems,
                                                                    monkeypatch):
    service = start_service(max_items=50)
    looked_up = []
    targets = service.service.targets
    real = targets.get
    monkeypatch.setattr(targets, "get", lambda pid: looked_up.append(pid) or real(pid))
    pid = problems[0].metadata["problem_id"]
    answer = httpx.post(service.url + "/v1/score", json={"items": _tiny_items(pid, 51)})
    assert answer.status_code == 413, answer.text
    assert answer.json()["error"] == (
        "batch of 51 items exceeds the service's limit of 50 items per request "
        "(--max-items): send it in requests of at most 50")
    # written with a space before each colon: counted once parsed, still before any work
    spaced = json.dumps({"items": _tiny_items(pid, 51)}, separators=(",", " : "))
    answer = httpx.post(service.url + "/v1/score", content=spaced,
                        headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "batch of 51 items" in answer.json()["error"]
    header = json.dumps({"items": [{"problem_id": pid, "nbytes": 3, "shape": [1, 1, 3]}] * 51})
    answer = httpx.post(service.url + "/v1/score", content=header.encode() + b"\n" + b"\0" * 153,
                        headers={"content-type": protocol.BINARY_BATCH})
    assert answer.status_code == 413 and "batch of 51 items" in answer.json()["error"]
    assert looked_up == []
    answer = httpx.post(service.url + "/v1/score", json={"items": _tiny_items(pid, 50)})
    assert answer.status_code == 200 and len(answer.json()["results"]) == 50
    assert httpx.get(service.url + "/health").status_code == 200


def test_the_default_limit_is_documented_and_on_the_cli():
    from paintkit.cli.main import build_parser
    from paintkit.serve.options import ServeOptions

    args = build_parser().parse_args(["serve"])
    assert args.max_items == ServeOptions().max_items == 1024
    from pathlib import Path

    assert "--max-items" in (Path(__file__).parents[2] / "docs" / "serve.md").read_text()


def test_a_key_counts_are_bounded_as_the_cli_does_before_anything_is_made(monkeypatch):
    import time

    import pytest

    import paintkit.sources
    from paintkit.suites.problem_keys import MAX_COUNT, ProblemKeyError, problem_from_key
    from paintkit.suites.variants import parse_counts

    with pytest.raises(ValueError, match=r"\[1, 500\]"):
        parse_counts([str(MAX_COUNT + 1)])  # the CLI's bound is the key's
    made = []
    real = paintkit.sources.get_source

    class Spy:  # a source that records what it is asked to make
        def __init__(self, source):
            self.source = source

        def __getattr__(self, name):
            return getattr(self.source, name)

        def problem(self, *args, **kwargs):
            made.append(args)

    def spy(name):
        return Spy(real(name))

    monkeypatch.setattr(paintkit.sources, "get_source", spy)
    for count in ("0", "501", "200000", "9" * 5000):
        key = f"paintbench-translation-baseline@n{count}-amount-000000"
        start = time.monotonic()
        with pytest.raises(ProblemKeyError, match=r"an object count must lie in 1\.\.500"):
            problem_from_key(key)
        assert time.monotonic() - start < 5  # refused at once (the first call imports)
    assert made == []


def test_the_service_refuses_a_huge_count_at_once(start_service, problems):
    service = start_service()
    raw = np.zeros((1024, 1024, 3), np.uint8).tobytes()
    answer = httpx.post(f"{service.url}/v1/score/paintbench-translation-baseline@n200000-amount-"
                        f"000000?shape=1024,1024,3", content=raw, timeout=10,
                        headers={"content-type": "application/octet-stream"})
    assert answer.status_code == 422
    assert "@n200000: an object count must lie in 1..500" in answer.json()["error"]
