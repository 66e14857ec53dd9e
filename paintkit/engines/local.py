"""Engines: the contract, the in-process engine and the local process pool (the default).

An engine runs :func:`~paintkit.engines.work.run_unit` calls: :meth:`Engine.submit`
starts one and returns a handle, :meth:`Engine.wait` blocks until at least one finished
and returns ``(finished [(handle, result)], still pending)``. The driver
(:func:`paintkit.engines.write_suite`) decides what to submit and writes the results, so
every engine produces the same files.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from concurrent.futures import FIRST_COMPLETED, wait

from paintkit.engines.work import WorkOptions, pool_worker, run_unit
from paintkit.parallel import (
    CHECK_S,
    call_portably,
    check_workers,
    default_jobs,
    start_pool,
    stop_now,
)
from paintkit.suites import ProblemSuite


class Engine(ABC):
    """Runs units of work; use as a context manager (``with engine: ...``)."""

    name = ""
    workers = 1

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None:
            self.close()
        else:  # Ctrl-C, an error: drop what is running instead of waiting for it
            self.abort()

    @abstractmethod
    def submit(self, suite: ProblemSuite, start: int, stop: int, options: WorkOptions):
        """Start ``run_unit(suite, start, stop, options)``; returns a handle."""

    @abstractmethod
    def wait(self, handles: set) -> tuple[list[tuple[object, list]], set]:
        """Block until one or more ``handles`` finished; raises the first unit's error."""

    def poll(self, handles: set, seconds: float) -> tuple[list[tuple[object, list]], set]:
        """:meth:`wait`, but return after about ``seconds`` with nothing finished (so the
        driver can redraw its progress while a unit works); engines that cannot wait
        with a timeout block as :meth:`wait` does."""
        return self.wait(handles)

    def call(self, function, *args):
        """Start ``function(*args)`` (a picklable module-level function) on a worker;
        returns a handle for :meth:`wait` (scaled-out writes, :mod:`paintkit.engines.scaleout`)."""
        raise NotImplementedError(f"the {self.name} engine runs run_unit only")

    def close(self) -> None:  # noqa: B027 - engines without workers have nothing to stop
        """Stop workers and drop unfinished work."""

    def abort(self) -> None:
        """Stop at once (the run failed or was interrupted): by default :meth:`close`."""
        self.close()


class _Done:
    def __init__(self, result: list):
        self.result = result


class InProcessEngine(Engine):
    """Runs every unit at once in this process (no workers; simplest to debug)."""

    name = "inprocess"

    def submit(self, suite, start, stop, options):
        return _Done(run_unit(suite, start, stop, options))

    def call(self, function, *args):
        return _Done(function(*args))

    def wait(self, handles):
        return [(h, h.result) for h in handles], set()


class ProcessPoolEngine(Engine):
    """A local pool of ``jobs`` worker processes (default: one per core)."""

    name = "process"

    def __init__(self, jobs: int | None = None):
        jobs = default_jobs() if jobs is None else jobs
        if not isinstance(jobs, int) or jobs < 1:
            raise ValueError(f"jobs must be an int >= 1, got {jobs!r}")
        self.workers = jobs
        # bound to this process (paintkit/parallel.py), started from a fork server
        self._pool = start_pool(jobs, pool_worker, start="forkserver")

    def submit(self, suite, start, stop, options):
        return self._pool.submit(call_portably, run_unit, suite, start, stop, options)

    def call(self, function, *args):
        return self._pool.submit(call_portably, function, *args)

    def wait(self, handles):
        return self.poll(handles, None)

    def poll(self, handles, seconds):
        if not handles:
            return [], set()
        while True:  # in slices: a worker that died mid-result leaves its future pending
            step = CHECK_S if seconds is None else min(seconds, CHECK_S)
            done, pending = wait(handles, timeout=step, return_when=FIRST_COMPLETED)
            if done:
                return [(f, f.result()) for f in done], set(pending)
            check_workers(self._pool)  # raises BrokenProcessPool (the CLI: one line)
            if seconds is not None:
                seconds -= step
                if seconds <= 0:
                    return [], set(pending)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def abort(self) -> None:
        stop_now(self._pool)  # kill the workers: a unit may hold them for minutes
