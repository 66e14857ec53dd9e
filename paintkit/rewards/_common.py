"""Shared by the adapters: answers/inputs from metadata, prepared targets cached per problem.

Every adapter may be called from several threads at once (flow_grpo's reward executor,
verl-omni's per-sample tasks, ``asyncio.to_thread``): the cache is guarded by a lock, a
problem is prepared once even when two threads ask for it together, and the Numba kernels
run under :func:`paintkit.kernels.numba_lock` (a no-op with the thread-safe TBB layer).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from paintkit.arguments import check_int
from paintkit.kernels import numba_lock
from paintkit.metrics.coerce import (
    as_images,
    float_to_uint8_unchecked,
    is_tensor,
    tensor_nhwc,
    tensor_to_uint8_nhwc,
)
from paintkit.metrics.device import canonical_device, same_device
from paintkit.metrics.fit import fit_output
from paintkit.metrics.targets import Targets, prepare_targets
from paintkit.metrics.training_reward import reward
from paintkit.rewards._problem_index import ProblemIndex  # noqa: F401 - the adapters import it from here

if TYPE_CHECKING:
    import torch

    from paintkit.types import DeviceLike, ImageBatch, PathLike

ANSWER_KEYS = ("answer", "answer_image", "answer_path", "target", "target_image")
INPUT_KEYS = ("input", "input_image", "input_path", "source", "source_image")

#: Default byte budget of a :class:`TargetCache`: 1 GiB of prepared targets on the device
#: (a prepared 1024x1024 problem takes 6 MiB on the CPU and with the fused CUDA kernel,
#: 31 MiB where the torch kernel counts).
DEFAULT_CACHE_BYTES = 1 << 30
#: Bytes a prepared problem takes per pixel where the torch kernel counts: answer and input
#: (3 + 3 bytes), their L*a*b* (12 + 12 bytes, float32) and the edit mask (1 byte).
BYTES_PER_PIXEL = 31
#: Bytes a prepared problem takes per pixel on the CPU (the Numba kernel reads the answer
#: and input as they are) and with the fused CUDA kernel.
RAW_BYTES_PER_PIXEL = 6


def find(meta: object, keys: Sequence[str], what: str, where: str) -> Any:
    """The first of ``keys`` present in the mapping ``meta``; a clear error otherwise."""
    if not isinstance(meta, dict):
        raise ValueError(f"{where}: expected a dict carrying the {what} image (one of keys "
                         f"{', '.join(keys)}), got {type(meta).__name__}")
    for key in keys:
        if meta.get(key) is not None:
            return meta[key]
    raise ValueError(f"{where}: no {what} image; expected one of the keys {', '.join(keys)} "
                     f"(a path, encoded bytes, an array or a tensor), got keys {sorted(meta)}")


def resolve(image: Any, root: PathLike | None = None) -> Any:
    """An image as given in metadata, made loadable: a relative path joined to ``root`` (the
    dataset folder), a ``{"bytes": ..., "path": ...}`` dict (how Hugging Face ``datasets``
    and parquet files store images) reduced to its bytes or path; others unchanged."""
    if isinstance(image, dict) and ("bytes" in image or "path" in image):
        image = image.get("bytes") if image.get("bytes") is not None else image.get("path")
    if isinstance(image, str | os.PathLike) and root is not None and \
            not os.path.isabs(os.fspath(image)):
        return str(Path(root) / image)
    return image


def _digest(image: Any) -> bytes | None:
    """A content hash of an image held in host memory (None for device tensors)."""
    if isinstance(image, bytes | bytearray | memoryview):
        return hashlib.blake2b(bytes(image), digest_size=16).digest()
    if hasattr(image, "tobytes") and hasattr(image, "mode"):  # a PIL image
        data, shape = image.tobytes(), (image.mode, image.size)
    elif isinstance(image, np.ndarray):
        data, shape = np.ascontiguousarray(image).data, (image.dtype.str, image.shape)
    elif hasattr(image, "device") and getattr(image.device, "type", None) == "cpu":
        array = image.detach().contiguous().numpy()
        data, shape = array.data, (array.dtype.str, array.shape)
    else:
        return None
    h = hashlib.blake2b(repr(shape).encode(), digest_size=16)
    h.update(data)
    return h.digest()


def key_of(answer: Any, inp: Any = None, meta: dict[str, Any] | None = None
           ) -> tuple[Hashable, ...]:
    """A cache key for a problem: its ``problem_id``, its answer's path, a hash of the
    answer's and input's bytes (host images: the G samples of one prompt share it without
    an id), or the objects' identity (tensors on a device, which are not copied to hash)."""
    if meta is not None and meta.get("problem_id") is not None:
        return ("id", meta["problem_id"])
    if isinstance(answer, str | os.PathLike):
        return ("path", os.path.abspath(os.fspath(answer)),
                os.path.abspath(os.fspath(inp)) if isinstance(inp, str | os.PathLike) else None)
    digests = (_digest(answer), _digest(inp) if inp is not None else b"")
    if None not in digests:
        return ("bytes", *digests)
    return ("object", id(answer), id(inp))


class _Entry:
    __slots__ = ("reference", "nbytes", "owner", "ready", "error")

    def __init__(self, owner: tuple[Any, Any]) -> None:
        self.owner = owner  # the objects an identity key refers to (kept alive with it)
        self.reference: Targets | None = None
        self.nbytes = 0
        self.ready = threading.Event()
        self.error: BaseException | None = None


class TargetCache:
    """Prepared single-problem targets on one device, least recently used dropped first.

    A problem seen again (the G samples of GRPO, the next step, another thread) reuses its
    Lab and edit mask. Bounded by ``max_bytes`` of prepared data on the device (and by
    ``max_items`` problems); a problem larger than the whole budget is used and not kept.
    Thread-safe: concurrent calls share one lock-guarded table, and a problem two threads
    ask for at once is prepared once.
    """

    def __init__(self, device: DeviceLike, max_bytes: int = DEFAULT_CACHE_BYTES,
                 max_items: int | None = None) -> None:
        max_bytes = check_int(max_bytes, "cache_bytes", 0)
        max_items = check_int(max_items, "cache_size", 1, allow_none=True)
        self.device = canonical_device(device)
        self.max_bytes = max_bytes
        self.max_items = max_items
        self.nbytes = 0
        self._items: OrderedDict[Hashable, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return sum(1 for e in self._items.values() if e.ready.is_set() and e.error is None)

    def get(self, key: tuple[Hashable, ...], answer: Any = None, inp: Any = None, *,
            load: Callable[[], tuple[Any, Any]] | None = None) -> Targets:
        """The prepared :class:`~paintkit.metrics.Targets` of one problem; on a miss, of
        ``answer`` and ``inp``, or of the ``(answer, input)`` pair ``load()`` returns (a
        problem read or regenerated only when it is not cached)."""
        with self._lock:
            entry: Any = self._items.get(key)  # an _Entry from here on
            if entry is not None and key[0] == "object" and entry.owner[0] is not answer:
                entry = None  # an identity reused by a new object: prepare it afresh
            mine = entry is None
            if mine:
                entry = _Entry((answer, inp))
                self._items[key] = entry
            self._items.move_to_end(key)
        if not mine:
            entry.ready.wait()
            if entry.error is not None:
                raise entry.error
            return entry.reference
        try:
            if load is not None:
                answer, inp = load()
            with numba_lock():
                entry.reference = _prepared(answer, inp, self.device)
            entry.nbytes = _device_bytes(entry.reference, self.device)
        except BaseException as exc:
            entry.error = exc
            with self._lock:
                if self._items.get(key) is entry:
                    del self._items[key]
            raise
        finally:
            entry.ready.set()
        with self._lock:
            if self._items.get(key) is entry:
                self.nbytes += entry.nbytes  # type: ignore[union-attr]  # (`is` narrows to Optional)
                self._evict()
        return entry.reference

    def peek(self, key: tuple[Hashable, ...]) -> Targets | None:
        """The prepared targets of ``key`` when they are ready now (marked as used), else
        None; never waits, loads or prepares (the service's event loop asks)."""
        with self._lock:
            entry: Any = self._items.get(key)
            if entry is None or key[0] == "object" or not entry.ready.is_set() \
                    or entry.error is not None:
                return None
            self._items.move_to_end(key)
            return entry.reference

    def _evict(self) -> None:
        """Drop the least recently used prepared problems until within budget (lock held);
        the newest one too when it alone exceeds the budget."""
        for key in list(self._items):
            if self.nbytes <= self.max_bytes and (self.max_items is None or
                                                  len(self._items) <= self.max_items):
                return
            entry = self._items[key]
            if entry.ready.is_set():  # one being prepared by another thread evicts itself
                del self._items[key]
                self.nbytes -= entry.nbytes


def _prepared(answer: Any, inp: Any, device: torch.device) -> Targets:
    """One problem prepared for counting on ``device``. On the CPU the Numba kernel reads
    the answer and input pixels as they are: they are brought to host memory once and
    nothing else is made (the torch kernel's Lab and edit mask, 25 more bytes a pixel, would
    go unused)."""
    if device.type != "cpu":
        return prepare_targets([answer], [inp], device=device)
    found = prepare_targets([answer], [inp])
    return Targets(*([x if isinstance(x, np.ndarray) else x.cpu() for x in images]
                     for images in (found.answers, found.inputs)))


def _device_bytes(reference: Targets, device: DeviceLike) -> int:
    """Bytes the prepared problem holds on ``device`` (on the CPU: its answer and input)."""
    if canonical_device(device).type == "cpu":
        return sum(int(x.nbytes) for x in (*reference.answers, *reference.inputs))
    return sum(g.nbytes() for g in reference.torch_groups(device))


def keys_of(answers: Sequence[Any], inputs: Sequence[Any],
            metadata: Sequence[Any] | None = None) -> list[tuple[Hashable, ...]]:
    """:func:`key_of` for a batch; the G samples of a prompt that share the same objects
    are hashed once."""
    memo: dict[tuple[int, int], tuple[Hashable, ...]] = {}
    keys: list[tuple[Hashable, ...]] = []
    for k, (answer, inp) in enumerate(zip(answers, inputs, strict=True)):
        meta = metadata[k] if metadata is not None else None
        if isinstance(meta, dict) and meta.get("problem_id") is not None:
            keys.append(("id", meta["problem_id"]))
            continue
        ident = (id(answer), id(inp))
        if ident not in memo:
            memo[ident] = key_of(answer, inp)
        keys.append(memo[ident])
    return keys


def images_list(images: ImageBatch, device: DeviceLike, name: str = "images"
                ) -> tuple[list[torch.Tensor], torch.Tensor | None]:
    """A batch of outputs as ``(images, invalid)``: a list of uint8 channels-last
    ``(H, W, 3)`` tensors on ``device``, from a ``(B, 3, H, W)`` / ``(B, H, W, 3)`` tensor or
    a list of per-sample tensors (mixed sizes allowed), NumPy arrays or PIL images; float
    in [0, 1] or uint8.

    Float images outside [0, 1] (or NaN) raise ``ValueError``, except on CUDA, where the
    check stays on the device: ``invalid`` is then a bool ``(B,)`` tensor there (the
    adapters give those samples a NaN reward) instead of a value read back every step;
    None otherwise.

    Devices compare as torch resolves them (``cpu:0`` is ``cpu``, ``cuda`` the current
    CUDA device: :func:`paintkit.metrics.device.same_device`). Tensors on another device
    are refused, as :func:`paintkit.metrics.reward` does (a
    hidden copy per call is what the device-true path avoids); host images (arrays, PIL)
    are moved to ``device`` once, here.
    """
    import torch  # heavy: loaded on first use

    device = canonical_device(device)
    defer = device.type == "cuda"

    def check(tensor: torch.Tensor, where: str) -> torch.Tensor:
        if not same_device(tensor.device, device):
            raise ValueError(f"{where}: expected a tensor on {device} (the reward's device), "
                             f"got one on {tensor.device}; move it first or build the reward "
                             f"on {tensor.device}")
        return tensor

    def convert(tensor: torch.Tensor, where: str) -> tuple[torch.Tensor, torch.Tensor | None]:
        """uint8 ``(b, H, W, 3)`` and invalid flags ``(b,)`` (or None) of one tensor."""
        tensor = tensor_nhwc(check(tensor, where).detach(), where)
        if defer and tensor.is_floating_point():
            return float_to_uint8_unchecked(tensor)
        return tensor_to_uint8_nhwc(tensor, where, numba=False), None

    if is_tensor(images):
        batch, invalid = convert(images, name)
        return list(batch), invalid
    if isinstance(images, np.ndarray):
        return [_host_tensor(x, device) for x in as_images(images, name)], None
    out, flags = [], []
    for k, item in enumerate(images):
        where = f"{name}[{k}]"
        if is_tensor(item):
            image, invalid = convert(item, where)
            out.append(image[0])
            flags.append(invalid)
        else:
            out.append(_host_tensor(as_images([item], where)[0], device))
            flags.append(None)
    if not any(f is not None for f in flags):
        return out, None
    return out, torch.cat([f if f is not None else torch.zeros(1, dtype=torch.bool, device=device)
                           for f in flags])



def _host_tensor(array: Any, device: DeviceLike) -> torch.Tensor:
    """A host image as a tensor on ``device`` (read-only arrays, e.g. ``np.asarray`` of a
    PIL image, are copied: torch tensors are writable)."""
    import torch  # heavy: loaded on first use

    array = np.ascontiguousarray(array)
    if not array.flags.writeable:
        array = array.copy()
    return torch.from_numpy(array).to(device)

def score_grouped(outputs: Sequence[torch.Tensor], keys: Sequence[tuple[Hashable, ...]],
                  answers: Sequence[Any], inputs: Sequence[Any], cache: TargetCache, fit: str,
                  tolerance: int | None = None, invalid: torch.Tensor | None = None
                  ) -> torch.Tensor:
    """Rewards ``(B,)`` of ``outputs`` (a list of uint8 ``(H, W, 3)`` tensors on the cache's
    device, sizes may differ), each against its problem; samples of one problem share one
    prepared target. ``invalid``: bool ``(B,)`` from :func:`images_list`, NaN there.

    On CUDA nothing is read back to the host: each problem's samples are counted by the
    fused kernel, and rows that are one contiguous run (the G samples of a prompt, as the
    trainers lay them out) are written by slice, not through an index tensor."""
    import torch  # heavy: loaded on first use

    result = torch.empty(len(outputs), dtype=torch.float32, device=cache.device)
    groups: dict[tuple[Hashable, ...], list[int]] = {}
    for k, key in enumerate(keys):
        groups.setdefault(key, []).append(k)
    for key, rows in groups.items():
        target = cache.get(key, answers[rows[0]], inputs[rows[0]])
        size = target.answer_size(0)
        subs: Any = [fit_output(outputs[k], size, fit, f"outputs[{k}]") for k in rows]
        if all(s.shape == subs[0].shape for s in subs):
            subs = torch.stack(subs)
        value = reward(subs, target, samples_per_problem=len(rows), tolerance=tolerance,
                       fit="cover").to(result.device)  # fitted above: what is left, the metric's
        if rows == list(range(rows[0], rows[-1] + 1)):
            result[rows[0]:rows[-1] + 1] = value
        else:  # scattered rows: their positions go to the device without a stall
            index = torch.tensor(rows, dtype=torch.int64).to(cache.device, non_blocking=True)
            result.index_copy_(0, index, value)
    if invalid is not None:
        result = result.masked_fill(invalid, float("nan"))
    return result
