"""Chunks of work in worker processes, consumed in submission order (``paintkit eval``,
``paintkit explain``).

Shared by the commands that score or explain a tree of problems, so neither imports the
other for it.
"""

from __future__ import annotations

import os
from collections import deque

import numba

from paintkit.worker_memory import reuse_freed_memory


def default_jobs() -> int:
    """One worker per CPU core available to this process."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def one_thread_worker() -> None:
    """Worker initializer: one Numba thread per worker process. Parallelism comes from the
    pool (Numba's pool would spin-wait between the small kernels of each problem and steal
    the other core); freed memory is kept for the next problem
    (:mod:`paintkit.worker_memory`)."""
    numba.set_num_threads(1)
    reuse_freed_memory()


def map_in_workers(function, chunks, args: tuple, jobs: int, consume) -> None:
    """``consume(function(chunk, *args))`` for each chunk, run in ``jobs`` spawned worker
    processes (one Numba thread each, gone with their parent), at most ``2 * jobs`` chunks
    in flight. Results are consumed in submission order (not completion order), so two
    runs over the same files write the same bytes whatever the scheduling."""
    # heavy (Skia, numba): the engines package imports the suites and the task registry
    # (about 1.5 s)
    from paintkit.engines.lifeline import worker_pool

    with worker_pool(jobs, one_thread_worker) as pool:  # a SIGKILLed run leaves no worker
        in_flight: deque = deque()
        for chunk in chunks:
            in_flight.append(pool.submit(function, chunk, *args))
            if len(in_flight) >= 2 * jobs:
                consume(in_flight.popleft().result())
        while in_flight:
            consume(in_flight.popleft().result())
