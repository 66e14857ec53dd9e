"""``RewardClient``: a ``paintkit serve`` reward service from Python, synchronous or asyncio (httpx).

One client keeps its connections open (a connection pool; the asyncio side keeps one pool
per event loop). A request answered 408, 429 or 5xx, or that fails to connect or times out,
is retried ``max_retries`` times, waiting ``retry_backoff * 2**attempt`` seconds, or what
the server's ``Retry-After`` says (capped at :data:`MAX_RETRY_AFTER`); then the client
raises :class:`RemoteRewardError`. An item the service refuses (unknown key, wrong size)
raises ``ValueError`` naming it. A failure is never a reward of 0.
"""

from __future__ import annotations

import asyncio
import binascii
import json
import os
import threading
import time
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from paintkit.io.png_encode import encode_png
from paintkit.metrics.coerce import as_images, is_tensor, tensor_to_uint8_nhwc

if TYPE_CHECKING:
    import httpx

    from paintkit.types import ImageBatch, ImageLike

_JSON = {"content-type": "application/json"}
#: Environment variable holding the service's bearer token (read by client and server).
TOKEN_ENV = "PAINTKIT_SERVE_TOKEN"
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
#: Longest wait a server's ``Retry-After`` may ask for (seconds).
MAX_RETRY_AFTER = 30.0


class RemoteRewardError(RuntimeError):
    """The service could not be reached or failed after the retries."""


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
    """One request item as JSON bytes: ``{"problem_id", "image": {"raw", "shape"} | {"png"}}``.

    Written directly (base64 needs no escaping): serialising a 4 MiB string through
    ``json.dumps`` would cost as much as encoding it.
    """
    data: bytes | memoryview
    if encoding == "raw":
        data, extra = image.data, b',"shape":' + json.dumps(list(image.shape)).encode()
    elif encoding == "png":
        data, extra = encode_png(image), b""
    else:
        raise ValueError(f"encoding must be 'raw' or 'png', got {encoding!r}")
    return b"".join((b'{"problem_id":', json.dumps(problem_id).encode(), b',"image":{"',
                     encoding.encode(), b'":"', binascii.b2a_base64(data, newline=False), b'"',
                     extra, b"}}"))


def retry_delay(response: httpx.Response | None, attempt: int, backoff: float) -> float:
    """Seconds to wait before retry ``attempt + 1``: the server's ``Retry-After`` (seconds)
    when it gives one, else exponential backoff."""
    header = None if response is None else response.headers.get("retry-after")
    if header is not None:
        try:
            return min(max(float(header), 0.0), MAX_RETRY_AFTER)
        except ValueError:
            pass
    return backoff * (2 ** attempt)


def _detail(response: httpx.Response) -> str:
    try:
        return str(response.json().get("error"))
    except ValueError:
        return response.text[:200]


def _results(response: httpx.Response, problem_ids: Sequence[str], tolerance_figures: bool
             ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Rewards float32 ``(B,)`` (and IoUs ``(B, 11)``) from a batch response."""
    body = response.json()
    results = body["results"]
    if len(results) != len(problem_ids):
        raise RemoteRewardError(f"service answered {len(results)} results for {len(problem_ids)} items")
    errors = [f"{r['problem_id']}: {r['error']}" for r in results if r.get("error") is not None]
    if errors:
        raise ValueError(f"{len(errors)} of {len(results)} items not scored: " + "; ".join(errors[:5]))
    rewards = np.array([r["reward"] for r in results], dtype=np.float32)
    if tolerance_figures:
        return rewards, np.array([r["iou"] for r in results], dtype=np.float32)
    return rewards


class RewardClient:
    """Client of a ``paintkit serve`` service.

    Args:
        server_url: e.g. ``"http://127.0.0.1:8000"``.
        token: the service's bearer token (default: ``$PAINTKIT_SERVE_TOKEN``).
        max_retries, retry_backoff: retries after the first attempt, and the first wait (s).
        timeout: seconds per attempt.
        encoding: ``"raw"`` (uint8 bytes: no encode/decode, best on a fast network) or
            ``"png"`` (lossless and smaller on the wire).
        fit: what the service does with an image of another size than its answer
            (``"exact"``: that item's error, ``"cover"``, ``"stretch"``).

    Example (a service running)::

        with RewardClient("http://127.0.0.1:8000") as client:
            rewards = client.score(images, problem_ids)        # float32 (B,)
            rewards = await client.ascore(images, problem_ids) # from asyncio
    """

    def __init__(self, server_url: str, *, token: str | None = None, max_retries: int = 2,
                 retry_backoff: float = 0.5, timeout: float = 120.0, encoding: str = "raw",
                 fit: str = "exact") -> None:
        if max_retries < 0 or retry_backoff < 0:
            raise ValueError(f"max_retries and retry_backoff must be >= 0, got {max_retries}, "
                             f"{retry_backoff}")
        if encoding not in ("raw", "png"):
            raise ValueError(f"encoding must be 'raw' or 'png', got {encoding!r}")
        self.url = server_url.rstrip("/")
        token = token if token is not None else os.environ.get(TOKEN_ENV)
        self._headers = {"authorization": f"Bearer {token}"} if token else {}
        self.max_retries, self.retry_backoff, self.timeout = max_retries, retry_backoff, timeout
        self.encoding, self.fit = encoding, fit
        self._sync: httpx.Client | None = None
        self._async: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient] = \
            weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def __repr__(self) -> str:  # never the token
        return f"RewardClient({self.url!r}, encoding={self.encoding!r}, fit={self.fit!r})"

    # -- request building ----------------------------------------------------------------
    def _payload(self, images: ImageBatch, problem_ids: str | Sequence[str],
                 tolerance: int | None, figures: bool) -> tuple[bytes, list[str]]:
        """The batch request's JSON body and the item ids."""
        if isinstance(problem_ids, str):
            problem_ids = [problem_ids]
        problem_ids = [str(pid) for pid in problem_ids]
        if len(images) != len(problem_ids):
            raise ValueError(f"problem_ids: expected one per image ({len(images)}), got "
                             f"{len(problem_ids)}")
        items = [encode_item(pid, to_hwc_uint8(image, f"images[{k}]"), self.encoding)
                 for k, (image, pid) in enumerate(zip(images, problem_ids, strict=True))]
        head = json.dumps({"fit": self.fit, "tolerance": tolerance, "figures": figures})
        body = b"".join((head[:-1].encode(), b',"items":[', b",".join(items), b"]}"))
        return body, problem_ids

    def _check(self, response: httpx.Response, attempt: int) -> httpx.Response | None:
        """None when ``response`` is to be retried; raises when it is final and bad."""
        if response.status_code == 200:
            return response
        if response.status_code in RETRY_STATUSES and attempt < self.max_retries:
            return None
        message = f"reward service {self.url} answered HTTP {response.status_code}: {_detail(response)}"
        if response.status_code in (400, 422):
            raise ValueError(message)
        raise RemoteRewardError(message)

    # -- synchronous ---------------------------------------------------------------------
    def _client(self) -> httpx.Client:
        import httpx

        with self._lock:
            if self._sync is None:
                self._sync = httpx.Client(timeout=self.timeout, headers=self._headers)
            return self._sync

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        """POST with the retry policy; the final 200 response."""
        import httpx

        client = self._client()
        for attempt in range(self.max_retries + 1):
            response = None
            try:
                response = client.post(self.url + path, **kwargs)
            except (httpx.TransportError, httpx.TimeoutException) as exc:
                if attempt >= self.max_retries:
                    raise RemoteRewardError(f"reward service {self.url}: {type(exc).__name__}: "
                                            f"{exc} (after {attempt + 1} attempts)") from exc
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
        also the IoUs ``(B, 11)``."""
        body, ids = self._payload(images, problem_ids, tolerance, figures)
        return _results(self.post("/v1/score", content=body, headers=_JSON), ids, figures)

    def health(self) -> dict[str, Any]:
        return self._client().get(self.url + "/health").json()

    def close(self) -> None:
        if self._sync is not None:
            self._sync.close()
            self._sync = None

    def __enter__(self) -> RewardClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- asyncio -------------------------------------------------------------------------
    def _aclient(self) -> httpx.AsyncClient:
        import httpx

        loop = asyncio.get_running_loop()
        client = self._async.get(loop)
        if client is None or client.is_closed:
            client = httpx.AsyncClient(timeout=self.timeout, headers=self._headers,
                                       limits=httpx.Limits(max_connections=256))
            self._async[loop] = client
        return client

    async def apost(self, path: str, **kwargs: Any) -> httpx.Response:
        """:meth:`post` for asyncio."""
        import httpx

        client = self._aclient()
        for attempt in range(self.max_retries + 1):
            response = None
            try:
                response = await client.post(self.url + path, **kwargs)
            except (httpx.TransportError, httpx.TimeoutException) as exc:
                if attempt >= self.max_retries:
                    raise RemoteRewardError(f"reward service {self.url}: {type(exc).__name__}: "
                                            f"{exc} (after {attempt + 1} attempts)") from exc
            else:
                if self._check(response, attempt) is not None:
                    return response
            await asyncio.sleep(retry_delay(response, attempt, self.retry_backoff))
        raise AssertionError("unreachable")

    async def ascore(self, images: ImageBatch, problem_ids: str | Sequence[str], *,
                     tolerance: int | None = None, figures: bool = False
                     ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """:meth:`score` for asyncio (encoding runs in a worker thread)."""
        body, ids = await asyncio.to_thread(self._payload, images, problem_ids, tolerance, figures)
        return _results(await self.apost("/v1/score", content=body, headers=_JSON), ids, figures)

    async def ascore_one(self, image: ImageLike, problem_id: str, *,
                         tolerance: int | None = None) -> float:
        """One image's reward through the single-image endpoint (the body is the bytes)."""
        def body() -> tuple[bytes, str, str | None]:
            pixels = to_hwc_uint8(image, "solution_image")
            if self.encoding == "raw":
                return pixels.tobytes(), "application/octet-stream", ",".join(map(str, pixels.shape))
            return encode_png(pixels), "image/png", None

        data, kind, shape = await asyncio.to_thread(body)
        params: dict[str, str | int] = {"fit": self.fit}
        if shape is not None:
            params["shape"] = shape
        if tolerance is not None:
            params["tolerance"] = tolerance
        from urllib.parse import quote

        response = await self.apost(f"/v1/score/{quote(str(problem_id), safe='@')}", content=data,
                                    params=params, headers={"content-type": kind})
        return float(np.float32(response.json()["reward"]))

    async def aclose(self) -> None:
        client = self._async.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.aclose()
