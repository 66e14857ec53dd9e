"""Prepared targets cached per problem, shared by the reward adapters.

Every adapter may be called from several threads at once (flow_grpo's reward executor,
verl-omni's per-sample tasks, ``asyncio.to_thread``): the cache is guarded by a lock, a
problem is prepared once even when two threads ask for it together, and the Numba kernels
run under :func:`paintkit.kernels.numba_lock` (a no-op with the thread-safe TBB layer).
:func:`key_of` / :func:`keys_of` name a problem for the cache.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from paintkit.arguments import check_int
from paintkit.kernels import numba_lock
from paintkit.metrics.device import canonical_device
from paintkit.metrics.targets import Targets, prepare_targets

if TYPE_CHECKING:
    import torch

    from paintkit.types import DeviceLike

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
