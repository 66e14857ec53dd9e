"""The unit of work every engine runs: generate (and encode) a range of suite indices.

It is a pure function of its arguments, so in-process, process-pool and Ray workers give
the same bytes.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from paintkit.engines.lifeline import bind_to_parent
from paintkit.suites import ProblemSuite, build_problem
from paintkit.worker_memory import reuse_freed_memory
from paintkit.writers.record import encode_problem


@dataclass(frozen=True)
class WorkOptions:
    """``encode=False`` generates and drops the problems (in-memory throughput runs)."""

    encode: bool = True
    png_encoder: str = "auto"
    json_indent: int | None = 1
    svg: bool = False  # also encode input and answer as SVG (directory format, --svg)


def run_unit(suite: ProblemSuite, start: int, stop: int, options: WorkOptions) -> list:
    """Problems ``start .. stop-1`` of ``suite``: a list of
    :class:`~paintkit.writers.record.EncodedProblem` (or of indices when not encoding)."""
    out = []
    for index in range(start, stop):
        spec = suite.spec(index)
        problem = build_problem(suite, spec)
        if options.encode:
            out.append(encode_problem(spec, problem, png_encoder=options.png_encoder,
                                      json_indent=options.json_indent, svg=options.svg))
        else:
            out.append(index)
    return out


def pool_worker(parent_pid: int) -> None:
    """Initializer of local pool workers: one thread each, exit with the parent, and keep
    freed memory for the next problem (:mod:`paintkit.worker_memory`)."""
    bind_to_parent(parent_pid)
    single_thread_worker()
    reuse_freed_memory()


def single_thread_worker() -> None:
    """Worker-process setup: parallelism comes from the workers, so keep Numba / torch /
    BLAS to one thread each (their thread pools spin-wait and steal the cores)."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    if "numba" in sys.modules:
        # Numba re-reads its environment on every compile and refuses a NUMBA_NUM_THREADS
        # that differs from the one it started with: only lower the active thread count.
        sys.modules["numba"].set_num_threads(1)
    else:
        os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
