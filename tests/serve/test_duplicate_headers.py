"""Two ``Content-Type`` headers: refused the same way by the fast path and by FastAPI's
route, before the body is read."""

from __future__ import annotations

import io

import httpx
from PIL import Image


def test_two_content_types_are_refused_on_every_path(start_service, problems):
    service = start_service()
    problem = problems[0]
    pid = problem.metadata["problem_id"]
    png = io.BytesIO()
    Image.fromarray(problem.answer).save(png, format="PNG")
    raw = problem.answer.tobytes()
    pairs = [("image/png", "application/octet-stream"), ("application/octet-stream", "image/png"),
             ("image/png", "image/png")]
    answers = {}
    for query in ("?shape=256,256,3", "?shape=256,256,3&unknown=1"):  # fast path, then FastAPI
        for first, second in pairs:
            body = png.getvalue() if first == "image/png" else raw
            answer = httpx.post(f"{service.url}/v1/score/{pid}{query}", content=body,
                                headers=[("content-type", first), ("content-type", second)])
            answers[query, first, second] = (answer.status_code, answer.json()["error"])
    assert set(answers.values()) == {(400, "more than one content-type header: send one")}
    fast = service.service.fast_answers
    one = httpx.post(f"{service.url}/v1/score/{pid}", content=png.getvalue(),
                     headers={"content-type": "image/png"})
    assert one.status_code == 200 and service.service.fast_answers == fast + 1
