"""Open paths (health, schema, the index) on a token-protected service: anyone may reach
them, so a body sent there is never read into memory."""

from __future__ import annotations

import socket
from urllib.parse import urlparse

import httpx


def _raw(url: str, request: bytes, timeout: float = 5.0) -> bytes:
    """What the service answers to ``request`` (sent as is) within ``timeout`` seconds."""
    address = urlparse(url)
    with socket.create_connection((address.hostname, address.port), timeout=timeout) as sock:
        sock.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        return answer


def test_a_body_to_an_open_path_is_refused_unread(start_service):
    service = start_service(token="s3cret", max_mb=64)
    # 60 MB promised, none sent: answered at once, not after reading (or waiting for) it
    for path in ("/health", "/openapi.json"):
        answer = _raw(service.url, f"GET {path} HTTP/1.1\r\nHost: x\r\n"
                                   f"Content-Length: 60000000\r\n\r\n".encode())
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    chunked = _raw(service.url, b"POST /health HTTP/1.1\r\nHost: x\r\n"
                                b"Transfer-Encoding: chunked\r\n\r\n10000\r\n")
    assert chunked.startswith(b"HTTP/1.1 413"), chunked[:200]
    refused = httpx.request("GET", service.url + "/health", content=b"x" * 1000)
    assert refused.status_code == 413
    assert refused.json()["error"] == "/health takes no request body; the body was not read"
    assert httpx.get(service.url + "/health").status_code == 200  # no body: as before
    scored = httpx.post(service.url + "/v1/score", content=b"{}",
                        headers={"content-type": "application/json"})
    assert scored.status_code == 401
