"""Request pacing and retries shared by the API editors.

:class:`RateLimiter` spaces request starts so that no more than ``rpm`` start in any
minute (all threads together). :class:`RetryPolicy` retries transient failures (HTTP 429,
5xx, timeouts, dropped connections) with exponential back-off and full jitter, up to a
fixed number of retries; the last failure is then reported as the problem's reason.
Concurrency itself is the runner's (``--concurrency`` threads).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


class RateLimiter:
    """At most ``rpm`` request starts per minute: start ``k`` waits until
    ``first + k * 60 / rpm``. ``rpm=None`` or ``0``: no limit. Thread-safe."""

    def __init__(self, rpm: float | None, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], object] = time.sleep) -> None:
        if rpm is not None and rpm < 0:
            raise ValueError(f"rpm: expected a positive number of requests per minute, got {rpm}")
        self.interval = 60.0 / rpm if rpm else 0.0
        self.clock, self.sleep = clock, sleep
        self._next: float | None = None
        self._lock = threading.Lock()

    def wait(self) -> None:
        if not self.interval:
            return
        with self._lock:
            now = self.clock()
            start = now if self._next is None or self._next < now else self._next
            self._next = start + self.interval
        if start > now:
            self.sleep(start - now)


class TransientError(Exception):
    """A failure worth retrying (rate limit, server error, timeout)."""


@dataclass
class RetryPolicy:
    """``retries`` extra attempts after the first; attempt ``k`` (1-based retry) waits a
    uniform random time in ``[0, min(max_delay, base_delay * 2**(k-1))]`` (full jitter),
    or the server's ``Retry-After`` when it gives one and it is longer."""

    retries: int = 5
    base_delay: float = 1.0
    max_delay: float = 60.0
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.retries < 0:
            raise ValueError(f"retries: expected 0 or more, got {self.retries}")
        self._random = random.Random(self.seed)

    def delay(self, retry: int, retry_after: float | None = None) -> float:
        cap = min(self.max_delay, self.base_delay * 2 ** (retry - 1))
        wait = self._random.uniform(0, cap)
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.max_delay))
        return wait

    def call(self, function: Callable[[], T],
             classify: Callable[[BaseException], tuple[bool, float | None]],
             limiter: RateLimiter | None = None,
             sleep: Callable[[float], object] = time.sleep) -> tuple[T, int]:
        """``function()`` with retries; returns ``(result, attempts)``.

        ``classify(exc)`` -> ``(transient, retry_after_seconds)``. A permanent error, or a
        transient one after the last retry, is raised with ``attempts`` set on it.
        """
        attempt = 0
        while True:
            attempt += 1
            if limiter is not None:
                limiter.wait()
            try:
                return function(), attempt
            except Exception as exc:
                transient, retry_after = classify(exc)
                if not transient or attempt > self.retries:
                    exc.attempts = attempt  # type: ignore[attr-defined]
                    raise
                sleep(self.delay(attempt, retry_after))


class AttemptTimeout(TimeoutError):
    """One request attempt ran past its total deadline (``--timeout``); transient."""


def call_with_deadline(function: Callable[[], T], seconds: float) -> T:
    """``function()``, or :class:`AttemptTimeout` once ``seconds`` have passed, whatever the
    call is doing (an HTTP client's timeout bounds each read, not the whole answer: a server
    that drips a byte at a time would hold it for ever).

    The call runs on a daemon thread; past the deadline it is abandoned (its result is
    dropped and its connection ends when the client's own read timeout or the server does).
    """
    box: list[tuple[bool, Any]] = []
    done = threading.Event()

    def run() -> None:
        try:
            box.append((True, function()))
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            box.append((False, exc))
        done.set()

    threading.Thread(target=run, name="paintkit-request", daemon=True).start()
    if not done.wait(seconds):
        raise AttemptTimeout(f"no complete answer within the {seconds:g} s deadline of one "
                             "request (--timeout)")
    ok, value = box[0]
    if ok:
        return value
    raise value


def retry_after_seconds(headers: Mapping[str, Any] | None) -> float | None:
    """The ``Retry-After`` header in seconds (a number; dates are ignored)."""
    if headers is None:
        return None
    try:
        value = headers.get("retry-after")
    except AttributeError:
        return None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
