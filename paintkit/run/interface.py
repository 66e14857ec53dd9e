"""What every model adapter of ``paintkit run`` takes and returns.

The runner hands an adapter a batch of :class:`EditRequest` (the input image, the
problem's reference images with their roles, the instruction, a per-problem seed) and gets
one :class:`EditResult` per request back, in order: an image, optionally the model's text,
or the reason it failed. Adapters are :class:`EditModel` subclasses; a plain Python
function becomes one through :mod:`paintkit.run.callable_model`. An adapter that takes one
image (:attr:`EditModel.max_images` 1, the default) is never handed a problem with
references: the runner records that problem's failure with :meth:`EditModel.refusal`'s
line instead of dropping a reference.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from PIL import Image

from paintkit.io.images import MAX_PIXELS, ImageDecodeError, decode_rgb_bytes, rgb_from_array


class ReferenceImage(NamedTuple):
    """One reference image of a problem: ``image``, an RGB PIL image, and ``role``, the
    lower-case name the problem's metadata gives it (``"style"``, ``"reference"``, ...).
    A tuple, so ``for image, role in references`` works as well as ``ref.image``."""

    image: Image.Image
    role: str


@dataclass(frozen=True)
class EditRequest:
    """One problem as a model sees it.

    ``image``: the input as an RGB PIL image (the source the edit applies to and the
    answer is scored against); ``references``: the problem's reference images, in the order
    the model gets them after the input (empty for a one-image problem; files
    ``NNN_reference_1.png``, ... and the metadata's ``references`` roles);
    ``instruction``: the text given to the model
    (with the planner's plan appended when ``--planner`` is used); ``seed``: derived from the
    run's ``--seed`` and the problem, so a problem gets the same seed whatever the batch,
    the order or the worker; ``key``: ``<Benchmark>/<task>/<NNNN>``, for messages;
    ``metadata``: the problem's metadata (its ``NNN.json``: ``problem_id``, ``task``,
    ``instruction``, ...), for a model that asks which problem it edits.
    """

    image: Image.Image
    instruction: str
    seed: int
    key: str = ""
    metadata: dict = field(default_factory=dict)
    references: tuple[ReferenceImage, ...] = ()

    @property
    def images(self) -> tuple[Image.Image, ...]:
        """``(input, *reference images)``: every image of the problem, in the order the
        model gets them."""
        return (self.image, *(ref.image for ref in self.references))

    @property
    def problem_id(self) -> str | None:
        """The problem's ``problem_id`` (the key ``paintkit serve`` and the trainer formats
        use), or None when its metadata has none."""
        value = self.metadata.get("problem_id")
        return None if value is None else str(value)

    def identity(self) -> dict:
        """``{"key", "problem_id", "benchmark", "task", "index", "metadata"}``: which problem
        this is, as a callable model asking for ``problems=`` gets it."""
        benchmark, _, rest = self.key.partition("/")
        task, _, index = rest.rpartition("/")
        return {"key": self.key, "problem_id": self.problem_id, "benchmark": benchmark,
                "task": task, "index": int(index) if index.isdigit() else None,
                "metadata": self.metadata}


@dataclass
class EditResult:
    """The answer to one request: ``image`` (PIL image, uint8 array or encoded bytes),
    ``code`` (SVG text or a chart state, see below) or ``error`` (a one-line reason);
    ``text``: the model's reasoning or reply, if any;
    ``usage``: token or image counts reported by a provider; ``attempts``: requests made."""

    image: Any = None
    text: str | None = None
    error: str | None = None
    usage: dict = field(default_factory=dict)
    attempts: int = 1
    #: An answer as code instead of an image: the SVG text or chart-state JSON, written as
    #: ``NNNN_output.svg`` / ``.json`` (``code_kind`` ``"svg"`` or ``"json"``).
    code: str | None = None
    code_kind: str | None = None


class EditModel:
    """Base class of the adapters. Subclasses set :attr:`name` and implement
    :meth:`edit_batch`; :meth:`describe` feeds the run manifest.

    ``batch_size``: problems per :meth:`edit_batch` call by default; ``concurrency``:
    batches in flight at once by default (API models raise it, local models keep 1).
    ``expected_problems``: set by the runner before the first batch (the problems this run
    will edit), for a model that estimates the run's time from its first batch.
    """

    name: str = "model"
    batch_size: int = 1
    concurrency: int = 1
    expected_problems: int | None = None
    #: The most images (the input and its references) one request may hold; None: any
    #: number. 1, the default, is an adapter that takes one image: it is never handed a
    #: problem with references (see :meth:`refusal`).
    max_images: int | None = 1

    def edit_batch(self, requests: list[EditRequest]) -> list[EditResult]:
        raise NotImplementedError

    def refusal(self, request: EditRequest) -> str | None:
        """Why this model cannot edit ``request`` without dropping an image (one line,
        recorded as that problem's failure; the rest of the batch runs), or None when it
        can: by default a request with more images than :attr:`max_images`."""
        return too_many_images(self.name, request, self.max_images)

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


def too_many_images(name: str, request: EditRequest, limit: int | None,
                    hint: str = "run a model that takes several images") -> str | None:
    """The one-line refusal of ``name`` for a request with more than ``limit`` images
    (None: any number), or None when the request fits."""
    count = len(request.images)
    if limit is None or count <= limit:
        return None
    roles = ", ".join(ref.role for ref in request.references)
    takes = "one image" if limit == 1 else f"at most {limit} images"
    return (f"{name} takes {takes}; this problem has {count} (its input and "
            f"{len(request.references)} reference image(s): {roles}); {hint}")


def model_refusal(model: Any, request: EditRequest) -> str | None:
    """:meth:`EditModel.refusal` of ``model``, also for an adapter that is not an
    :class:`EditModel` (an object with ``edit_batch``, ``describe`` and ``usage_summary``):
    without ``refusal`` it takes ``max_images`` images, 1 unless it says more."""
    refusal = getattr(model, "refusal", None)
    if callable(refusal):
        return refusal(request)
    return too_many_images(str(getattr(model, "name", type(model).__name__)), request,
                           getattr(model, "max_images", 1))


def problem_seed(run_seed: int, key: str) -> int:
    """A 32-bit seed for problem ``key`` from the run's seed (SHA-256, any process)."""
    digest = hashlib.sha256(f"paintkit-run|{run_seed}|{key}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


#: An output may have at most this many times the pixels of its problem's input (a 4x
#: upscale each way), or :data:`MIN_OUTPUT_PIXEL_LIMIT` pixels, whichever is more:
#: providers answer at their own fixed sizes, but a 16384 x 16384 answer to a 512 x 512
#: problem is refused from its header before it is decoded (it would take 800 MB).
OUTPUT_PIXEL_FACTOR = 16
#: 4096 x 4096: every output size a provider offers today fits.
MIN_OUTPUT_PIXEL_LIMIT = 4096 * 4096


def output_pixel_limit(width: int, height: int) -> int:
    """The most pixels an output of a ``width`` x ``height`` problem may have."""
    return max(OUTPUT_PIXEL_FACTOR * width * height, MIN_OUTPUT_PIXEL_LIMIT)


def to_rgb_array(image: Any, where: str, max_pixels: int | None = None) -> np.ndarray:
    """uint8 ``(H, W, 3)`` from what an adapter returned: a PIL image (any mode), a uint8
    ``(H, W, 3|4)`` or ``(H, W)`` array, or encoded image bytes. ``max_pixels``: refuse a
    larger image (encoded bytes: from the header, before decoding).

    Raises:
        ValueError: anything else, bytes that do not decode or an image above
            ``max_pixels`` (naming ``where``).
    """
    limit_text = (f"{OUTPUT_PIXEL_FACTOR}x the problem's pixels, at least 4096x4096"
                  if max_pixels else "")
    if max_pixels is not None:
        size = image.size if isinstance(image, Image.Image) else \
            image.shape[1::-1] if isinstance(image, np.ndarray) and image.ndim >= 2 else None
        if size is not None and size[0] * size[1] > max_pixels:
            raise ValueError(f"{where}: {size[0]}x{size[1]} = {size[0] * size[1]} pixels "
                             f"exceeds the limit of {max_pixels} ({limit_text}); refused")
    if isinstance(image, Image.Image):
        return np.asarray(image.convert("RGB"))
    if isinstance(image, bytes | bytearray | memoryview):
        try:
            return decode_rgb_bytes(bytes(image), where, max_pixels or MAX_PIXELS, limit_text)
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
