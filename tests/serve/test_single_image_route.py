"""The single-image endpoint's fast path answers exactly as the FastAPI route does.

A request with an extra query parameter (``via=route``, which FastAPI ignores) is not plain,
so the route answers it: each request below is sent both ways and the two answers must be
the same status and the same bytes. ``fast_answers`` shows which way each one went.
"""

from __future__ import annotations

import io

import httpx
import numpy as np
import pytest
from PIL import Image

from paintkit.serve.options import ServeOptions
from paintkit.serve.single_image_route import plain_parameters, route_path


def _png(image: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="PNG")
    return buffer.getvalue()


def _both_ways(url: str, service, path: str, query: str, body: bytes, kind: str):
    """(fast answer, route answer, whether the fast path took the first)."""
    before = service.fast_answers
    fast = httpx.post(f"{url}{path}?{query}", content=body, headers={"content-type": kind})
    took = service.fast_answers - before
    joined = f"{query}&via=route" if query else "via=route"
    routed = httpx.post(f"{url}{path}?{joined}", content=body, headers={"content-type": kind})
    assert service.fast_answers - before == took, "the route's request went the fast way"
    return fast, routed, took == 1


def test_plain_requests_get_the_routes_answer_byte_for_byte(start_service, problems):
    running = start_service()
    problem = problems[0]
    pid = problem.metadata["problem_id"]
    h, w, _ = problem.answer.shape
    noisy = problem.answer.copy()
    noisy[::7, ::5] = 255 - noisy[::7, ::5]
    raw, octet = noisy.tobytes(), "application/octet-stream"
    cases = [  # path, query, body, content type, fast path expected
        (f"/v1/score/{pid}", f"shape={h},{w},3", raw, octet, True),
        (f"/v1/score/{pid}", f"shape={h},{w},3&tolerance=3&figures=true&fit=exact", raw, octet,
         True),
        (f"/v1/score/{pid}", "figures=1", _png(noisy), "image/png", True),
        (f"/v1/score/{pid}", f"shape={h // 2},{w},3", raw[:len(raw) // 2], octet, True),  # 422
        (f"/v1/score/{pid}", f"shape={h},{w},3&fit=cover", raw[:-3], octet, True),  # 422
        ("/v1/score/paintbench-nosuch@256x256-amount-000000", f"shape={h},{w},3", raw, octet,
         True),  # 422, unknown problem
        (f"/v1/score/{pid}", "shape=a,b", raw, octet, True),  # 400 from the shared code
        (f"/v1/score/{pid}", "", raw, "text/plain", True),  # 415
        # not plain: FastAPI validates (or coerces) them, so they go on to the route
        (f"/v1/score/{pid}", f"shape={h},{w},3&tolerance=11", raw, octet, False),  # 400
        (f"/v1/score/{pid}", f"shape={h},{w},3&tolerance=03", raw, octet, False),
        (f"/v1/score/{pid}", f"shape={h},{w},3&figures=yes", raw, octet, False),
        (f"/v1/score/{pid}", f"shape={h},{w},3&fit=nearest", raw, octet, False),  # 400
        (f"/v1/score/{pid}", f"shape={h},{w},3&tolerance=2&tolerance=3", raw, octet, False),
    ]
    statuses = set()
    for path, query, body, kind, fast in cases:
        answer, routed, took = _both_ways(running.url, running.service, path, query, body, kind)
        assert took == fast, (query, kind)
        assert (answer.status_code, answer.content) == (routed.status_code, routed.content), \
            (query, kind)
        assert answer.headers["content-type"] == routed.headers["content-type"]
        statuses.add(answer.status_code)
    assert statuses == {200, 400, 415, 422}


def test_other_paths_and_methods_go_to_the_app(start_service, problems):
    running = start_service()
    pid = problems[0].metadata["problem_id"]
    before = running.service.fast_answers
    assert httpx.post(f"{running.url}/v1/score/{pid}/more", content=b"x").status_code == 404
    assert httpx.get(f"{running.url}/v1/score/{pid}").status_code == 405
    assert httpx.post(f"{running.url}/v1/score/", content=b"x").status_code == 307  # the app's
    assert running.service.fast_answers == before


def test_a_failure_in_the_fast_path_is_the_apps_500(start_service, problems, monkeypatch):
    running = start_service()
    problem = problems[0]
    pid = problem.metadata["problem_id"]
    h, w, _ = problem.answer.shape
    kind = {"content-type": "application/octet-stream"}

    async def broken(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(running.service, "prepare_item", broken)
    for query in (f"shape={h},{w},3", f"shape={h},{w},3&via=route"):
        answer = httpx.post(f"{running.url}/v1/score/{pid}?{query}",
                            content=problem.answer.tobytes(), headers=kind)
        assert answer.status_code == 500
        assert answer.json()["error"] == "scoring failed: RuntimeError: boom second line"
    monkeypatch.undo()
    ok = httpx.post(f"{running.url}/v1/score/{pid}?shape={h},{w},3",
                    content=problem.answer.tobytes(), headers=kind)
    assert ok.status_code == 200 and ok.json()["reward"] == 1.0  # still serving


@pytest.mark.parametrize("query, expected", [
    (b"", {"fit": "exact", "tolerance": None, "figures": False, "shape": None}),
    (b"shape=4,4,3&tolerance=10&figures=FALSE&fit=stretch",
     {"fit": "stretch", "tolerance": 10, "figures": False, "shape": "4,4,3"}),
    (b"tolerance=", None), (b"tolerance=-1", None), (b"figures=on", None), (b"x=1", None),
    (b"shape=1&shape=2", None),
])
def test_plain_parameters(query, expected):
    assert plain_parameters(query) == expected


def test_route_path_drops_the_mount_prefix():
    assert route_path({"path": "/reward/v1/score/k", "root_path": "/reward"}) == "/v1/score/k"
    assert route_path({"path": "/rewards/v1/score/k", "root_path": "/reward"}) == \
        "/rewards/v1/score/k"
    assert route_path({"path": "/v1/score/k", "root_path": ""}) == "/v1/score/k"


def test_the_batch_wait_defaults_to_none_on_the_cpu():
    import torch

    assert ServeOptions().batch_wait_ms(torch.device("cpu")) == 0.0
    assert ServeOptions().batch_wait_ms(torch.device("cuda")) == 5.0
    assert ServeOptions(max_wait_ms=2).batch_wait_ms(torch.device("cpu")) == 2.0
    with pytest.raises(ValueError, match="max_wait_ms"):
        ServeOptions(max_wait_ms=-1)
