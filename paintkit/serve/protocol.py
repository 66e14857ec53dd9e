"""The wire format of the reward service (served as OpenAPI at ``/openapi.json``; prose in
docs/serve.md). JSON out; images in as PNG bytes or raw uint8 with their shape: base64
inside a JSON batch, the bare bytes after a one-line JSON header in a binary batch
(:data:`BINARY_BATCH`), or the bare bytes as the body of the single-image endpoint. Never
pickle."""

from __future__ import annotations

from itertools import accumulate
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Fit = Literal["exact", "cover", "stretch"]
#: Content type of a binary batch: a :class:`BinaryBatchHeader` as one line of JSON, ``\n``,
#: then each item's bytes, back to back in item order.
BINARY_BATCH = "application/x-paintkit-batch"


class ImageIn(BaseModel):
    """One image: ``png`` (base64 of a PNG file), ``raw`` (base64 of ``H * W * 3`` uint8
    RGB bytes, row-major) with ``shape`` ``[H, W, 3]``, ``svg`` (the text of an SVG a
    code-editing model wrote, drawn under the benchmark's pixel rules; docs/svg.md) or
    ``state`` (an edited chart state, drawn by the chart renderer)."""

    model_config = ConfigDict(extra="forbid")
    png: str | None = None
    raw: str | None = None
    shape: list[int] | None = None
    svg: str | None = None
    state: dict | None = None


class ItemIn(BaseModel):
    """One image to score against the problem ``problem_id`` names."""

    model_config = ConfigDict(extra="forbid")
    problem_id: str = Field(examples=["paintbench-translation-baseline@256x256-amount-000000"])
    image: ImageIn


class BatchRequest(BaseModel):
    """Many images in one request. ``fit``: what to do with an image whose size is not its
    answer's (``exact``: that item's error); ``tolerance``: None for the mIoU over
    t = 0..10, else IoU at t; ``figures``: also return the 11 per-tolerance IoUs."""

    model_config = ConfigDict(extra="forbid")
    items: list[ItemIn]
    fit: Fit = "exact"
    tolerance: int | None = Field(default=None, ge=0, le=10)
    figures: bool = False


class BinaryItemIn(BaseModel):
    """One image of a binary batch: ``nbytes`` bytes after the header (those of the items
    before it skipped); ``shape`` ``[H, W, 3]`` for raw uint8 RGB, absent for a PNG."""

    model_config = ConfigDict(extra="forbid")
    problem_id: str
    nbytes: int = Field(ge=0)
    shape: list[int] | None = None


class BinaryBatchHeader(BaseModel):
    """The first line of a binary batch (:data:`BINARY_BATCH`); fields as in
    :class:`BatchRequest`."""

    model_config = ConfigDict(extra="forbid")
    items: list[BinaryItemIn]
    fit: Fit = "exact"
    tolerance: int | None = Field(default=None, ge=0, le=10)
    figures: bool = False


class BatchTooLarge(ValueError):
    """A batch with more items than the service takes in one request (``--max-items``)."""


#: Each item's one ``problem_id`` key as JSON writers put it (no space before the colon).
#: Inside a JSON string a quote is escaped, so these bytes are always a key.
_ITEM_KEY = b'"problem_id":'


def check_item_count(items, limit: int) -> None:
    """:class:`BatchTooLarge` when a batch holds more than ``limit`` items: ``items`` the
    parsed list, or the body's bytes before parsing (each ``"problem_id":`` key counted, a
    byte search: a batch too large is refused before its items are parsed; one written
    another way is counted again once parsed)."""
    count = items.count(_ITEM_KEY) if isinstance(items, bytes | bytearray) else len(items)
    if count > limit:
        raise BatchTooLarge(f"batch of {count} items exceeds the service's limit of {limit} "
                            f"items per request (--max-items): send it in requests of at "
                            f"most {limit}")


def split_binary_batch(body) -> tuple[bytes, memoryview]:
    """A binary batch's header line and a view (no copy) of the bytes after it;
    ``ValueError`` when there is no header line."""
    end = body.find(b"\n")
    if end < 0:
        raise ValueError("binary batch: no header line (JSON, then a newline, then the images)")
    return bytes(body[:end]), memoryview(body)[end + 1:]


def binary_payloads(header: BinaryBatchHeader, rest: memoryview) -> list[memoryview]:
    """Each item's bytes from what follows the header; ``ValueError`` unless their sizes add
    up to exactly that."""
    sizes = [item.nbytes for item in header.items]
    if sum(sizes) != len(rest):
        raise ValueError(f"binary batch: items declare {sum(sizes)} bytes, the body has "
                         f"{len(rest)} after the header")
    offsets = [0, *accumulate(sizes)]
    return [rest[a:b] for a, b in zip(offsets[:-1], offsets[1:], strict=True)]


class ItemResult(BaseModel):
    """Per item: ``reward`` (float32 value as a JSON number), ``iou`` when figures were
    asked for, or ``error`` (one line) and no reward."""

    problem_id: str
    reward: float | None = None
    iou: list[float] | None = None
    error: str | None = None


class BatchResponse(BaseModel):
    metric_version: int
    results: list[ItemResult]


class ScoreResponse(BaseModel):
    """The single-image endpoint's answer."""

    metric_version: int
    problem_id: str
    reward: float
    iou: list[float] | None = None


class ErrorResponse(BaseModel):
    """Any refusal or failure: one line, with the metric version."""

    error: str
    metric_version: int


class Health(BaseModel):
    """``status``: ``ok``; ``degraded`` when problem files of ``--benchmarks`` could not be
    read (each listed in ``damaged``; every other problem is served); ``starting`` (503)
    while warming up."""

    status: Literal["ok", "degraded", "starting"]
    metric_version: int
    device: str
    paintkit: str
    #: batches this process scores at once (``--score-threads``)
    score_threads: int
    #: most items one batch request may hold (``--max-items``)
    max_items: int
    #: largest request body, bytes (``--max-mb``): RewardClient cuts a batch to fit
    max_body_bytes: int
    #: ``"<path under the tree> (why)"`` of each problem file that could not be read
    damaged: list[str] = []
