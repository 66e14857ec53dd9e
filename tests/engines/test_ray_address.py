"""A Ray address that accepts TCP but is not Ray fails in bounded time with one line, instead
of hanging ``ray.init`` (which has no deadline of its own); a gRPC server, as Ray's GCS and
client server are, passes the check."""

from __future__ import annotations

import socket
import threading
import time
from concurrent import futures

import pytest

from paintkit.cli.main import main
from paintkit.engines import ray_engine


@pytest.fixture
def server(request):
    """A loopback TCP server that accepts and then does what ``request.param`` says:
    ``silent`` (reads, never answers) or ``http`` (answers as an HTTP/1.1 server)."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()
    accepted: list[socket.socket] = []

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            accepted.append(conn)
            if getattr(request, "param", "silent") == "http":
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for conn in accepted:
            conn.close()
        listener.close()


class _NoInit:
    """Stands for the ``ray`` module: reaching ``ray.init`` is the hang being guarded."""

    def init(self, **kwargs):
        raise AssertionError("ray.init was reached: against this address it never returns")


def test_a_silent_server_fails_within_the_deadline(server, monkeypatch):
    monkeypatch.setattr(ray_engine, "CONNECT_TIMEOUT_S", 0.5)
    start = time.monotonic()
    with pytest.raises(ValueError) as err:
        ray_engine.connect(_NoInit(), server, 1)
    assert time.monotonic() - start < 3
    line = str(err.value)
    assert server in line and "does not answer as a Ray cluster" in line
    assert "no answer within 0.5 s" in line and "\n" not in line


@pytest.mark.parametrize("server", ["http"], indirect=True)
def test_a_server_that_speaks_another_protocol_is_named(server):
    with pytest.raises(ValueError, match="does not answer as a Ray cluster.*it answered b'HTTP"):
        ray_engine.check_reachable(server, timeout=2)


def test_a_grpc_server_passes_the_check():
    grpc = pytest.importorskip("grpc")  # Ray's own dependency
    made = grpc.server(futures.ThreadPoolExecutor(max_workers=1))
    port = made.add_insecure_port("127.0.0.1:0")
    made.start()
    try:
        ray_engine.check_reachable(f"127.0.0.1:{port}", timeout=5)
        ray_engine.check_reachable(f"ray://127.0.0.1:{port}", timeout=5)
    finally:
        made.stop(0)


def test_generate_at_a_silent_address_is_one_line(server, monkeypatch, tmp_path, capsys):
    pytest.importorskip("ray")
    monkeypatch.setattr(ray_engine, "CONNECT_TIMEOUT_S", 0.5)
    start = time.monotonic()
    code = main(["generate", "paintbench", "--out", str(tmp_path / "out"), "--tasks",
                 "translation", "--conditions", "baseline", "--per-cell", "1",
                 "--no-preservation", "--engine", "ray", "--address", server, "--quiet"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and time.monotonic() - start < 10
    assert len(err.splitlines()) == 1 and "does not answer as a Ray cluster" in err
    assert not (tmp_path / "out").exists()  # an unreachable cluster changes nothing
