"""The client's keep-alive pool (``paintkit.rewards.connections``): a connection the server
closed while it sat idle (a keep-alive timeout between two training steps) is never an
error; other failures are; nothing outlives ``close``."""

from __future__ import annotations

import socket
import threading

import pytest

import paintkit.rewards.connections as connections
from paintkit.rewards.client import RemoteRewardError, RewardClient
from paintkit.rewards.connections import ConnectionPool


class _LoopbackServer:
    """A loopback HTTP/1.1 server of one thread: :meth:`handle` gets each accepted
    connection in turn (and the server closes it afterwards)."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.accepted = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            with conn:
                head = b""
                while b"\r\n\r\n" not in head:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    head += chunk
                if head:
                    self.handle(conn, head)

    def handle(self, conn, head: bytes) -> None:
        raise NotImplementedError

    def close(self):
        self.sock.close()


class _OneAnswerPerConnection(_LoopbackServer):
    """Answers one request per connection and then closes it, without saying so (no
    ``Connection: close``): the client keeps the connection as if it stayed open.
    ``hang_up`` instead closes a connection without answering."""

    def __init__(self, hang_up: bool = False):
        self.hang_up = hang_up
        super().__init__()

    def handle(self, conn, head: bytes) -> None:
        if self.hang_up:
            return
        length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), 0)
        body = head.split(b"\r\n\r\n", 1)[1]
        while len(body) < length:
            body += conn.recv(65536)
        answer = b'{"status": "ok", "got": %d}' % len(body)
        conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                     b"content-length: %d\r\n\r\n%s" % (len(answer), answer))


@pytest.fixture
def server():
    running = _OneAnswerPerConnection()
    yield running
    running.close()


def test_an_idle_connection_the_server_closed_is_replaced(server):
    pool = ConnectionPool(server.url, maxsize=2, timeout=5)
    for k in range(3):
        response = pool.request("POST", "/x", b"a" * (k + 1))
        assert response.status == 200 and response.data == b'{"status": "ok", "got": %d}' % (k + 1)
    assert pool.opened == server.accepted == 3  # each idle connection seen closed, and dropped


def test_a_reused_connection_found_closed_while_sending_is_retried_once_anew(server,
                                                                                monkeypatch):
    monkeypatch.setattr(connections, "closed_by_peer", lambda connection: False)
    pool = ConnectionPool(server.url, maxsize=2, timeout=5)
    bodies = [b"x" * 10, [b"head\n", memoryview(b"0123456789")], b"y" * (1 << 20)]
    for body in bodies:
        size = sum(memoryview(part).nbytes for part in body) if isinstance(body, list) \
            else len(body)
        response = pool.request("POST", "/x", body, {"content-length": str(size)})
        assert response.data == b'{"status": "ok", "got": %d}' % size
    # each later request reused the closed connection (the idle check is off), failed on
    # it and went through on a new one
    assert pool.opened == server.accepted == 3


def test_a_new_connection_that_fails_is_an_error_not_a_retry():
    hung = _OneAnswerPerConnection(hang_up=True)
    try:
        pool = ConnectionPool(hung.url, maxsize=2, timeout=5)
        with pytest.raises(connections.STALE):
            pool.request("POST", "/x", b"abc")
        assert pool.opened == 1
        client = RewardClient(hung.url, max_retries=1, retry_backoff=0)
        with pytest.raises(RemoteRewardError, match="after 2 attempts"):
            client.post("/v1/score", b"abc")
    finally:
        hung.close()


def test_connections_returned_after_close_are_closed(server):
    pool = ConnectionPool(server.url, maxsize=4, timeout=5)
    taken, _ = pool._take()
    pool.close()
    pool._give_back(taken)
    assert pool._idle == []


def test_a_pool_nobody_closed_closes_its_connections_when_collected(server):
    import gc
    import warnings

    pool = ConnectionPool(server.url, maxsize=2, timeout=5)
    pool.request("POST", "/x", b"abc")
    sock = pool._idle[0].sock
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        del pool
        gc.collect()
    assert sock.fileno() == -1  # closed
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]


def test_https_connections_verify_certificates_and_other_schemes_are_refused():
    import ssl

    connection = ConnectionPool("https://reward.example:8443", maxsize=1, timeout=1)._new()
    assert connection.host == "reward.example" and connection.port == 8443
    assert connection._context.verify_mode == ssl.CERT_REQUIRED  # no socket opened yet
    assert connection._context.check_hostname
    with pytest.raises(ValueError, match="http"):
        ConnectionPool("ftp://reward.example", maxsize=1, timeout=1)


class _AnswersBeforeTheBody(_LoopbackServer):
    """Reads a request's head, answers ``413`` at once and closes the connection with the
    body unread (what the service's guard does for a body over the limit or a request
    without its token): the client is still sending."""

    def handle(self, conn, head: bytes) -> None:
        answer = b'{"error": "request body too large"}'
        conn.sendall(b"HTTP/1.1 413 Content Too Large\r\ncontent-type: application/json"
                     b"\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
                     % (len(answer), answer))


def test_an_answer_sent_before_the_body_was_through_is_the_result():
    """64 MiB cannot sit in the sockets' buffers, so sending is cut when the server closes:
    the client reads the answer the server sent first instead of reporting a broken pipe
    (the service's 401 and 413 reached users as 'BrokenPipeError' or 'Connection reset')."""
    early = _AnswersBeforeTheBody()
    body = bytes(64 << 20)
    try:
        pool = ConnectionPool(early.url, maxsize=2, timeout=10)
        response = pool.request("POST", "/x", body)
        assert response.status == 413 and b"too large" in response.data
        client = RewardClient(early.url, max_retries=0)
        with pytest.raises(RemoteRewardError, match="HTTP 413: request body too large"):
            client.post("/v1/score", [body[:1 << 20], memoryview(body)[1 << 20:]],
                        {"content-length": str(len(body))})
    finally:
        early.close()
