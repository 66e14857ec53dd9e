"""``ProblemStream``: a torch ``IterableDataset`` that generates problems on the fly.

Item ``i`` of the stream is problem ``i % len(suite)`` of round ``i // len(suite)`` (round
``r`` shifts every cell by ``r * per_cell`` positions: fresh problems, same mix), so a
finite stream is the suite and an infinite one continues it forever, deterministically per
(suite, namespace). Every consumer takes a disjoint share: ranks take every ``world_size``-th
unit (an item, or a batch of ``batch_size`` consecutive items), and each rank's DataLoader
workers take its units in turn, so a DataLoader delivers them in stream order; under DDP
every rank gets the same number of units (padded or dropped, ``uneven=``), and a stream
handed to ``accelerator.prepare`` follows accelerate's shards (see :mod:`paintkit.data.partition`).
Nothing is encoded: pixels go straight from the renderer into tensors, and from a DataLoader
worker to the training process through a reused shared-memory ring (``transfer.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import torch
from torch.utils.data import IterableDataset, get_worker_info

from paintkit.arguments import check_int
from paintkit.data.partition import (
    accelerate_shard,
    check_uneven,
    dispatching,
    refuse_dispatch,
    shard_runs,
    units_per_rank,
    worker_units,
)
from paintkit.data.transfer import StreamItem, place_in_ring, stack_in_ring
from paintkit.suites import TRAINING_NAMESPACE, Suite, build_problem
from paintkit.suites.spec import check_benchmark_reach

LAYOUTS = ("hwc", "chw")


def _distributed() -> tuple[int, int]:
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        return torch.distributed.get_rank(), torch.distributed.get_world_size()
    return 0, 1


class ProblemStream(IterableDataset):
    """Problems of ``suite`` as dicts of uint8 tensors, instruction and metadata.

    Args:
        suite: what to generate (default: PaintBench's tasks, conditions and mix in the
            ``"train"`` seed namespace, so no problem is a benchmark problem; pass a custom
            :class:`~paintkit.suites.Suite`, and give it a namespace other than
            ``"paintbench"`` to stay disjoint from the benchmark).
        infinite: continue past the suite with fresh rounds, forever.
        rank, world_size: this process's share in distributed training (default: from
            ``torch.distributed`` when initialised, else 0 and 1).
        layout: ``"hwc"`` (``(H, W, 3)``, default) or ``"chw"`` (``(3, H, W)``) tensors.
        start: skip the first ``start`` items of the whole stream (resume a training run).
        batch_size: yield batches of this many consecutive items, collated in the worker
            (:func:`collate_problems`); use with ``DataLoader(..., batch_size=None)``. Workers
            take whole batches in turn, so batches arrive in stream order and ``len(loader)``
            is the number of batches; collating in the worker also ships one message per
            batch instead of one per problem (faster). Either way the images travel through
            the worker's reused shared-memory ring (:mod:`paintkit.data.transfer`).
        uneven: when a finite stream's units do not divide evenly between ranks:
            ``"pad"`` (default; every rank takes ``ceil(units / world_size)``, the short
            ranks repeating units from the stream's beginning), ``"drop"`` (every rank
            takes ``floor(units / world_size)``) or ``"keep"`` (shares may differ by one:
            only for loops whose ranks do not step together). DDP needs ``"pad"`` or
            ``"drop"``: a rank with one step more waits forever for the others.

    With ``accelerator.prepare(loader)``: prepare with ``DataLoaderConfiguration(
    dispatch_batches=False)`` and give the DataLoader ``batch_size=`` and
    ``collate_fn=collate_problems`` (the stream sees accelerate's shard and generates
    exactly what it keeps; accelerate pads the last batches as it does for any dataset),
    or iterate the DataLoader without ``prepare``. accelerate's default dispatching mode
    cannot carry instructions and is refused with that advice.

    Yields:
        ``{"input": uint8 tensor, "answer": uint8 tensor, "instruction": str,
        "metadata": dict, "index": int}``, and for a problem with reference images
        (docs/references.md) also ``"references"`` (a list of uint8 tensors in the layout's
        shape, in the order the model gets them after ``input``) and ``"reference_roles"``
        (their roles). Canvas sizes differ between conditions, so batch
        with :func:`paintkit.data.collate_problems` (lists) or ``batch_size=None``.

    Example:
        >>> from torch.utils.data import DataLoader  # doctest: +SKIP
        >>> stream = ProblemStream(Suite(tasks=["translation"], namespace="train"), infinite=True)
        >>> loader = DataLoader(stream, batch_size=8, num_workers=2,
        ...                     collate_fn=collate_problems)  # doctest: +SKIP
    """

    def __init__(self, suite: Suite | None = None, *, infinite: bool = False, rank: int | None = None,
                 world_size: int | None = None, layout: str = "hwc", start: int = 0,
                 batch_size: int | None = None, uneven: str = "pad"):
        super().__init__()
        self.suite = Suite(namespace=TRAINING_NAMESPACE) if suite is None else suite
        if infinite:  # rounds past the first are slots past the benchmark's own
            check_benchmark_reach(self.suite, rounds=2)
        if layout not in LAYOUTS:
            raise ValueError(f"unknown layout {layout!r}; allowed: {', '.join(LAYOUTS)}")
        if (rank is None) != (world_size is None):
            raise ValueError("give both rank and world_size, or neither")
        if world_size is not None:
            world_size = check_int(world_size, "world_size", 1)
            rank = check_int(rank, "rank (need 0 <= rank < world_size)", 0, world_size - 1)
        start = check_int(start, "start", 0)
        batch_size = check_int(batch_size, "batch_size", 1, allow_none=True)
        self.infinite, self.layout, self.start = infinite, layout, start
        self._batched = batch_size is not None
        self.batch_size = batch_size or 1
        self.rank, self.world_size = rank, world_size
        self.uneven = check_uneven(uneven)

    def __getstate__(self) -> dict:
        # Handed to a DataLoader worker: a spawned worker has no process group, so it keeps
        # the rank of the process that made it (and whether accelerate was dispatching).
        state = dict(self.__dict__)
        state["_handed_over"] = (_distributed(), dispatching())
        return state

    def _share(self) -> tuple[int, int, int, int]:
        """(rank, number of ranks, DataLoader worker, number of workers) of this consumer."""
        if self.world_size is not None:
            rank, world = self.rank, self.world_size
        else:
            rank, world = _distributed()
            handed = self.__dict__.get("_handed_over")
            if world == 1 and handed is not None:
                rank, world = handed[0]
        info = get_worker_info()
        workers, worker = (info.num_workers, info.id) if info is not None else (1, 0)
        return rank, world, worker, workers

    def _units(self) -> tuple[int, int]:
        """(first stream position, number of units) of the whole stream for this rank's
        consumers; a unit is one item, or one batch of ``batch_size`` consecutive items."""
        total = len(self.suite)
        return self.start, -(-(total - self.start) // self.batch_size) if total > self.start else 0

    def unit_indices(self) -> Iterator[int]:
        """The units (items, or batches with ``batch_size``) this consumer yields, in order.

        Rank ``r`` of ``W`` takes units ``r, r + W, ...`` and its workers take them in turn;
        a DataLoader asks its workers in turn, so the units reach the training process in
        stream order. Units past the stream's last are padding (``uneven="pad"``): they
        repeat units from the beginning.
        """
        rank, world, worker, workers = self._share()
        _, units = self._units()
        per_rank = None if self.infinite else units_per_rank(units, rank, world, self.uneven)
        yield from worker_units(per_rank, rank, world, worker, workers)

    def _unit_positions(self, unit: int) -> range:
        _, units = self._units()
        if not self.infinite and unit >= units:  # padding: the stream's beginning again
            unit %= units
        first = self.start + unit * self.batch_size
        last = first + self.batch_size
        return range(first, last if self.infinite else min(last, len(self.suite)))

    def item_indices(self) -> Iterator[int]:
        """The stream positions this consumer yields, in order."""
        for unit in self.unit_indices():
            yield from self._unit_positions(unit)

    def __len__(self) -> int:
        """Units this consumer yields: items, or batches when ``batch_size`` is set.

        In the training process (outside DataLoader workers) this is the rank's whole share,
        so ``len(DataLoader(stream, batch_size=None, num_workers=w))`` is the number of units
        the loader produces.
        """
        if self.infinite:
            raise TypeError("an infinite ProblemStream has no length")
        if accelerate_shard(self) is not None:  # accelerate divides the whole stream itself
            return max(0, len(self.suite) - self.start)
        rank, world, worker, workers = self._share()
        _, units = self._units()
        per_rank = units_per_rank(units, rank, world, self.uneven)
        return max(0, -(-(per_rank - worker) // workers))

    def problem(self, position: int) -> dict[str, Any]:
        """Item ``position`` of the whole stream."""
        round_, index = divmod(position, len(self.suite))
        problem = build_problem(self.suite, self.suite.spec(index, round_))
        answer = problem.answer.copy() if problem.answer is problem.input else problem.answer
        images = [torch.from_numpy(problem.input), torch.from_numpy(answer),
                  *(torch.from_numpy(ref.image) for ref in problem.references)]
        if self.layout == "chw":
            images = [image.permute(2, 0, 1) for image in images]
        item = StreamItem(input=images[0], answer=images[1], instruction=problem.instruction,
                          metadata=problem.metadata, index=position)
        if problem.references:
            item.update(references=images[2:],
                        reference_roles=[ref.role for ref in problem.references])
        return item

    def __iter__(self) -> Iterator[dict[str, Any]]:
        refuse_dispatch(bool(self.__dict__.get("_handed_over", (0, False))[1]))
        shard = accelerate_shard(self)
        return self._own_share() if shard is None else self._shard_share(shard)

    def _own_share(self) -> Iterator[dict[str, Any]]:
        for unit in self.unit_indices():
            items = [self.problem(position) for position in self._unit_positions(unit)]
            if self._batched:
                yield collate_problems(items)
                continue
            yield self._placed(items.pop())

    def _shard_share(self, shard) -> Iterator[dict[str, Any] | None]:
        """Items as accelerate's ``IterableDatasetShard`` of this process reads them: runs of
        ``run`` items of which it keeps ``count`` from ``first``; the others are None
        (never generated; the shard drops them). The last run is completed from the
        stream's beginning (or dropped with ``drop_last``), as accelerate would; this
        process's DataLoader workers take whole runs in turn."""
        run, first, count = shard_runs(shard)
        total = len(self.suite) - self.start
        runs = None if self.infinite else max(0, total // run if shard.drop_last
                                             else -(-total // run))
        info = get_worker_info()
        workers, r = (info.num_workers, info.id) if info is not None else (1, 0)
        while runs is None or r < runs:
            for j in range(run):
                offset = r * run + j
                keep = first <= j < first + count
                yield self.item(self.start + (offset if self.infinite else offset % total)) \
                    if keep else None
            r += workers

    def item(self, position: int) -> dict[str, Any]:
        """Item ``position`` as :meth:`__iter__` yields it: :meth:`problem`, and inside a
        DataLoader worker its images already copied into the worker's shared-memory ring
        (:func:`~paintkit.data.transfer.place_in_ring`)."""
        return self._placed(self.problem(position))

    @staticmethod
    def _placed(item: StreamItem) -> StreamItem:
        placed = place_in_ring({key: item[key] for key in ("input", "answer")})
        if placed is not None:  # the generator's arrays are freed now, for the next problem
            item.update(placed)
        return item


def collate_problems(items: list[dict[str, Any]]) -> StreamItem:
    """Batch stream items: images stacked when they share a size, else lists; instructions,
    metadata and indices as lists; when an item has reference images, ``references`` and
    ``reference_roles`` as one list per item (empty for an item without).

    The batch is a :class:`~paintkit.data.transfer.StreamItem`: inside a DataLoader worker
    its images reach the training process through the worker's reused shared-memory ring
    instead of a fresh shared-memory segment per tensor. There, images that stack are
    stacked straight into a ring slot (one copy, into memory already mapped), so the batch's
    stacked tensors view shared memory that is reused once the training process has freed
    them: a worker should not keep a batch after yielding it.
    """
    batch = StreamItem()
    stacks = {}
    for key in ("input", "answer"):
        images = [item[key] for item in items]
        same = all(image.shape == images[0].shape for image in images)
        batch[key] = images
        if same:
            stacks[key] = images
    in_ring = stack_in_ring(stacks) if len(stacks) == 2 else None
    for key, images in stacks.items():
        batch[key] = in_ring[key] if in_ring else torch.stack(images)
    for key in ("instruction", "metadata", "index"):
        batch[key] = [item[key] for item in items]
    if any("references" in item for item in items):  # per item a list ([] for none)
        for key in ("references", "reference_roles"):
            batch[key] = [list(item.get(key, [])) for item in items]
    return batch
