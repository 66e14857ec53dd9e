"""What every model adapter of ``paintkit run`` takes and returns.

The runner hands an adapter a batch of :class:`EditRequest` (the input image, the
instruction, a per-problem seed) and gets one :class:`EditResult` per request back, in
order: an image, optionally the model's text, or the reason it failed. Adapters are
:class:`EditModel` subclasses; a plain Python function becomes one through
:mod:`paintkit.run.callable_model`.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

from paintkit.io.images import ImageDecodeError, decode_rgb_bytes, rgb_from_array


@dataclass(frozen=True)
class EditRequest:
    """One problem as a model sees it.

    ``image``: the input as an RGB PIL image; ``instruction``: the text given to the model
    (with the planner's plan appended when ``--planner`` is used); ``seed``: derived from the
    run's ``--seed`` and the problem, so a problem gets the same seed whatever the batch,
    the order or the worker; ``key``: ``<Benchmark>/<task>/<NNNN>``, for messages.
    """

    image: Image.Image
    instruction: str
    seed: int
    key: str = ""


@dataclass
class EditResult:
    """The answer to one request: ``image`` (PIL image, uint8 array or encoded bytes) or
    ``error`` (a one-line reason); ``text``: the model's reasoning or reply, if any;
    ``usage``: token or image counts reported by a provider; ``attempts``: requests made."""

    image: Any = None
    text: str | None = None
    error: str | None = None
    usage: dict = field(default_factory=dict)
    attempts: int = 1


class EditModel:
    """Base class of the adapters. Subclasses set :attr:`name` and implement
    :meth:`edit_batch`; :meth:`describe` feeds the run manifest.

    ``batch_size``: problems per :meth:`edit_batch` call by default; ``concurrency``:
    batches in flight at once by default (API models raise it, local models keep 1).
    """

    name: str = "model"
    batch_size: int = 1
    concurrency: int = 1

    def edit_batch(self, requests: list[EditRequest]) -> list[EditResult]:
        raise NotImplementedError

    def describe(self) -> dict:
        """Model id, revision and every setting, for ``run_manifest.json``."""
        return {"name": self.name}

    def secrets(self) -> tuple[str, ...]:
        """Credentials the model holds (API keys), masked wherever the run records text."""
        return ()

    def usage_summary(self) -> dict:
        """Totals of what the provider reported (tokens, images), for the manifest."""
        return {}

    def close(self) -> None:
        """Release what the model holds (GPU memory, HTTP clients)."""


def problem_seed(run_seed: int, key: str) -> int:
    """A 32-bit seed for problem ``key`` from the run's seed (SHA-256, any process)."""
    digest = hashlib.sha256(f"paintkit-run|{run_seed}|{key}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def to_rgb_array(image: Any, where: str) -> np.ndarray:
    """uint8 ``(H, W, 3)`` from what an adapter returned: a PIL image (any mode), a uint8
    ``(H, W, 3|4)`` or ``(H, W)`` array, or encoded image bytes.

    Raises:
        ValueError: anything else, or bytes that do not decode (naming ``where``).
    """
    if isinstance(image, Image.Image):
        return np.asarray(image.convert("RGB"))
    if isinstance(image, bytes | bytearray | memoryview):
        try:
            return decode_rgb_bytes(bytes(image), where)
        except ImageDecodeError as exc:
            raise ValueError(str(exc)) from None
    if isinstance(image, np.ndarray):
        return rgb_from_array(image, where)
    raise ValueError(f"{where}: expected a PIL image, a uint8 array or image bytes, got "
                     f"{type(image).__name__}")


def png_bytes(image: Image.Image) -> bytes:
    """The image encoded as PNG (what API adapters upload)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
