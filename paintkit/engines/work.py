"""The unit of work every engine runs: generate (and encode) a range of suite indices.

It is a pure function of its arguments, so in-process, process-pool and Ray workers give
the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from paintkit.attempts import SLOT_SECONDS, slot_seconds
from paintkit.parallel import single_thread_worker
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
    #: a problem's attempt search gives up after this long (None: never; --slot-seconds)
    slot_seconds: float | None = SLOT_SECONDS


def run_unit(suite: ProblemSuite, start: int, stop: int, options: WorkOptions) -> list:
    """Problems ``start .. stop-1`` of ``suite``: a list of
    :class:`~paintkit.writers.record.EncodedProblem` (or of indices when not encoding)."""
    out = []
    with slot_seconds(options.slot_seconds):
        for index in range(start, stop):
            spec = suite.spec(index)
            problem = build_problem(suite, spec)
            if options.encode:
                out.append(encode_problem(spec, problem, png_encoder=options.png_encoder,
                                          json_indent=options.json_indent, svg=options.svg))
            else:
                out.append(index)
    return out


def pool_worker() -> None:
    """Initializer of local pool workers (after :func:`paintkit.parallel.start_pool` bound
    them to their parent): one thread each, and keep freed memory for the next problem
    (:mod:`paintkit.worker_memory`)."""
    single_thread_worker()
    reuse_freed_memory()
