"""In-memory generation over the PaintBench task and condition mix: problems/s, side by side.

    python -m bench.generate_in_memory [--jobs 2] [--limit N] [--tasks a,b] [--size WxH]

Three ways to get problems into memory (no PNG encoding, nothing written), over the same
PaintBench suite (every available task, 8 conditions, 12 per cell, preservation included;
``--limit`` takes an evenly spread subset):

- one process calling :func:`paintkit.suites.build_problem` in a loop;
- the process-pool engine with ``--jobs`` workers (problems generated and dropped in the
  workers: the generation ceiling of the machine);
- ``ProblemStream`` through a torch ``DataLoader`` with ``--jobs`` workers (pixels shipped
  to the training process as tensors).

Worker start-up (imports, Numba) is excluded: every path generates a warm-up problem
first. The machine may be shared; run it a few times and keep the best.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from bench.generate_common import bench_suite, spread, tree_cpu_seconds
from paintkit.engines import ProcessPoolEngine, WorkOptions
from paintkit.suites import build_problem


def one_process(suite, indices) -> float:
    build_problem(suite, suite.spec(indices[0]))  # warm up
    start = time.perf_counter()
    for index in indices:
        build_problem(suite, suite.spec(index))
    return len(indices) / (time.perf_counter() - start)


def process_pool(suite, indices, jobs: int, cpu: list | None = None) -> float:
    """Problems/s; appends the timed window's CPU seconds per problem (all processes) to
    ``cpu``."""
    options = WorkOptions(encode=False)
    with ProcessPoolEngine(jobs) as engine:
        pending = {engine.submit(suite, i, i + 1, options) for i in indices[:jobs]}
        while pending:  # warm every worker up
            _, pending = engine.wait(pending)
        start, cpu_start = time.perf_counter(), tree_cpu_seconds()
        pending, done, queue = set(), 0, list(indices)
        while queue or pending:
            while queue and len(pending) < 2 * jobs:
                i = queue.pop()
                pending.add(engine.submit(suite, i, i + 1, options))
            finished, pending = engine.wait(pending)
            done += len(finished)
        elapsed = time.perf_counter() - start
        if cpu is not None:
            cpu.append((tree_cpu_seconds() - cpu_start) / done)
        return done / elapsed


def data_loader(suite, indices, jobs: int) -> float:
    from torch.utils.data import DataLoader, IterableDataset

    from paintkit.data import ProblemStream

    stream = ProblemStream(suite)

    class Subset(IterableDataset):  # the stream's items at `indices`, split over workers
        def __iter__(self):
            from torch.utils.data import get_worker_info

            info = get_worker_info()
            share = indices if info is None else indices[info.id::info.num_workers]
            yield from (stream.problem(i) for i in share)

    loader = DataLoader(Subset(), batch_size=None, num_workers=jobs, prefetch_factor=4,
                        persistent_workers=False)
    it = iter(loader)
    first = [next(it) for _ in range(jobs)]  # workers started and warm
    start = time.perf_counter()
    count = sum(1 for _ in it)
    del first
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None, help="problems per path (default: all)")
    parser.add_argument("--tasks", default=None)
    parser.add_argument("--size", default=None, help="canvas WxH (default 1024x1024)")
    args = parser.parse_args()
    suite = bench_suite(args.tasks, args.size)
    indices = spread(len(suite), args.limit)
    print(f"suite: {len(suite.tasks)} tasks, {len(suite)} problems; timing {len(indices)} per path; "
          f"{args.jobs} workers; cores: {os.cpu_count()}, load avg {os.getloadavg()[0]:.1f}")
    single = one_process(suite, indices)
    print(f"{'one process':28s} {single:8.1f} problems/s   1.00x")
    for name, rate in (("process pool (in memory)", process_pool(suite, indices, args.jobs)),
                       ("ProblemStream + DataLoader", data_loader(suite, indices, args.jobs))):
        print(f"{name:28s} {rate:8.1f} problems/s  {rate / single:5.2f}x   "
              f"({rate * 3600 / 1e6:.2f} M problems/hour)")


if __name__ == "__main__":
    main()
