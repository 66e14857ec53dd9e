"""What a platform engineer meets first: ``GET /``, no blank ``/docs``, a clean stop on
SIGINT whether or not the shell has job control."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time

import httpx
import pytest

from paintkit._version import __version__


def test_the_index_says_what_this_is_and_docs_pages_are_not_served(start_service):
    service = start_service(token="t0ken-for-index")
    index = httpx.get(service.url + "/")
    assert index.status_code == 200  # open, like /health
    body = index.json()
    assert body["name"] == "paintkit reward service" and body["paintkit"] == __version__
    assert {"GET /health", "POST /v1/score", "POST /v1/score/{problem_id}"} <= set(body["routes"])
    for path in ("/docs", "/redoc"):  # Swagger UI / ReDoc come from a CDN: blank offline
        assert httpx.get(service.url + path).status_code in (401, 404)
    assert httpx.get(service.url + "/openapi.json").status_code == 200


def _start(ignore_sigint: bool):
    def preexec():
        if ignore_sigint:  # what a script without job control does to a background job
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    process = subprocess.Popen([sys.executable, "-m", "paintkit", "serve", "--port", "0",
                                "--device", "cpu", "--log-level", "warning"],
                               stderr=subprocess.PIPE, text=True, preexec_fn=preexec)
    deadline = time.monotonic() + 120
    line = ""
    while "paintkit serve: http://" not in line:
        assert time.monotonic() < deadline and process.poll() is None
        line = process.stderr.readline()
    return process, re.search(r"http://127\.0\.0\.1:\d+", line).group(0)


@pytest.mark.parametrize("ignore_sigint", [True, False])
def test_sigint_stops_with_a_servers_message(ignore_sigint):
    process, url = _start(ignore_sigint)
    try:
        deadline = time.monotonic() + 120
        while httpx.get(url + "/health").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        process.send_signal(signal.SIGINT)
        assert process.wait(60) == 130
        rest = process.stderr.read()
        assert "paintkit serve: interrupted; stopped after answering the requests in flight" in rest
        assert "half-written" not in rest
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
