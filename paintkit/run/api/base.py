"""What the API editors share: one request per problem, pacing, retries, usage totals."""

from __future__ import annotations

import base64
import os
import threading
import time

from paintkit.run.api.limits import (
    RateLimiter,
    RetryPolicy,
    call_with_deadline,
    retry_after_seconds,
)
from paintkit.run.interface import EditModel, EditRequest, EditResult

#: HTTP statuses retried besides 5xx: request timeout, conflict, too many requests.
TRANSIENT_STATUS = (408, 409, 429)


def api_key(variables: tuple[str, ...], given: str | None) -> str:
    """The API key: ``given`` or the first of ``variables`` set in the environment."""
    if given:
        return given
    for name in variables:
        value = os.environ.get(name)
        if value:
            return value
    raise ValueError(f"no API key: set {' or '.join(variables)} in the environment")


class NotJSONAnswer(ValueError):
    """The provider answered with something else than JSON (an HTML page from a proxy or
    gateway, often with status 200); transient: retried."""

    @classmethod
    def of(cls, body: object) -> NotJSONAnswer:
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else str(body)
        kind = "HTML" if text.lstrip()[:1] == "<" else "text"
        start = " ".join(text.split())[:120]
        return cls(f"the provider answered {kind}, not JSON" + (f": {start}" if start else ""))


def decode_b64(data: str | bytes) -> bytes:
    if isinstance(data, bytes):
        return data
    try:
        return base64.b64decode(data, validate=True)
    except ValueError as exc:
        raise ValueError(f"the response's image is not valid base64: {exc}") from None


def _status(exc: BaseException) -> int | None:
    for attr in ("status_code", "code", "status"):
        value = getattr(exc, attr, None)
        if isinstance(value, int):
            return value
    response = getattr(exc, "response", None)
    value = getattr(response, "status_code", None)
    return value if isinstance(value, int) else None


def classify(exc: BaseException) -> tuple[bool, float | None]:
    """(transient, Retry-After seconds) of a client exception: 429, 408, 409 and 5xx
    statuses, timeouts and dropped connections are transient; other errors are not."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    if isinstance(exc, NotJSONAnswer):
        return True, None
    if names & {"APITimeoutError", "APIConnectionError", "TimeoutException", "TimeoutError",
                "ConnectError", "ReadError", "RemoteProtocolError", "NetworkError",
                "ConnectionError"}:
        return True, None
    status = _status(exc)
    if status is not None and (status in TRANSIENT_STATUS or 500 <= status < 600):
        response = getattr(exc, "response", None)
        return True, retry_after_seconds(getattr(response, "headers", None))
    return False, None


def describe_error(exc: BaseException) -> str:
    """One line naming the error, its HTTP status and the attempts made."""
    status = _status(exc)
    text = " ".join(str(exc).split())[:300]
    attempts = getattr(exc, "attempts", 1)
    where = f"HTTP {status}: " if status is not None else ""
    return f"{type(exc).__name__}: {where}{text} (after {attempts} attempt(s))"


class ApiModel(EditModel):
    """Base of the API editors: :meth:`request` sends one problem; pacing, retries and
    usage totals are here. ``concurrency`` is the default of ``--concurrency``."""

    concurrency = 8
    usage_keys: tuple[str, ...] = ()

    def __init__(self, *, rpm: float | None = None, retries: int = 5, base_delay: float = 1.0,
                 max_delay: float = 60.0, timeout: float = 300.0,
                 concurrency: int | None = None) -> None:
        if timeout <= 0:
            raise ValueError(f"timeout: expected a positive number of seconds, got {timeout}")
        self.limiter = RateLimiter(rpm)
        self.policy = RetryPolicy(retries, base_delay, max_delay)
        self.rpm, self.timeout = rpm, timeout
        if concurrency:
            self.concurrency = concurrency
        self._lock = threading.Lock()
        self._totals = {"requests": 0, "retries": 0, "failed": 0, "images": 0,
                        "seconds": 0.0}

    #: The API key the client sends (set by the subclass); see :meth:`secrets`.
    key: str | None = None

    def request(self, request: EditRequest) -> EditResult:
        raise NotImplementedError

    def secrets(self) -> tuple[str, ...]:
        return (self.key,) if self.key else ()

    def _one(self, request: EditRequest) -> EditResult:
        start = time.perf_counter()
        try:
            result, attempts = self.policy.call(
                lambda: call_with_deadline(lambda: self.request(request), self.timeout),
                classify, self.limiter)
            result.attempts = attempts
        except Exception as exc:  # noqa: BLE001 - the problem's reason, retried next run
            result = EditResult(error=describe_error(exc), attempts=getattr(exc, "attempts", 1))
        with self._lock:
            totals = self._totals
            totals["requests"] += result.attempts
            totals["retries"] += result.attempts - 1
            totals["failed"] += result.error is not None
            totals["images"] += result.error is None and result.image is not None
            totals["seconds"] += time.perf_counter() - start
            for key, value in result.usage.items():
                if isinstance(value, int | float) and not isinstance(value, bool):
                    totals[key] = totals.get(key, 0) + value
        return result

    def edit_batch(self, requests: list[EditRequest]) -> list[EditResult]:
        return [self._one(r) for r in requests]

    def usage_summary(self) -> dict:
        with self._lock:
            totals = dict(self._totals)
        totals["seconds"] = round(totals["seconds"], 3)
        return totals

    def limits(self) -> dict:
        return {"rpm": self.rpm, "retries": self.policy.retries,
                "base_delay": self.policy.base_delay, "max_delay": self.policy.max_delay,
                "timeout": self.timeout}
