"""``paintkit serve``: one command starts it; SIGTERM answers the requests in flight, then
shuts the application down."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time

import httpx

from paintkit.metrics.version import METRIC_VERSION


def test_serve_prints_url_answers_in_flight_requests_on_sigterm(problems):
    token = "cli-token-93b1"
    env = {**os.environ, "PAINTKIT_SERVE_TOKEN": token}
    process = subprocess.Popen(
        [sys.executable, "-m", "paintkit", "serve", "--port", "0", "--device", "cpu",
         "--max-wait-ms", "1500"], stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines = []
        deadline = time.monotonic() + 120
        while not any("paintkit serve: http://" in line for line in lines):
            assert time.monotonic() < deadline and process.poll() is None, "".join(lines)
            lines.append(process.stderr.readline())
        line = next(line for line in lines if "paintkit serve: http://" in line)
        assert f"metric version {METRIC_VERSION}" in line and "token required" in line
        url = re.search(r"http://127\.0\.0\.1:\d+", line).group(0)
        headers = {"authorization": f"Bearer {token}"}
        while httpx.get(url + "/health").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        problem = problems[0]
        answer = {}

        def in_flight():  # waits 1.5 s in the batcher: SIGTERM arrives meanwhile
            answer["response"] = httpx.post(
                f"{url}/v1/score/{problem.metadata['problem_id']}",
                headers={**headers, "content-type": "application/octet-stream"},
                content=problem.answer.tobytes(), params={"shape": "256,256,3"},
                timeout=60)

        thread = threading.Thread(target=in_flight)
        thread.start()
        time.sleep(0.5)
        process.send_signal(signal.SIGTERM)
        thread.join(60)
        assert answer["response"].status_code == 200 and answer["response"].json()["reward"] == 1.0
        # uvicorn re-raises the signal once it has shut down; paintkit then exits 143, as every
        # command does on SIGTERM, so a supervisor sees it
        assert process.wait(60) == 128 + signal.SIGTERM
        rest = process.stderr.read()
        assert "Application shutdown complete" in rest
        assert token not in "".join(lines) + rest
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_serve_help_lists_its_flags():
    done = subprocess.run([sys.executable, "-m", "paintkit", "serve", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    for flag in ("--benchmarks", "--host", "--port", "--token", "--cache-mb", "--max-batch",
                 "--max-wait-ms", "--max-mb"):
        assert flag in done.stdout
