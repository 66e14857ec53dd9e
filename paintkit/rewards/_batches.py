"""How :meth:`RewardClient.score <paintkit.rewards.client.RewardClient.score>` cuts a batch
into requests the service takes: each request at most the service's body limit
(``max_body_bytes``) and item limit (``max_items``), as its ``/health`` reports them, the
items in their order. A request answered 413 anyway (a service that reports no limits, a
proxy with a lower one) is cut in two and sent again, and the limit it taught is kept.

An item is encoded once (:func:`binary_piece`, :func:`json_piece`); a request's body is its
items' pieces framed (:func:`binary_body`, :func:`json_body`), raw pixels still the arrays'
own memory.
"""

from __future__ import annotations

import binascii
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from paintkit.io.png_encode import encode_png

#: Content type of a binary batch (``paintkit.serve.protocol.BINARY_BATCH``).
BINARY_BATCH = "application/x-paintkit-batch"
#: Bytes of a request besides its items (the header's ``fit``, ``tolerance``, ``figures``).
HEAD_BYTES = 256


@dataclass(frozen=True)
class Piece:
    """One item of a batch, encoded: ``item`` its header entry (binary) or its JSON
    (``{"problem_id", "image"}``), ``data`` its image bytes (binary; None in JSON), and
    ``size`` what it adds to a request body."""

    item: Any
    data: bytes | memoryview | None
    size: int


def binary_piece(problem_id: str, pixels: np.ndarray, encoding: str) -> Piece:
    """An item of a binary batch: raw pixels as the array's own memory, or a PNG."""
    data: bytes | memoryview
    if encoding == "raw":
        data = pixels.data.cast("B")
        item: dict[str, Any] = {"problem_id": problem_id, "nbytes": data.nbytes,
                                "shape": list(pixels.shape)}
    else:
        data = encode_png(pixels)
        item = {"problem_id": problem_id, "nbytes": len(data)}
    return Piece(item, data, len(json.dumps(item)) + 2 + memoryview(data).nbytes)


def json_piece(problem_id: str, pixels: np.ndarray, encoding: str) -> Piece:
    """An item of a JSON batch: ``{"problem_id", "image": {"raw", "shape"} | {"png"}}``.

    Written directly (base64 needs no escaping): serialising a 4 MiB string through
    ``json.dumps`` would cost as much as encoding it.
    """
    data: bytes | memoryview
    if encoding == "raw":
        data, extra = pixels.data, b',"shape":' + json.dumps(list(pixels.shape)).encode()
    elif encoding == "png":
        data, extra = encode_png(pixels), b""
    else:
        raise ValueError(f"encoding must be 'raw' or 'png', got {encoding!r}")
    item = b"".join((b'{"problem_id":', json.dumps(problem_id).encode(), b',"image":{"',
                     encoding.encode(), b'":"', binascii.b2a_base64(data, newline=False), b'"',
                     extra, b"}}"))
    return Piece(item, None, len(item) + 1)


def binary_body(pieces: Sequence[Piece], head: dict[str, Any]
                ) -> tuple[list[bytes | memoryview], dict[str, str]]:
    """A binary batch of ``pieces``: the header line and each image's bytes as separate
    chunks, and its headers (with the Content-Length)."""
    line = json.dumps({"items": [p.item for p in pieces], **head}).encode() + b"\n"
    chunks: list[bytes | memoryview] = [line, *(p.data for p in pieces if p.data is not None)]
    size = sum(memoryview(c).nbytes for c in chunks)
    return chunks, {"content-type": BINARY_BATCH, "content-length": str(size)}


def json_body(pieces: Sequence[Piece], head: dict[str, Any]) -> bytes:
    """A JSON batch of ``pieces``."""
    start = json.dumps(head)[:-1].encode()
    return b"".join((start, b',"items":[', b",".join(p.item for p in pieces), b"]}"))


def spans(pieces: Sequence[Piece], max_body: int | None, max_items: int | None
          ) -> list[tuple[int, int]]:
    """``(start, end)`` of each request, in order: as many items as fit in ``max_body``
    bytes and ``max_items`` items (None: no limit). An item larger than the limit alone
    is a request of its own (the service says why it refuses it)."""
    out: list[tuple[int, int]] = []
    start, size = 0, HEAD_BYTES
    for k, piece in enumerate(pieces):
        full = (max_items is not None and k - start >= max_items) or \
            (max_body is not None and size + piece.size > max_body)
        if full and k > start:
            out.append((start, k))
            start, size = k, HEAD_BYTES
        size += piece.size
    if start < len(pieces) or not out:
        out.append((start, len(pieces)))
    return out


def body_size(pieces: Sequence[Piece]) -> int:
    """What a request of ``pieces`` weighs, as :func:`spans` counts it."""
    return HEAD_BYTES + sum(p.size for p in pieces)
