"""``ProblemStream`` through a torch ``DataLoader`` against the process-pool generation rate.

    python -m bench.stream_throughput [--jobs 2] [--limit 96] [--batch 8] [--tasks a,b]

Side by side on the same machine, same suite subset (PaintBench mix, evenly spread), same
number of worker processes, worker start-up excluded:

- ``process pool``: the generation ceiling (problems generated and dropped in the workers);
- ``stream, per item``: ``DataLoader(stream, batch_size=None)``, one message per problem;
- ``before: ring sent every item``: the per-item stream as it was before this round: the
  worker's shared-memory ring passed as a file descriptor with every item (a socket round
  trip per item; now the training process keeps a registry of the rings it has mapped) and
  each item copied into the ring only when pickled (now as soon as it is made), side by
  side;
- ``stream, batched``: ``ProblemStream(batch_size=B)`` collated in the workers, one message
  per batch (images of one canvas size stacked; mixed sizes as lists);
- ``before: stack, then copy``: the batched stream as it was before images were stacked
  straight into the worker's ring slot (a fresh ``torch.stack``, copied into the ring when
  pickled), side by side;
- ``... + pin_memory``: the same with ``pin_memory=True`` (only with CUDA).

Prints problems/s and each stream's ratio to the process pool (the target is >= 0.9), and
the CPU milliseconds per problem of all processes (training process, workers) over the timed
window: on an idle machine the rates are the figure; on a busy one the CPU ratio is the
steadier estimate of the same thing (with every core busy, rate ~ cores / CPU per problem).
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from bench.generate_common import bench_suite, spread, tree_cpu_seconds
from bench.generate_in_memory import process_pool


def collate_before(items):
    """``collate_problems`` before it stacked into the ring: a fresh ``torch.stack``, copied
    into a ring slot again when pickled."""
    import torch

    from paintkit.data.transfer import StreamItem

    batch = StreamItem()
    for key in ("input", "answer"):
        images = [item[key] for item in items]
        same = all(image.shape == images[0].shape for image in images)
        batch[key] = torch.stack(images) if same else images
    for key in ("instruction", "metadata", "index"):
        batch[key] = [item[key] for item in items]
    return batch


def stream_rate(suite, indices, jobs: int, batch: int | None, pin: bool,
                cpu: list | None = None, before: str | None = None) -> float:
    import torch
    from torch.utils.data import DataLoader, IterableDataset, get_worker_info

    from paintkit.data import ProblemStream, collate_problems

    stream = ProblemStream(suite)
    size = batch or 1

    class Subset(IterableDataset):  # units of `size` consecutive subset items, dealt to workers
        def __iter__(self):
            if before == "descriptor":  # in this worker: the ring travels with every item
                import paintkit.data.transfer as transfer

                transfer._NAME_BY_KEY = False
            info = get_worker_info()
            worker, workers = (info.id, info.num_workers) if info else (0, 1)
            units = [indices[u:u + size] for u in range(0, len(indices), size)]
            for unit in units[worker::workers]:
                if batch or before == "descriptor":  # as the stream made them before
                    items = [stream.problem(i) for i in unit]
                else:  # as ProblemStream yields items now (placed in the ring at once)
                    items = [stream.item(i) for i in unit]
                collate = collate_before if before == "stack" else collate_problems
                yield collate(items) if batch else items[0]

    loader = DataLoader(Subset(), batch_size=None, num_workers=jobs, prefetch_factor=4,
                        pin_memory=pin and torch.cuda.is_available())
    it = iter(loader)
    first = [next(it) for _ in range(jobs)]  # workers started and warm
    start, cpu_start = time.perf_counter(), tree_cpu_seconds()
    count = 0
    for unit in it:
        count += len(unit["index"]) if batch else 1
    elapsed = time.perf_counter() - start
    if cpu is not None:
        cpu.append((tree_cpu_seconds() - cpu_start) / count)
    del first
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=96)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--tasks", default=None)
    parser.add_argument("--rounds", type=int, default=2,
                        help="interleaved runs of every path; the best of each is printed")
    args = parser.parse_args()
    suite = bench_suite(args.tasks)
    indices = spread(len(suite), args.limit)
    print(f"{len(indices)} problems of {len(suite)}, {args.jobs} workers, cores {os.cpu_count()}, "
          f"load avg {os.getloadavg()[0]:.1f}")
    cpu: list[float] = []
    pool = process_pool(suite, indices, args.jobs, cpu)
    pool_cpu = cpu[-1] * 1000
    print(f"{'process pool (ceiling)':32s} {pool:8.1f} problems/s          "
          f"{pool_cpu:6.1f} CPU ms/problem", flush=True)
    paths = [("stream, per item", None, False, None),
             ("  before: ring sent every item", None, False, "descriptor"),
             (f"stream, batched ({args.batch})", args.batch, False, None),
             (f"  before: stack, then copy ({args.batch})", args.batch, False, "stack")]
    if torch_cuda():
        paths.append((f"stream, batched ({args.batch}) + pin", args.batch, True, None))
    # Every path runs ROUNDS times, interleaved, and keeps its best round: the first
    # DataLoader of a process starts slower, which a fixed order would charge to one path.
    best: dict[str, tuple[float, float]] = {}
    for _ in range(args.rounds):
        for name, batch, pin, before in paths:
            rate = stream_rate(suite, indices, args.jobs, batch, pin, cpu, before)
            if name not in best or rate > best[name][0]:
                best[name] = (rate, cpu[-1] * 1000)
    for name, *_ in paths:
        rate, ms = best[name]
        print(f"{name:32s} {rate:8.1f} problems/s  {rate / pool:5.2f}x  {ms:6.1f} CPU "
              f"ms/problem ({pool_cpu / ms:.2f}x of the pool's CPU rate)", flush=True)


def torch_cuda() -> bool:
    import torch

    return torch.cuda.is_available()


if __name__ == "__main__":
    main()
