"""Keep-alive HTTP connections for :class:`~paintkit.rewards.client.RewardClient`: the
standard library's ``http.client``, pooled.

A trainer asks for a reward per image, many times a second, from many threads. Through
urllib3's pool each request of a 1024x1024 image cost the client 0.27-0.37 ms of Python;
``http.client`` alone costs 0.10-0.20 ms, and the whole client process 0.80-0.86 ms of
CPU per request instead of 1.09-1.10 (16 threads; docs/performance.md, "Reward service").
This module keeps only what the client needs around ``http.client``: a thread-safe stack
of idle connections, a check that an idle connection is still open before it is reused,
and one immediate retry on a new connection when a reused one turns out closed by the
server (its keep-alive ran out between two training steps). Every other failure is the
caller's to retry (:meth:`RewardClient.post`).

A request has one deadline, ``timeout`` seconds from its start: connecting, sending and
reading the answer all end there (each socket wait gets what is left), so a server that
drips its answer a byte a second is given up on at the deadline, not after a timeout per
byte. A request may also bound the answer's size (``limit``): a longer answer is refused
after reading at most ``limit + 1`` bytes (:class:`AnswerTooLarge`), so memory never grows
with what a server sends.
"""

from __future__ import annotations

import http.client
import io
import select
import ssl
import threading
import time
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any
from urllib.parse import SplitResult, urlsplit

from paintkit.io.redact import redact_url_text

#: What sending raises when the server closed the connection; it may have answered first.
CUT_WHILE_SENDING = (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)
#: What a reused connection raises when the server closed it while it sat idle.
STALE = (http.client.RemoteDisconnected, *CUT_WHILE_SENDING)


class AnswerTooLarge(Exception):
    """An answer longer than the request's ``limit`` (read no further)."""


def http_url(url: str, name: str = "url") -> SplitResult:
    """``url`` split, if it is ``http(s)://host[:port][/path]``; else ValueError naming
    ``name``."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{name}: expected http(s)://host[:port], got {redact_url_text(url)!r}")
    return parts


@dataclass(frozen=True)
class Response:
    """A whole HTTP response: ``status``, ``headers`` (case-insensitive ``get``) and the
    body ``data`` (bytes), read before the connection went back to the pool."""

    status: int
    headers: Any
    data: bytes


class _DeadlineReader(io.RawIOBase):
    """A socket's bytes until ``deadline`` (``time.monotonic()``): each read waits at most
    what is left, then :class:`TimeoutError`."""

    def __init__(self, sock: Any, deadline: float) -> None:
        super().__init__()
        self._sock, self._raw, self._deadline = sock, sock.makefile("rb", buffering=0), deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        _arm(self._sock, self._deadline)
        return self._raw.readinto(buffer)

    def close(self) -> None:
        self._raw.close()
        super().close()


class _DeadlineResponse(http.client.HTTPResponse):
    """An ``HTTPResponse`` whose status line, headers and body are read by the deadline."""

    def __init__(self, sock: Any, debuglevel: int = 0, method: str | None = None,
                 url: str | None = None, *, deadline: float) -> None:
        super().__init__(sock, debuglevel, method, url)
        plain, self.fp = self.fp, io.BufferedReader(_DeadlineReader(sock, deadline))
        plain.close()


def _arm(sock: Any, deadline: float) -> None:
    """Give ``sock``'s next wait what is left until ``deadline``; TimeoutError if nothing."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the request's deadline passed")
    if sock is not None:
        sock.settimeout(left)


def _timed(chunks: Iterable[Any], connection: http.client.HTTPConnection,
           deadline: float) -> Iterator[Any]:
    """``chunks`` sent one by one, each within what is left until ``deadline``."""
    for chunk in chunks:
        _arm(connection.sock, deadline)
        yield chunk


def closed_by_peer(connection: http.client.HTTPConnection) -> bool:
    """Whether an idle connection can no longer be used: no socket, or something to read
    (the server's end of stream, or bytes nobody asked for)."""
    sock = connection.sock
    if sock is None:
        return True
    try:
        if hasattr(select, "poll"):
            poller = select.poll()
            poller.register(sock, select.POLLIN)
            return bool(poller.poll(0))
        return bool(select.select([sock], [], [], 0)[0])
    except (OSError, ValueError):
        return True


class ConnectionPool:
    """``pool.request(method, path, body, headers)`` -> :class:`Response`, over at most
    ``maxsize`` idle keep-alive connections to ``url`` (more are opened while busy, and
    closed on return). Thread-safe.

    Args:
        url: ``http://host[:port]`` or ``https://...`` (certificates verified).
        maxsize: idle connections kept.
        timeout: seconds a request may take in all (to connect, send and read the answer).
        headers: sent with every request (a request's own win).
    """

    def __init__(self, url: str, *, maxsize: int, timeout: float,
                 headers: dict[str, str] | None = None) -> None:
        parts = http_url(url)
        self.scheme, self.host, self.port = parts.scheme, str(parts.hostname), parts.port
        self.maxsize, self.timeout = maxsize, timeout
        self.headers = dict(headers or {})
        self._tls = ssl.create_default_context() if self.scheme == "https" else None
        self.opened = 0  # connections opened so far (the tests read it)
        self._idle: list[http.client.HTTPConnection] = []
        self._closed = False
        self._lock = threading.Lock()
        # a pool nobody closed closes its idle connections when it is collected
        weakref.finalize(self, _close_all, self._idle)

    def _new(self) -> http.client.HTTPConnection:
        with self._lock:
            self.opened += 1
        if self._tls is not None:
            return http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout,
                                               context=self._tls)
        return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)

    def _take(self) -> tuple[http.client.HTTPConnection, bool]:
        """An idle connection still open (and True), or a new one (and False)."""
        while True:
            with self._lock:
                connection = self._idle.pop() if self._idle else None
            if connection is None:
                return self._new(), False
            if not closed_by_peer(connection):
                return connection, True
            connection.close()

    def _give_back(self, connection: http.client.HTTPConnection) -> None:
        with self._lock:
            if not self._closed and len(self._idle) < self.maxsize:
                self._idle.append(connection)
                return
        connection.close()

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None, limit: int | None = None) -> Response:
        """Send one request and read its whole response. ``body``: bytes, any buffer, or a
        list of them sent one after the other (then ``headers`` give ``content-length``);
        ``limit``: most bytes of answer body read (None: any).

        Raises:
            OSError, http.client.HTTPException: the request failed (a reused connection
                the server had closed is retried once on a new one first).
            AnswerTooLarge: the answer is longer than ``limit`` (its connection closed).
        """
        headers = {**self.headers, **(headers or {})}
        deadline = time.monotonic() + self.timeout
        connection, reused = self._take()
        try:
            return self._exchange(connection, method, path, body, headers, deadline, limit)
        except STALE:
            if not reused:
                raise
        return self._exchange(self._new(), method, path, body, headers, deadline, limit)

    def _exchange(self, connection: http.client.HTTPConnection, method: str, path: str,
                  body: Any, headers: dict[str, str], deadline: float,
                  limit: int | None) -> Response:
        try:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request's deadline passed")
            connection.timeout = left  # to connect, when it is new
            _arm(connection.sock, deadline)
            connection.response_class = partial(_DeadlineResponse,  # type: ignore[assignment]
                                                deadline=deadline)
            if isinstance(body, list):
                body = _timed(body, connection, deadline)
            try:
                connection.request(method, path, body=body, headers=headers)
            except CUT_WHILE_SENDING:
                # The server may have answered before the body was through (401 without the
                # token, 413 over the size limit) and closed: that answer is the result.
                response = _early_response(connection)
                if response is None:
                    raise
            else:
                response = connection.getresponse()
            answer = Response(response.status, response.headers, _read(response, limit))
        except BaseException:
            connection.close()
            raise
        if response.will_close:
            connection.close()
        else:
            self._give_back(connection)
        return answer

    def close(self) -> None:
        """Close the idle connections (those in use close when their request ends)."""
        with self._lock:
            self._closed = True
            idle = self._idle[:]
            self._idle.clear()
        _close_all(idle)


def _read(response: http.client.HTTPResponse, limit: int | None) -> bytes:
    """The body of ``response``, at most ``limit`` bytes (else :class:`AnswerTooLarge`,
    having read at most ``limit + 1``)."""
    if limit is None:
        return response.read()
    if response.length is not None and response.length > limit:
        raise AnswerTooLarge(f"the answer declares {response.length} bytes, more than the "
                             f"{limit} a result for this request can take")
    data = response.read(limit + 1)
    if len(data) > limit:
        raise AnswerTooLarge(f"the answer is longer than the {limit} bytes a result for this "
                             f"request can take")
    return data


def _early_response(connection: http.client.HTTPConnection
                    ) -> http.client.HTTPResponse | None:
    """The response a server sent before it closed a connection whose request body was
    still being sent, or None if it sent none (a stale connection: nothing to read)."""
    try:
        return connection.getresponse()
    except (OSError, http.client.HTTPException):
        return None


def _close_all(connections: list[http.client.HTTPConnection]) -> None:
    for connection in connections:
        connection.close()
