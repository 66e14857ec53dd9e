"""Clusters as ``ray start --head`` makes them: with token authentication, a client without
the token gets one line saying what to set; with the token (or with auth disabled) it runs."""

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.support.generate_helpers import _alive, _descendants

pytest.importorskip("ray")

TOKEN = "0123456789abcdef0123456789abcdef"
_AUTH_VARS = ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")
#: Set in the head's environment: every process Ray starts for it inherits it.
HEAD_MARKER = "PAINTKIT_TEST_RAY_HEAD"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _env(home: Path, **auth: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in _AUTH_VARS}
    home.mkdir(parents=True, exist_ok=True)
    # RAY_ENABLE_...=0: everything on 127.0.0.1 (Ray otherwise swaps it for the network address)
    return {**env, "HOME": str(home), "RAY_USAGE_STATS_ENABLED": "0",
            "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", **auth}


def _processes_of(marker: str) -> set[int]:
    """Live processes whose command line or environment names ``marker``, and their
    descendants (a process that renames itself, ``ray::DashboardAgent``, overwrites both)."""
    named = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid() or not _alive(int(entry)):
            continue
        for part in ("cmdline", "environ"):
            try:
                with open(f"/proc/{entry}/{part}", "rb") as fh:
                    if marker.encode() in fh.read():
                        named.add(int(entry))
                        break
            except OSError:
                break
    return named.union(*(_descendants(pid) for pid in named))


@pytest.fixture(params=["token", pytest.param("disabled", marks=pytest.mark.slow)])
def head(request, tmp_path):
    """A one-CPU ``ray start --head`` on 127.0.0.1 in auth mode ``param``; stopped by id
    (the processes that name this head's own temp folder, or inherited it in HEAD_MARKER)."""
    temp = tempfile.mkdtemp(prefix="pkray", dir="/tmp")  # short: Ray's socket paths
    port = _free_port()
    auth = {"RAY_AUTH_MODE": request.param}
    if request.param == "token":
        auth["RAY_AUTH_TOKEN"] = TOKEN
    subprocess.run([sys.executable, "-m", "ray.scripts.scripts", "start", "--head",
                    f"--port={port}", "--num-cpus=1", "--include-dashboard=false",
                    "--node-ip-address=127.0.0.1", f"--temp-dir={temp}", "--disable-usage-stats",
                    f"--ray-client-server-port={_free_port()}"],  # not the fixed 10001
                   env={**_env(tmp_path / "head-home", **auth), HEAD_MARKER: temp}, check=True,
                   capture_output=True,
                   timeout=120)
    try:
        yield request.param, f"127.0.0.1:{port}"
    finally:
        _stop(temp)


def _stop(temp: str) -> None:
    """Stop every process of the head made with ``temp``: those naming it in their command
    line or in their environment (:data:`HEAD_MARKER`; the agents the raylet starts rename
    themselves, ``ray::DashboardAgent``, and the client server names no folder)."""
    pids: set[int] = set()
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids |= _processes_of(temp)  # the agents are the raylet's children until it dies
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        time.sleep(1)
    deadline = time.monotonic() + 10
    while (left := sorted(p for p in pids if _alive(p))) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, f"the Ray head left processes running: {left}"


def _generate(tmp_path: Path, address: str, **auth: str) -> subprocess.CompletedProcess:
    out = tmp_path / f"out-{len(list(tmp_path.iterdir()))}"
    return subprocess.run(
        [sys.executable, "-m", "paintkit.cli.main", "generate", "paintbench", "--out", str(out),
         "--tasks", "translation", "--conditions", "baseline", "--per-cell", "1",
         "--no-preservation", "--namespace", "auth", "--engine", "ray", "--address", address,
         "--quiet"],
        env=_env(tmp_path / "client-home", **auth), capture_output=True, text=True, timeout=180)


def test_clients_of_a_token_cluster_are_told_what_to_set(head, tmp_path):
    mode, address = head
    if mode == "token":
        plain = _generate(tmp_path, address)
        assert plain.returncode == 2, plain.stderr
        line = plain.stderr.strip().splitlines()[-1]
        assert "uses token authentication" in line and "RAY_AUTH_MODE=token" in line
        assert "RAY_AUTH_TOKEN" in line
        no_token = _generate(tmp_path, address, RAY_AUTH_MODE="token")
        assert no_token.returncode == 2
        assert "no token is set" in no_token.stderr and "RAY_AUTH_TOKEN" in no_token.stderr
        good = _generate(tmp_path, address, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=TOKEN)
    else:
        good = _generate(tmp_path, address)
    assert good.returncode == 0, good.stderr
    assert "[ray, 1 worker]" in good.stderr
