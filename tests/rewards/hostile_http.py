"""A loopback HTTP server (127.0.0.1, a free port, in a thread of the test process) that
answers what a test tells it to: the hostile reward services the client must survive."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def _answer(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        self.server.seen.append((self.command, self.path, dict(self.headers), body))
        self.server.answer(self, body)

    do_GET = do_POST = _answer

    def send(self, status: int, body: bytes | dict | list, headers: dict[str, str] | None = None
             ) -> None:
        """Answer ``status`` with ``body`` (JSON when not bytes) and a Content-Length."""
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


class HostileServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, answer: Callable[[Handler, bytes], None]) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.answer = answer
        self.seen: list[tuple[str, str, dict[str, str], bytes]] = []
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        self.thread.join(10)


def batch_items(body: bytes) -> list[dict[str, Any]]:
    """The items of a binary or JSON batch body (their ``problem_id`` first)."""
    head = body.split(b"\n", 1)[0] if b"\n" in body else body
    return json.loads(head)["items"]


def results(*pairs: tuple[str, Any]) -> dict[str, Any]:
    """A batch answer: ``(problem_id, reward)`` per result, in the order given."""
    return {"metric_version": 1,
            "results": [{"problem_id": pid, "reward": value, "iou": None, "error": None}
                        for pid, value in pairs]}
