"""Shipping a DataLoader worker's pixels to the training process through reused shared memory.

A torch ``DataLoader`` moves every tensor a worker yields into a *fresh* shared-memory
segment and sends its file descriptor: per 1024x1024 problem that is two new 3 MB segments,
about 1,500 page faults on each side and a socket round trip per segment. On a small
machine that costs as much CPU as generating the problem.

Here each worker instead owns a :class:`PixelRing`: a few slots of shared memory, made once
(the training process maps it while any tensor from it is alive there). When a
:class:`StreamItem` (what :class:`ProblemStream` yields) is pickled inside a worker, its
uint8 images are copied into a free slot and only ``(slot, offsets, shapes)`` travel through
the queue; unpickling in the training process gives tensors that view the slot (no copy).
The ring's own descriptor travels only until the training process has mapped it: from then
on (a flag in the ring's header says so) items name the ring by a key, which the training
process looks up in its registry of mapped rings. Passing a descriptor costs a socket
round trip between the two processes, about 0.8 ms of CPU per item. The registry lets go
of a ring when its worker replaces it with a larger one or has exited. The slot goes back to the worker
only when the last of those tensors (and of their views) has been freed, so a batch's pixels
never change under the training loop, however long it keeps them; a loop that keeps many
batches simply makes its workers fall back to the usual path.

A batch that :func:`~paintkit.data.stream.collate_problems` builds inside a worker is
stacked straight into a reserved slot (:func:`stack_in_ring`), so pickling it copies nothing
more.

Anything that does not fit (no free slot, not a uint8 CPU tensor, too little room in
``/dev/shm``) falls back to torch's usual path, so the ring is an optimisation, never a
requirement. Outside a DataLoader worker a :class:`StreamItem` pickles as a plain dict.
"""

from __future__ import annotations

import math
import os
import secrets
import threading
import weakref
from typing import Any

import numpy as np
import torch
from torch.utils.data import get_worker_info

IMAGE_KEYS = ("input", "answer")
RING_SLOTS = 4          # in flight per worker before falling back to fresh segments
_HEADER = 3 * 8 * 64    # three int64 arrays of 64: sequence sent and taken per slot; flags
_MAPPED, _RETIRED = 0, 1  # flags: the training process holds the ring; its worker replaced it
_NAME_BY_KEY = True     # False: send the descriptor with every item (bench/ side-by-side)
_SHM_DIR = "/dev/shm"


class PixelRing:
    """``slots`` shared-memory slots of ``slot_bytes`` each, plus their hand-over counters.

    Slot ``s`` is free when ``taken[s] == sent[s]``: the worker bumps ``sent[s]`` when it
    fills the slot, the training process writes the same number into ``taken[s]`` once the
    last tensor viewing the slot has been freed. ``flags[_MAPPED]`` is set by the training
    process once its registry holds the ring, ``flags[_RETIRED]`` by the worker when it
    stops using the ring. ``key`` (worker pid, random nonce) names the ring in the registry.
    """

    def __init__(self, slot_bytes: int, slots: int | None = None):
        slots = RING_SLOTS if slots is None else slots
        if not 1 <= slots <= 64:
            raise ValueError(f"slots must be 1..64, got {slots}")
        self.slots, self.slot_bytes = slots, slot_bytes
        self.buffer = torch.zeros(_HEADER + slots * slot_bytes, dtype=torch.uint8).share_memory_()
        counters = self.buffer[:_HEADER].view(torch.int64)
        self.sent, self.taken, self.flags = counters[:64], counters[64:128], counters[128:]
        self.key = (os.getpid(), secrets.randbits(63))
        self._sequence = 0
        self._next = 0
        self.reserved: set[int] = set()  # filled by collate_problems, not sent yet

    def acquire(self) -> tuple[int, int] | None:
        """A free slot and the sequence number to stamp on it, or None when all are in flight."""
        for step in range(self.slots):
            slot = (self._next + step) % self.slots
            if slot not in self.reserved and int(self.taken[slot]) == int(self.sent[slot]):
                self._next = slot + 1
                self._sequence += 1
                return slot, self._sequence
        return None

    def slot_view(self, slot: int) -> torch.Tensor:
        """uint8 ``(slot_bytes,)`` view of ``slot``."""
        start = _HEADER + slot * self.slot_bytes
        return self.buffer[start:start + self.slot_bytes]


def _room_for(nbytes: int) -> bool:
    """Whether ``/dev/shm`` has room for a ring of ``nbytes`` with as much again to spare
    (a full tmpfs kills the process that touches an unbacked page)."""
    try:
        stat = os.statvfs(_SHM_DIR)
    except OSError:
        return False
    return stat.f_bavail * stat.f_frsize >= 2 * nbytes


class _WorkerSide:
    """This worker process's ring (made on first use, remade larger when a unit outgrows it)."""

    def __init__(self):
        self.ring: PixelRing | None = None
        self.lock = threading.RLock()  # pickling may run in a queue's feeder thread; a
        # stacked tensor freed (finaliser) while this thread holds it takes it again
        self.disabled = False
        self.stacked: dict[int, _Stacked] = {}  # id(tensor) -> its batch stacked in a slot

    def ring_for(self, nbytes: int) -> PixelRing | None:
        if self.disabled:
            return None
        if self.ring is None or self.ring.slot_bytes < nbytes:
            slot_bytes = max(nbytes, self.ring.slot_bytes if self.ring else 0)
            if not _room_for(RING_SLOTS * slot_bytes):
                self.disabled = self.ring is None
                return None
            if self.ring is not None:  # no item names it again: the registry may drop it
                self.ring.flags[_RETIRED] = 1
            self.ring = PixelRing(slot_bytes)
        return self.ring


_WORKER = _WorkerSide()


class _Stacked:
    """A batch's images stacked straight into a reserved ring slot (:func:`stack_in_ring`)."""

    def __init__(self, ring: PixelRing, slot: int, sequence: int, placed: list, tensors: dict):
        self.ring, self.slot, self.sequence, self.placed = ring, slot, sequence, placed
        self.ids = {key: id(tensor) for key, tensor in tensors.items()}
        self.alive = len(tensors)
        self.sent = False

    def matches(self, images: list) -> bool:
        """Whether ``images`` (of :func:`_images`) are exactly this batch's stacked tensors."""
        return len(images) == len(self.ids) and all(
            position is None and self.ids.get(key) == id(tensor) for key, position, tensor in images)

    def tensor_freed(self, tensor_id: int) -> None:
        """Finaliser of each stacked tensor: the slot is unreserved once all are gone unsent."""
        with _WORKER.lock:
            _WORKER.stacked.pop(tensor_id, None)
            self.alive -= 1
            if not self.alive and not self.sent:
                self.ring.reserved.discard(self.slot)


def stack_in_ring(stacks: dict[str, list[torch.Tensor]]) -> dict[str, torch.Tensor] | None:
    """Inside a DataLoader worker: ``torch.stack`` each list of same-shape uint8 CPU images
    straight into a free slot of the worker's ring and return the stacked tensors (views of
    the slot), so pickling the batch copies nothing more. ``None`` anywhere else (outside a
    worker, other tensors, no free slot): the caller stacks as usual.

    Stacking into a fresh tensor touches every page of a new allocation (~1.5 ms per 1024²
    image on a busy 2-core machine) and pickling then copies it again into the ring; this is
    one copy into memory that is already mapped.
    """
    if not stacks or not all(image.shape == images[0].shape
                             for images in stacks.values() for image in images):
        return None
    shapes = {key: (len(images), *images[0].shape) for key, images in stacks.items()}
    return _in_slot(shapes, [image for images in stacks.values() for image in images],
                    lambda key, out: torch.stack(stacks[key], out=out))


def place_in_ring(images: dict[str, torch.Tensor]) -> dict[str, torch.Tensor] | None:
    """Inside a DataLoader worker: copy each uint8 CPU image into a free slot of the worker's
    ring now and return the copies (contiguous views of the slot), so pickling the item
    copies nothing more; ``None`` anywhere else (the item then travels as it is).

    The stream places every item right after making it: the copy reads pixels still in
    cache, and the generator's arrays are freed at once for the next problem, instead of
    waiting in the worker's queue until the item is pickled.
    """
    if not images:
        return None
    shapes = {key: tuple(image.shape) for key, image in images.items()}
    return _in_slot(shapes, list(images.values()), lambda key, out: out.copy_(images[key]))


def _in_slot(shapes: dict[str, tuple], sources: list, fill) -> dict[str, torch.Tensor] | None:
    """Reserve a slot for tensors of ``shapes`` (in key order), fill each with
    ``fill(key, view)`` and register them, so that pickling their item sends the slot."""
    if get_worker_info() is None or not all(
            image.dtype == torch.uint8 and image.device.type == "cpu" for image in sources):
        return None
    nbytes = sum(math.prod(shape) for shape in shapes.values())
    with _WORKER.lock:
        taken = _take_slot(nbytes)
        if taken is None:
            return None
        ring, slot, sequence = taken
        ring.reserved.add(slot)
    view, offset, placed, tensors = ring.slot_view(slot), 0, [], {}
    for key, shape in shapes.items():
        n = math.prod(shape)
        tensors[key] = fill(key, view[offset:offset + n].view(shape))
        placed.append((key, None, offset, shape))
        offset += n
    stacked = _Stacked(ring, slot, sequence, placed, tensors)
    with _WORKER.lock:
        for tensor in tensors.values():
            _WORKER.stacked[id(tensor)] = stacked
            weakref.finalize(tensor, stacked.tensor_freed, id(tensor))
    return tensors


def _take_slot(nbytes: int):
    """``(ring, slot, sequence)`` of a free slot of the worker's ring for ``nbytes`` of pixels,
    or None (no ring that size, or every slot in use). Call with ``_WORKER.lock`` held."""
    ring = _WORKER.ring_for(nbytes)
    taken = ring.acquire() if ring is not None else None
    return None if taken is None else (ring, *taken)


def _images(item: dict[str, Any]) -> list[tuple[str, int | None, torch.Tensor]]:
    """``(key, list position or None, image)`` of every image in ``item``, or [] when some
    image is not a uint8 CPU tensor (then the item goes the usual way)."""
    found = []
    for key in IMAGE_KEYS:
        value = item.get(key)
        tensors = [(None, value)] if isinstance(value, torch.Tensor) else \
            list(enumerate(value)) if isinstance(value, list) else []
        for position, tensor in tensors:
            if not (isinstance(tensor, torch.Tensor) and tensor.dtype == torch.uint8
                    and tensor.device.type == "cpu"):
                return []
            found.append((key, position, tensor))
    return found


class StreamItem(dict):
    """A stream item or batch: a plain ``dict`` to everything but pickling.

    Pickled inside a DataLoader worker, its images travel through the worker's
    :class:`PixelRing` and arrive in the training process as a plain ``dict`` of contiguous
    tensors viewing the ring (same shapes and values; the slot is reused only after they are
    all freed). Anywhere else it pickles as a plain dict.
    """

    def __copy__(self) -> StreamItem:
        # DataLoader workers shallow-copy every item (``default_convert``); without this,
        # ``copy.copy`` would go through ``__reduce__`` and round-trip the pixels in the worker
        return StreamItem(self)

    def __deepcopy__(self, memo) -> StreamItem:
        import copy

        return StreamItem({key: copy.deepcopy(value, memo) for key, value in self.items()})

    def __reduce__(self):
        plain = (dict, (dict(self),))
        if get_worker_info() is None:
            return plain
        images = _images(self)
        if not images:
            return plain
        rest = {key: value for key, value in self.items() if key not in IMAGE_KEYS}
        with _WORKER.lock:  # stacked into a slot by collate_problems: send that slot as it is
            stacked = _WORKER.stacked.get(id(images[0][2]))
            if stacked is not None and not stacked.sent and stacked.matches(images):
                stacked.sent = True
                stacked.ring.sent[stacked.slot] = stacked.sequence
                stacked.ring.reserved.discard(stacked.slot)
                return _sent(stacked.ring, stacked.slot, stacked.sequence, stacked.placed,
                             rest, tuple(self))
        nbytes = sum(tensor.numel() for _, _, tensor in images)
        with _WORKER.lock:
            taken = _take_slot(nbytes)
            if taken is None:
                return plain
            ring, slot, sequence = taken
            view, offset, placed = ring.slot_view(slot), 0, []
            for key, position, tensor in images:
                n = tensor.numel()
                view[offset:offset + n].view(tensor.shape).copy_(tensor)
                placed.append((key, position, offset, tuple(tensor.shape)))
                offset += n
            ring.sent[slot] = sequence
        return _sent(ring, slot, sequence, placed, rest, tuple(self))


def _sent(ring: PixelRing, slot: int, sequence: int, placed: list, rest: dict, order: tuple):
    """The pickled form of a slot's item: the ring by its key once the training process has
    it mapped, else the ring itself (torch passes its descriptor) and the key."""
    where = (ring.key, ring.slot_bytes, slot, sequence, placed, rest, order)
    if _NAME_BY_KEY and int(ring.flags[_MAPPED]):
        return _receive_known, where
    return _receive, (ring.buffer, *where)


def _hand_back(counters: np.ndarray, slot: int, sequence: int) -> None:
    """The training process no longer references the slot's pixels: the worker may reuse it."""
    counters[64 + slot] = sequence


class _Registry:
    """Training process: the rings it has mapped, by key, while their workers may name them."""

    def __init__(self):
        self.rings: dict[tuple[int, int], torch.Tensor] = {}
        self.lock = threading.Lock()

    def add(self, key: tuple[int, int], ring: torch.Tensor) -> None:
        """Keep ``ring`` and tell its worker so; drop rings no item can name any more: those
        of exited workers, and those this ring's worker retired (its items arrive in order,
        so none naming the old ring is still on the way)."""
        with self.lock:
            if key in self.rings:
                return
            for old_key, old in list(self.rings.items()):
                retired = old_key[0] == key[0] and int(_flags(old)[_RETIRED])
                if retired or not _alive(old_key[0]):
                    del self.rings[old_key]
            self.rings[key] = ring
            _flags(ring)[_MAPPED] = 1

    def get(self, key: tuple[int, int]) -> torch.Tensor:
        with self.lock:
            ring = self.rings.get(key)
        if ring is None:
            raise RuntimeError(
                f"a stream item names pixel ring {key}, which this process never mapped: "
                "items pickled inside a DataLoader worker can be unpickled only by the "
                "process iterating that DataLoader")
        return ring


_REGISTRY = _Registry()


def _flags(ring: torch.Tensor) -> torch.Tensor:
    return ring[:_HEADER].view(torch.int64)[128:]


def _alive(pid: int) -> bool:
    if os.name == "nt":  # os.kill would end the process there (and no ring is made there)
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True


def _receive_known(key, slot_bytes, slot, sequence, placed, rest, order) -> dict[str, Any]:
    """Training process: an item whose ring this process has mapped already."""
    return _slot_item(_REGISTRY.get(key), slot_bytes, slot, sequence, placed, rest, order)


def _receive(ring, key, slot_bytes, slot, sequence, placed, rest, order) -> dict[str, Any]:
    """Training process: an item that brought its ring; the ring stays mapped in the
    registry while its worker may name it."""
    _REGISTRY.add(key, ring)
    return _slot_item(ring, slot_bytes, slot, sequence, placed, rest, order)


def _slot_item(ring, slot_bytes, slot, sequence, placed, rest, order) -> dict[str, Any]:
    """The slot's images as tensors viewing the ring (no copy); the slot is handed back
    when the last of them is freed."""
    pixels = ring.numpy()
    start = _HEADER + slot * slot_bytes
    used = max(offset + math.prod(shape) for _, _, offset, shape in placed)
    # `block` is referenced only by the tensor made from it (and so by every view of that
    # tensor): when the last one is freed, so is `block`, and the finaliser frees the slot
    block = pixels[start:start + used]
    weakref.finalize(block, _hand_back, pixels[:_HEADER].view(np.int64), slot, sequence)
    whole = torch.from_numpy(block)
    del block
    item: dict[str, Any] = {}
    for key_name, position, offset, shape in placed:
        image = whole[offset:offset + math.prod(shape)].view(shape)
        if position is None:
            item[key_name] = image
        else:
            item.setdefault(key_name, []).append(image)
    item.update(rest)
    return {key: item[key] for key in order}
