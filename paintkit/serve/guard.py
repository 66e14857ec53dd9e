"""The ASGI middleware in front of the reward service: token, body limit, stalled bodies,
pickle.

Before the application sees a request, it

- answers 401 to a scoring request without ``Authorization: Bearer <token>`` when the
  service has a token (compared in constant time; the token is never logged or echoed);
- answers 413 to a request with a body on an open path (health, schema), without reading
  it: those paths take none, and anyone may reach them;
- answers 400 to a request with more than one ``Content-Type`` (or ``Content-Length``)
  header, without reading it: which one counts would depend on who reads it;
- answers 415 to a pickle body (by its content type), without reading it;
- answers 413 to a body over the limit, from ``Content-Length`` or while reading;
- answers 408 when the client sends nothing for ``body_timeout_s`` mid-body (other
  requests are served meanwhile: each connection is its own task);
- reads bodies of 64 KiB or more one at a time, in arrival order, within bounds
  (:mod:`paintkit.serve.sequential_bodies`);

then hands the application the whole body, already read: as ``scope["paintkit.body"]``
(:func:`request_body`: the chunks joined once, and ``np.frombuffer`` of it is the image
without another copy), and through ``receive`` for any other reader.
"""

from __future__ import annotations

import asyncio
import hmac
import json

from paintkit.metrics.version import METRIC_VERSION
from paintkit.serve.sequential_bodies import MIN_BYTES, BodyTurns

#: Paths anyone may read without the token (the index, health probes, the schema).
OPEN_PATHS = ("/", "/health", "/openapi.json")
PICKLE_TYPES = ("application/python-pickle", "application/x-python-pickle",
                "application/pickle", "application/x-pickle")


async def send_error(send, status: int, message: str, headers=()) -> None:
    """A one-line JSON error ``{"error": ..., "metric_version": ...}``."""
    body = json.dumps({"error": message, "metric_version": METRIC_VERSION}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *headers]})
    await send({"type": "http.response.body", "body": body})


BODY_KEY = "paintkit.body"


class BodyTimeout(Exception):
    """Nothing arrived for the body within the timeout."""


class BodyTooLarge(Exception):
    """The body outgrew the limit."""


if hasattr(asyncio, "timeout"):  # Python >= 3.11: one timer per body, moved on each chunk
    async def _receive_all(receive, take, timeout_s: float) -> bool:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout_s) as timer:
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return False
                    take(message.get("body", b""))
                    if not message.get("more_body", False):
                        return True
                    timer.reschedule(loop.time() + timeout_s)
        except TimeoutError:
            raise BodyTimeout from None
else:  # pragma: no cover - Python 3.10
    async def _receive_all(receive, take, timeout_s: float) -> bool:
        while True:
            try:
                message = await asyncio.wait_for(receive(), timeout_s)
            except asyncio.TimeoutError:
                raise BodyTimeout from None
            if message["type"] == "http.disconnect":
                return False
            take(message.get("body", b""))
            if not message.get("more_body", False):
                return True


async def read_body(receive, max_bytes: int, timeout_s: float) -> bytes | None:
    """The whole request body (None if the client disconnected): the chunks joined once.

    Memory grows with the bytes that arrived, never with what ``Content-Length`` promises
    (a client declaring 64 MiB and sending one byte holds one byte).

    Raises:
        BodyTimeout: no chunk for ``timeout_s`` seconds.
        BodyTooLarge: more than ``max_bytes`` bytes.
    """
    chunks, size = [], 0

    def take(chunk):
        nonlocal size
        size += len(chunk)
        if size > max_bytes:
            raise BodyTooLarge
        chunks.append(chunk)

    if not await _receive_all(receive, take, timeout_s):
        return None
    return b"".join(chunks)


def request_body(request):
    """The body :class:`GuardMiddleware` read (no copy), or None if it did not."""
    return request.scope.get(BODY_KEY)


class GuardMiddleware:
    """See the module docstring. ``token`` None: no token asked for; ``turns``: whose turn
    it is to read a large body (None: the middleware's own)."""

    def __init__(self, app, *, max_bytes: int, body_timeout_s: float, token: str | None = None,
                 turns: BodyTurns | None = None):
        self.app = app
        self.max_bytes = max_bytes
        self.body_timeout_s = body_timeout_s
        self.turns = turns if turns is not None else BodyTurns()
        self._token = None if token is None else f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope["headers"])  # one of each checked below; others: the last wins
        for name in (b"content-type", b"content-length"):
            if sum(1 for key, _ in scope["headers"] if key == name) > 1:
                return await send_error(send, 400, f"more than one {name.decode()} header: "
                                                   "send one")
        if scope["path"] in OPEN_PATHS:
            if headers.get(b"content-length", b"0") != b"0" or b"transfer-encoding" in headers:
                return await send_error(send, 413, f"{scope['path']} takes no request body; "
                                                   "the body was not read")
        elif self._token is not None and \
                not hmac.compare_digest(headers.get(b"authorization", b""), self._token):
            return await send_error(send, 401, "missing or wrong bearer token",
                                    [(b"www-authenticate", b"Bearer")])
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower().decode("latin-1")
        if kind in PICKLE_TYPES:
            return await send_error(send, 415, f"{kind} bodies are refused (never unpickled): send "
                                               "JSON, PNG or raw uint8 (docs/serve.md)")
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            return await send_error(send, 413, f"request body of {length.decode('latin-1')} bytes "
                                               f"exceeds the limit of {self.max_bytes}")
        release = await self.turns.take() if length is not None and \
            int(length) >= MIN_BYTES else None
        try:
            body = await read_body(receive, self.max_bytes, self.body_timeout_s)
        except BodyTimeout:
            return await send_error(send, 408, f"request body not received within "
                                               f"{self.body_timeout_s:g} s")
        except BodyTooLarge:
            return await send_error(send, 413, f"request body exceeds the limit of "
                                               f"{self.max_bytes} bytes")
        finally:
            if release is not None:
                release()
        if body is None:  # the client went away
            return None
        scope[BODY_KEY] = body
        delivered = False

        async def replay():
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)
