"""Which stream positions each consumer of a :class:`~paintkit.data.ProblemStream` yields.

Ranks first, then DataLoader workers: rank ``r`` of ``W`` takes units ``r, r + W, ...`` (a
unit is an item, or a batch of ``batch_size`` consecutive items); its ``w`` workers take
its ``k``-th unit in turn (worker ``k mod w``), so a DataLoader delivers the rank's units in
order. Under DDP every rank must run the same number of steps, so a finite stream whose
units do not divide evenly is evened up (``uneven=``):

- ``"pad"`` (default): every rank takes ``ceil(U / W)`` units; the ranks short of one take
  units from the stream's beginning again (as ``torch.utils.data.DistributedSampler``
  pads); a padded item carries the ``index`` of the position it repeats;
- ``"drop"``: every rank takes ``floor(U / W)`` units; the last ``U mod W`` are not yielded;
- ``"keep"``: ranks take what falls to them (shares may differ by one unit): for loops that
  do not step together (e.g. each rank scores its share, then results are gathered).

accelerate's ``accelerator.prepare(loader)`` shards an ``IterableDataset`` itself: with
``dispatch_batches=False`` every process iterates the whole dataset through an
``IterableDatasetShard`` that keeps, of each run of ``batch_size * num_processes`` items,
its process's ``batch_size`` (and pads the last run with the first items). A stream
iterated by such a shard (:func:`accelerate_shard`) does not shard by rank itself: it yields
the shard's run structure, generating only the items the shard keeps (the others are
``None`` placeholders the shard drops), and pads its last run as accelerate would, so
nothing is lost or repeated beyond accelerate's own padding. accelerate's default for an
``IterableDataset`` (``dispatch_batches=True``) fetches on process 0 and broadcasts tensors
only; stream items carry instructions and metadata, so that mode is refused with a
pointer to the two ways that work (:func:`refuse_dispatch`).
"""

from __future__ import annotations

import sys

UNEVEN = ("pad", "drop", "keep")


def check_uneven(uneven: str) -> str:
    if uneven not in UNEVEN:
        raise ValueError(f"uneven: expected one of {UNEVEN}, got {uneven!r}")
    return uneven


def units_per_rank(units: int, rank: int, world: int, uneven: str) -> int:
    """Units rank ``rank`` of ``world`` yields out of a finite stream of ``units``."""
    if uneven == "pad":
        return -(-units // world)
    if uneven == "drop":
        return units // world
    return max(0, -(-(units - rank) // world))


def worker_units(per_rank: int | None, rank: int, world: int, worker: int, workers: int):
    """The units (ids; ids past the stream's last unit are padding) worker ``worker`` of
    ``workers`` of rank ``rank`` yields, in order; ``per_rank`` None: forever."""
    k = worker
    while per_rank is None or k < per_rank:
        yield rank + k * world
        k += workers


def accelerate_shard(stream, depth: int = 3):
    """The accelerate ``IterableDatasetShard`` iterating (or measuring) ``stream``, if the
    call comes from one (found among the calling frames), else None."""
    frame = sys._getframe(2)
    for _ in range(depth):
        if frame is None:
            break
        owner = frame.f_locals.get("self")
        if type(owner).__name__ == "IterableDatasetShard" and \
                getattr(owner, "dataset", None) is stream:
            return owner
        frame = frame.f_back
    return None


def shard_runs(shard) -> tuple[int, int, int]:
    """``(run, first, count)`` of an accelerate shard: it keeps items ``first .. first +
    count - 1`` of each run of ``run`` items."""
    world, batch = int(shard.num_processes), shard.batch_size
    if not isinstance(batch, int) or batch < 1:
        raise ValueError(
            "accelerator.prepare: a ProblemStream with batch_size= yields whole batches, but "
            "accelerate's shard batches items itself; build the stream without batch_size and "
            "give the DataLoader batch_size= and collate_fn=collate_problems")
    run = batch if shard.split_batches else batch * world
    count = run // world
    return run, int(shard.process_index) * count, count


def dispatching() -> bool:
    """True while accelerate's dispatching loader (``dispatch_batches=True``) is iterating in
    this process (its active loader, as accelerate's ``GradientState`` records it)."""
    state = sys.modules.get("accelerate.state")
    shared = getattr(getattr(state, "GradientState", None), "_shared_state", None) or {}
    refs = shared.get("_dataloader_references_ref") or []
    active = refs[-1]() if refs and refs[-1] is not None else None
    return type(active).__name__ == "DataLoaderDispatcher"


def refuse_dispatch(dispatched: bool = False) -> None:
    """Raise if accelerate's dispatching loader is iterating here, or was when the stream was
    handed to this DataLoader worker (``dispatched``)."""
    if dispatched or dispatching():
        raise ValueError(
            "accelerator.prepare: accelerate's dispatch_batches mode (its default for an "
            "IterableDataset) fetches every batch on process 0 and broadcasts tensors only, "
            "but ProblemStream items carry instructions and metadata; prepare the loader "
            "with Accelerator(dataloader_config=DataLoaderConfiguration(dispatch_batches="
            "False)) (the stream then yields exactly this process's share of accelerate's "
            "shards), or iterate the DataLoader without accelerator.prepare (the stream "
            "shards by rank itself)")
