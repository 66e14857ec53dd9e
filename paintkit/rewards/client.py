"""``RewardClient``: a ``paintkit serve`` reward service from Python, synchronous or asyncio.

One client keeps its connections open (a thread-safe pool of the standard library's
``http.client`` connections, :mod:`paintkit.rewards.connections`); the asyncio methods
run the same requests in the client's own threads (the GIL is released while bytes move),
so a trainer's event loop never blocks on one. A raw image goes out as the array's own
memory (no ``tobytes``, no join into a request buffer). A request answered 408, 429 or 5xx,
or that fails to connect or times out, is retried ``max_retries`` times, waiting
``retry_backoff * 2**attempt`` seconds, or what the server's ``Retry-After`` says (capped at
:data:`MAX_RETRY_AFTER`); then the client raises :class:`RemoteRewardError`. An item the
service refuses (unknown key, wrong size) raises ``ValueError`` naming it. A failure is
never a reward of 0.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import math
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode, urlsplit

import numpy as np

from paintkit.io.png_encode import encode_png
from paintkit.io.redact import MASK, redact_url_text
from paintkit.metrics.coerce import as_images, is_tensor, tensor_to_uint8_nhwc
from paintkit.metrics.fit import DEFAULT_FIT, check_fit
from paintkit.rewards._batches import BINARY_BATCH as BINARY_BATCH  # public here too
from paintkit.rewards._batches import (
    Piece,
    binary_body,
    binary_piece,
    body_size,
    json_body,
    json_piece,
    spans,
)
from paintkit.rewards.answers import ANSWER_BASE_BYTES as ANSWER_BASE_BYTES
from paintkit.rewards.answers import ITEM_ANSWER_BYTES as ITEM_ANSWER_BYTES
from paintkit.rewards.answers import (
    RemoteRewardError,
    answer_limit,
    batch_rewards,
    check_reward,
    load_answer,
    single_result,
)
from paintkit.rewards.connections import AnswerTooLarge, ConnectionPool, Response, http_url

if TYPE_CHECKING:
    from paintkit.types import ImageBatch, ImageLike

_JSON = {"content-type": "application/json"}
#: Environment variable holding the service's bearer token (read by client and server).
TOKEN_ENV = "PAINTKIT_SERVE_TOKEN"
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
#: Longest wait a server's ``Retry-After`` may ask for (seconds).
MAX_RETRY_AFTER = 30.0
#: Seconds an attempt may take in all, unless told otherwise.
DEFAULT_TIMEOUT = 120.0
def to_hwc_uint8(image: ImageLike, where: str = "image") -> np.ndarray:
    """uint8 ``(H, W, 3)`` host pixels from a tensor (``(C, H, W)``, ``(1, C, H, W)``,
    ``(H, W, C)``; uint8 or float in [0, 1]), an array or a PIL image."""
    if is_tensor(image):
        if image.ndim == 4:
            if image.shape[0] != 1:
                raise ValueError(f"{where}: expected one image, got a batch of {image.shape[0]}")
            image = image[0]
        pixels = tensor_to_uint8_nhwc(image.detach().cpu(), where, numba=False)[0]
        return np.ascontiguousarray(pixels.numpy())
    if isinstance(image, np.ndarray) and image.ndim == 3 and image.shape[0] in (1, 3, 4) and \
            image.shape[-1] not in (3, 4):
        image = image.transpose(1, 2, 0)  # CHW
    return np.ascontiguousarray(as_images([image], where)[0])


def encode_item(problem_id: str, image: np.ndarray, encoding: str) -> bytes:
    """One request item as JSON bytes: ``{"problem_id", "image": {"raw", "shape"} | {"png"}}``."""
    return json_piece(problem_id, image, encoding).item


def retry_delay(response: Response | None, attempt: int,
                backoff: float) -> float:
    """Seconds to wait before retry ``attempt + 1``: the server's ``Retry-After`` (seconds,
    at most :data:`MAX_RETRY_AFTER`) when it gives a finite number >= 0, else exponential
    backoff (a ``Retry-After`` of ``nan``, ``-5``, a date or garbage counts as none)."""
    header = None if response is None else response.headers.get("retry-after")
    if header is not None:
        try:
            seconds = float(header)
        except ValueError:
            seconds = math.nan
        if math.isfinite(seconds) and seconds >= 0:
            return min(seconds, MAX_RETRY_AFTER)
    return backoff * (2 ** attempt)


def _json(response: Response) -> Any:
    return json.loads(response.data)


def _detail(response: Response) -> str:
    try:
        return str(_json(response).get("error"))
    except (ValueError, AttributeError):
        return response.data[:200].decode("utf-8", "replace")


_BEARER = re.compile(r"(?i)\b(bearer\s+)[^\s\"',;]+")


class _TooLarge(RemoteRewardError):
    """A request answered 413: more than the service takes at once."""


class RewardClient:
    """Client of a ``paintkit serve`` service.

    Args:
        server_url: e.g. ``"http://127.0.0.1:8000"``.
        token: the service's bearer token (default: ``$PAINTKIT_SERVE_TOKEN``).
        max_retries, retry_backoff: retries after the first attempt, and the first wait (s).
        timeout: seconds an attempt may take in all (to connect, send the images and read
            the answer: a server that drips its answer is given up on at this deadline).
        encoding: ``"raw"`` (uint8 bytes: no encode/decode, best on a fast network) or
            ``"png"`` (lossless and smaller on the wire).
        fit: what the service does with an image of another size than its answer
            (``"exact"``, the default of every reward path: that item's error; ``"cover"``,
            ``"stretch"``; see :mod:`paintkit.metrics.fit`).
        batch: how :meth:`score` sends a batch: ``"binary"`` (a JSON header line, then the
            images' bytes as they are) or ``"json"`` (base64 inside JSON: 4/3 the bytes and
            several ms of encoding and decoding per MiB-sized image).
        max_connections: connections kept open, and requests the asyncio methods have in
            flight at once (more wait for a free one).

    Example (a service running)::

        with RewardClient("http://127.0.0.1:8000") as client:
            rewards = client.score(images, problem_ids)        # float32 (B,), batch endpoint
            value = client.score_one(image, problem_id)        # one image, bare bytes
            rewards = await client.ascore(images, problem_ids) # from asyncio
    """

    def __init__(self, server_url: str, *, token: str | None = None, max_retries: int = 2,
                 retry_backoff: float = 0.5, timeout: float = DEFAULT_TIMEOUT,
                 encoding: str = "raw", fit: str = DEFAULT_FIT, batch: str = "binary",
                 max_connections: int = 32) -> None:
        if max_retries < 0 or retry_backoff < 0:
            raise ValueError(f"max_retries and retry_backoff must be >= 0, got {max_retries}, "
                             f"{retry_backoff}")
        if encoding not in ("raw", "png"):
            raise ValueError(f"encoding must be 'raw' or 'png', got {encoding!r}")
        check_fit(fit)
        if batch not in ("binary", "json"):
            raise ValueError(f"batch must be 'binary' or 'json', got {batch!r}")
        if not isinstance(max_connections, int) or max_connections < 1:
            raise ValueError(f"max_connections must be an int >= 1, got {max_connections!r}")
        self.url = server_url.rstrip("/")
        self._base_path = http_url(self.url, "server_url").path
        self._secrets = [secret for secret in (token, urlsplit(self.url).password) if secret]
        self._where = f"reward service {self._redact(self.url)}"
        token = token if token is not None else os.environ.get(TOKEN_ENV)
        self._headers = {"authorization": f"Bearer {token}"} if token else {}
        self.max_retries, self.retry_backoff, self.timeout = max_retries, retry_backoff, timeout
        self.encoding, self.fit, self.batch = encoding, fit, batch
        self.max_connections = max_connections
        self._pool: ConnectionPool | None = None
        self._reported: tuple[int | None, int | None] | None = None  # /health's limits
        self._learned_body: int | None = None  # a body size answered 413, less one
        self._threads: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:  # never the token
        return (f"RewardClient({self._redact(self.url)!r}, encoding={self.encoding!r}, "
                f"fit={self.fit!r})")

    def _redact(self, text: str) -> str:
        """``text`` without the token, the URL's password or any bearer credential (a server
        may echo the request's headers in its error body)."""
        for secret in self._secrets:
            text = text.replace(secret, MASK)
        return _BEARER.sub(r"\1" + MASK, redact_url_text(text))

    # -- request building ----------------------------------------------------------------
    def _pieces(self, images: ImageBatch, problem_ids: Sequence[str]) -> list[Piece]:
        """Each item encoded once, for the batch kind the client sends."""
        piece = binary_piece if self.batch == "binary" else json_piece
        return [piece(pid, to_hwc_uint8(image, f"images[{k}]"), self.encoding)
                for k, (image, pid) in enumerate(zip(images, problem_ids, strict=True))]

    def _limits(self) -> tuple[int | None, int | None]:
        """The service's body and item limits per request (``/health``'s
        ``max_body_bytes`` and ``max_items``; None where it does not say), the body limit
        lowered to what a 413 taught."""
        if self._reported is None:
            try:
                health = self.health()
            except (RemoteRewardError, OSError, http.client.HTTPException):
                health = None  # asked again next time; a 413 still cuts the batch
            if isinstance(health, dict):
                self._reported = tuple(  # type: ignore[assignment]
                    v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None
                    for v in (health.get("max_body_bytes"), health.get("max_items")))
        body, items = self._reported if self._reported is not None else (None, None)
        if self._learned_body is not None:
            body = self._learned_body if body is None else min(body, self._learned_body)
        return body, items

    def _send_batch(self, pieces: list[Piece], ids: list[str], head: dict[str, Any],
                    first: int) -> list[tuple[np.ndarray, np.ndarray | None]]:
        """Rewards (and IoUs) of one request of ``pieces`` (items ``first`` on); answered
        413, cut in two and sent again."""
        limit = answer_limit(ids)
        try:
            if self.batch == "json":
                response = self.post("/v1/score", json_body(pieces, head), _JSON, limit)
            else:
                chunks, headers = binary_body(pieces, head)
                response = self.post("/v1/score", chunks, headers, limit)
        except _TooLarge as exc:
            if len(pieces) == 1:
                raise RemoteRewardError(
                    f"images[{first}] alone ({pieces[0].size} bytes) is more than the service "
                    f"takes in one request ({exc}): send encoding='png', or start the service "
                    f"with a larger --max-mb") from None
            half = len(pieces) // 2  # and later batches are cut as small as these halves
            size = max(body_size(pieces[:half]), body_size(pieces[half:]))
            self._learned_body = size if self._learned_body is None else \
                min(self._learned_body, size)
            return (self._send_batch(pieces[:half], ids[:half], head, first)
                    + self._send_batch(pieces[half:], ids[half:], head, first + half))
        found = batch_rewards(response.data, ids, head["figures"], self._where, self._redact)
        return [found if isinstance(found, tuple) else (found, None)]

    def _one(self, image: ImageLike, problem_id: str, tolerance: int | None
             ) -> tuple[str, memoryview | bytes, dict[str, str]]:
        """Path, body and headers of one image for the single-image endpoint (a raw body
        is the pixels' own memory)."""
        pixels = to_hwc_uint8(image, "solution_image")
        params: dict[str, Any] = {"fit": self.fit}
        if tolerance is not None:
            params["tolerance"] = tolerance
        if self.encoding == "raw":
            params["shape"] = ",".join(map(str, pixels.shape))
            body: memoryview | bytes = pixels.data.cast("B")
            kind = "application/octet-stream"
        else:
            body, kind = encode_png(pixels), "image/png"
        path = f"/v1/score/{quote(str(problem_id), safe='@')}?{urlencode(params)}"
        return path, body, {"content-type": kind}

    def _check(self, response: Response, attempt: int) -> Response | None:
        """None when ``response`` is to be retried; raises when it is final and bad."""
        if response.status == 200:
            return response
        if response.status in RETRY_STATUSES and attempt < self.max_retries:
            return None
        message = f"{self._where} answered HTTP {response.status}: {self._redact(_detail(response))}"
        if response.status in (400, 422):
            raise ValueError(message)
        if response.status == 413:
            raise _TooLarge(message)
        raise RemoteRewardError(message)

    # -- synchronous ---------------------------------------------------------------------
    def _connections(self) -> ConnectionPool:
        with self._lock:
            if self._pool is None:
                self._pool = ConnectionPool(self.url, maxsize=self.max_connections,
                                            timeout=self.timeout, headers=self._headers)
            return self._pool

    def post(self, path: str, body: bytes | memoryview | list,
             headers: dict[str, str] | None = None, limit: int | None = None) -> Response:
        """POST ``body`` to ``path`` with the retry policy; the final 200 response (its
        ``data`` read). ``body``: bytes or any buffer (sent as is), or a list of them sent
        one after the other (then ``headers`` must give its ``content-length``); ``limit``:
        most bytes of answer read (a longer one is :class:`RemoteRewardError`, not retried)."""
        pool = self._connections()
        for attempt in range(self.max_retries + 1):
            response = None
            try:
                response = pool.request("POST", self._base_path + path, body, headers, limit)
            except AnswerTooLarge as exc:
                raise RemoteRewardError(f"{self._where}: {exc}; refused (is server_url a "
                                        f"paintkit reward service?)") from None
            except (OSError, http.client.HTTPException) as exc:
                if attempt >= self.max_retries:
                    raise RemoteRewardError(f"{self._where}: {type(exc).__name__}: "
                                            f"{self._redact(str(exc))} (after {attempt + 1} "
                                            f"attempts)") from exc
            else:
                if self._check(response, attempt) is not None:
                    return response
            time.sleep(retry_delay(response, attempt, self.retry_backoff))
        raise AssertionError("unreachable")

    def score(self, images: ImageBatch, problem_ids: str | Sequence[str], *,
              tolerance: int | None = None, figures: bool = False
              ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """Rewards float32 ``(B,)`` of ``images`` (a batch tensor, or a list of tensors,
        arrays or PIL images), each against the problem its id names; with ``figures``
        also the IoUs ``(B, 11)``. A batch larger than the service takes in one request
        (its ``/health``'s ``max_body_bytes`` and ``max_items``, or a 413) goes as several,
        the rewards in the order of ``images``."""
        ids = _one_id_per_image(images, problem_ids)
        pieces = self._pieces(images, ids)
        head = {"fit": self.fit, "tolerance": tolerance, "figures": figures}
        max_body, max_items = self._limits() if len(pieces) > 1 else (None, None)
        parts = [part for a, b in spans(pieces, max_body, max_items)
                 for part in self._send_batch(pieces[a:b], ids[a:b], head, a)]
        rewards = np.concatenate([r for r, _ in parts]) if parts else np.zeros(0, np.float32)
        if figures:
            ious = [i for _, i in parts if i is not None]
            return rewards, (np.concatenate(ious) if ious else np.zeros((0, 11), np.float32))
        return rewards

    def score_one(self, image: ImageLike, problem_id: str, *,
                  tolerance: int | None = None) -> float:
        """One image's reward through the single-image endpoint (the body is the image)."""
        path, body, headers = self._one(image, problem_id, tolerance)
        answer = load_answer(self.post(path, body, headers, answer_limit([problem_id])).data,
                             self._where)
        value = single_result(answer, problem_id, self._where).get("reward")
        return float(np.float32(check_reward(value, f"{self._where}: reward")))

    def health(self) -> dict[str, Any]:
        try:
            response = self._connections().request("GET", self._base_path + "/health",
                                                   limit=ANSWER_BASE_BYTES)
        except AnswerTooLarge as exc:
            raise RemoteRewardError(f"{self._where}: /health: {exc}") from None
        return load_answer(response.data, self._where)

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
            threads, self._threads = self._threads, None
        if pool is not None:
            pool.close()
        if threads is not None:
            threads.shutdown(wait=False)

    def __enter__(self) -> RewardClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- asyncio -------------------------------------------------------------------------
    async def _in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in one of the client's threads (at most ``max_connections``)."""
        with self._lock:
            if self._threads is None:
                self._threads = ThreadPoolExecutor(self.max_connections,
                                                   thread_name_prefix="paintkit-reward-client")
            threads = self._threads
        return await asyncio.get_running_loop().run_in_executor(threads, fn, *args)

    async def apost(self, path: str, body: bytes | memoryview | list,
                    headers: dict[str, str] | None = None, limit: int | None = None) -> Response:
        """:meth:`post` for asyncio (in the client's threads)."""
        return await self._in_thread(self.post, path, body, headers, limit)

    async def ascore(self, images: ImageBatch, problem_ids: str | Sequence[str], *,
                     tolerance: int | None = None, figures: bool = False
                     ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """:meth:`score` for asyncio (encoding and request in the client's threads)."""
        return await self._in_thread(lambda: self.score(images, problem_ids,
                                                        tolerance=tolerance, figures=figures))

    async def ascore_one(self, image: ImageLike, problem_id: str, *,
                         tolerance: int | None = None) -> float:
        """:meth:`score_one` for asyncio (in the client's threads)."""
        return await self._in_thread(lambda: self.score_one(image, problem_id,
                                                            tolerance=tolerance))

    async def aclose(self) -> None:
        """:meth:`close` (for ``async with``-style code)."""
        self.close()


def _one_id_per_image(images: ImageBatch, problem_ids: str | Sequence[str]) -> list[str]:
    """``problem_ids`` as a list of strings, one per image (a lone string is one id)."""
    ids = [problem_ids] if isinstance(problem_ids, str) else [str(pid) for pid in problem_ids]
    if len(images) != len(ids):
        raise ValueError(f"problem_ids: expected one per image ({len(images)}), got {len(ids)}")
    return ids
