"""Worker processes: the one owner of paintkit's process pools and job counts.

Every process pool of paintkit is started here (:func:`start_pool`, or :func:`worker_pool`
as a context manager), whichever command runs it: ``generate``'s local engine, ``eval``,
``explain`` and ``verify`` (:func:`map_in_workers`, chunks consumed in submission order) and
``stats`` / ``report`` (bootstrap tables, :func:`results_in_order`). Every wait on their
futures goes through :func:`result_of` (``generate``'s engine calls :func:`check_workers`
itself), so a worker killed half-way through a result breaks the wait instead of hanging
it. :func:`default_jobs` is the job count they all default to. The module imports only
the standard library (Numba is loaded inside the initializer that sets its threads), so a
command takes its pool without loading what another command computes with.

Workers die with the process that started them. A pool worker must not outlive its parent:
after a SIGKILL of the parent nothing runs ``shutdown()``, and a worker blocked on its task
queue (or busy with a long unit) would otherwise live on, holding hundreds of MB. Two
mechanisms, both set up by :func:`bind_to_parent` in every pool's initializer:

- Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the worker the moment the
  process that forked it exits (for a ``forkserver`` pool that is the fork server, which
  itself exits when the parent's connection closes);
- a daemon thread that checks every :data:`POLL_SECONDS` whether the original parent is
  still alive and ends the worker with ``os._exit`` if not (any POSIX system, and the
  case where a fork server survives).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.context
import os
import pickle
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager

from paintkit.worker_memory import reuse_freed_memory

POLL_SECONDS = 0.5
#: Seconds between checks that every worker of a pool is alive while a wait finds nothing.
CHECK_S = 1.0
_PR_SET_PDEATHSIG = 1


def _parent_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else (pid reused): treat as gone
        return False
    if sys.platform.startswith("linux"):
        try:  # a zombie parent (killed, not yet reaped) counts as dead
            with open(f"/proc/{pid}/stat", "rb") as fh:
                return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
        except OSError:
            return False
    return True


def _watch(pid: int) -> None:
    while _parent_alive(pid):
        time.sleep(POLL_SECONDS)
    os._exit(1)


def bind_to_parent(parent_pid: int) -> None:
    """Make this process exit when ``parent_pid`` exits (see module docstring)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the thread remains
            pass
    if not _parent_alive(parent_pid):  # died before the signal was armed
        os._exit(1)
    threading.Thread(target=_watch, args=(parent_pid,), name="paintkit-lifeline",
                     daemon=True).start()


def _bound_initializer(parent_pid: int, initializer, initargs: tuple) -> None:
    bind_to_parent(parent_pid)
    if initializer is not None:
        initializer(*initargs)


class _QuietSpawnProcess(multiprocessing.context.SpawnProcess):
    """A spawned process that starts with SIGINT ignored (inherited through exec: Python
    keeps an ignored SIGINT). Ctrl-C reaches every process of the terminal's group; the
    parent handles it (one line, then it ends the workers), while a worker, even one still
    importing, would print its own traceback."""

    def start(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return super().start()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            return super().start()
        finally:
            signal.signal(signal.SIGINT, previous)


class _QuietSpawnContext(multiprocessing.context.SpawnContext):
    Process = _QuietSpawnProcess


class WorkerError(RuntimeError):
    """A worker's error whose own type cannot cross the process boundary (it does not
    survive pickling); the message keeps its type name and text."""


def portable(exc: BaseException) -> BaseException:
    """``exc`` itself when it survives a pickle round trip, else a :class:`WorkerError`
    with its type and message: a worker's error must come back as that error, never break
    the pool (an exception the parent cannot unpickle makes ``concurrent.futures`` report a
    broken pool, which reads like a worker killed from outside)."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any failure to round-trip: send text instead
        return WorkerError(f"{type(exc).__name__}: {exc}")
    return exc


def call_portably(function, *args):
    """``function(*args)`` in a worker, its error made :func:`portable` (submit this to a
    pool instead of ``function`` itself)."""
    try:
        return function(*args)
    except Exception as exc:
        safe = portable(exc)
        if safe is exc:
            raise
        raise safe from None


def default_jobs() -> int:
    """One worker per CPU core available to this process."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def one_thread_worker() -> None:
    """Initializer of ``eval`` / ``explain`` workers: one Numba thread per worker process.
    Parallelism comes from the pool (Numba's pool would spin-wait between the small kernels
    of each problem and steal the other core); freed memory is kept for the next problem
    (:mod:`paintkit.worker_memory`)."""
    # heavy: only the workers that run Numba kernels load them. paintkit.kernels picks (and
    # loads) Numba's threading layer, which must happen before Numba starts its threads.
    import numba

    import paintkit.kernels  # noqa: F401 (numba: its threading layer)

    numba.set_num_threads(1)
    reuse_freed_memory()


def single_thread_worker() -> None:
    """Worker-process setup of ``generate``'s engines: parallelism comes from the workers,
    so keep Numba / torch / BLAS to one thread each (their thread pools spin-wait and steal
    the cores), without importing any of them."""
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


def _start_context(start: str):
    if start == "spawn":
        return _QuietSpawnContext()
    if start == "forkserver":
        # Never fork a process that may hold threads (Numba, torch, Skia): forkserver on
        # Linux, spawn elsewhere.
        method = "forkserver" if sys.platform.startswith("linux") else "spawn"
        return multiprocessing.get_context(method)
    raise ValueError(f"start must be 'spawn' or 'forkserver', got {start!r}")


#: Passed to the resource-tracker process multiprocessing starts (it takes this process's
#: ``-W`` options): see :func:`_quiet_resource_tracker`.
_TRACKER_WARNING = "ignore:resource_tracker:UserWarning"


def _quiet_resource_tracker() -> None:
    """Keep multiprocessing's resource tracker from printing "There appear to be N leaked
    semaphore objects to clean up at shutdown" after a stopped run: workers killed by a first
    Ctrl-C (:func:`stop_now`) leave the pool's queue semaphores to it, and it does clean
    them up (it unlinks them); the warning is its note of that, not a leak. Set before the
    tracker starts, which takes the process's ``-W`` options."""
    if _TRACKER_WARNING not in sys.warnoptions:
        sys.warnoptions.append(_TRACKER_WARNING)


def start_pool(jobs: int, initializer=None, initargs: tuple = (), start: str = "spawn"
               ) -> ProcessPoolExecutor:
    """A ``ProcessPoolExecutor`` of ``jobs`` workers bound to this process: each runs
    :func:`bind_to_parent`, then ``initializer(*initargs)``. ``start="spawn"`` (default)
    starts workers that ignore SIGINT from their start; ``"forkserver"`` (Linux; spawn
    elsewhere) starts them from a fork server (``generate``'s engine). Never forked from
    this process: a fork would copy its threads and locks. The caller shuts it down."""
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an int >= 1, got {jobs!r}")
    _quiet_resource_tracker()
    return ProcessPoolExecutor(jobs, mp_context=_start_context(start),
                               initializer=_bound_initializer,
                               initargs=(os.getpid(), initializer, initargs))

@contextmanager
def worker_pool(jobs: int, initializer=None, initargs: tuple = ()) -> Iterator[ProcessPoolExecutor]:
    """A ``ProcessPoolExecutor`` of ``jobs`` spawned workers bound to this process, as a
    context manager.

    Each worker runs :func:`bind_to_parent` (then ``initializer(*initargs)``), so none
    outlives a SIGKILLed parent, and ignores SIGINT from its start. When the ``with`` body raises
    (Ctrl-C, a full disk, a bad row), queued work is cancelled and the workers are killed at
    once instead of finishing what they hold. Spawned, not forked: a fork would copy the
    parent's threads and locks.
    """
    pool = start_pool(jobs, initializer, initargs)
    try:
        yield pool
    except BaseException:
        stop_now(pool)
        raise
    pool.shutdown(wait=True)


#: Seconds :func:`stop_now` waits, all workers together, for its killed workers to be gone.
STOP_JOIN_S = 3.0


def stop_now(pool: ProcessPoolExecutor) -> None:
    """Cancel ``pool``'s queued work and kill its workers at once, instead of waiting for
    what they hold (a first Ctrl-C must stop a run whose units take minutes).

    The pool's manager thread may be half-way through reading a result that a killed
    worker was sending (a unit's PNGs are larger than a pipe holds, so a send takes many
    reads, the more so on a loaded machine). This process holds that result pipe's write
    end too, so the read would wait forever for the rest, and the interpreter joins that
    thread at exit: the stop would hang. Closing this process's write end once the workers
    are killed ends that read (end of file), and the thread with it. The thread is waited
    for here: at exit Python wakes it through a pipe it closes as it ends, and a wake-up at
    that moment fails with a traceback ("Bad file descriptor")."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    results = getattr(pool, "_result_queue", None)  # shutdown() drops the references
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()
    deadline = time.monotonic() + STOP_JOIN_S  # one wait for all: they die together
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    writer = getattr(results, "_writer", None)  # the workers write results; this one never
    if writer is not None and not writer.closed:
        writer.close()
    if manager is not None:
        manager.join(max(1.0, deadline - time.monotonic()))


def check_workers(pool: ProcessPoolExecutor) -> None:
    """Raise ``BrokenProcessPool`` when a worker of ``pool`` has died (the OOM killer's
    SIGKILL) though the pool has not said so. The pool notices a dead worker itself, except
    when the worker died half-way through sending a result: its manager thread then waits
    for the rest of that message forever and no future ever finishes. Call it while waiting
    on the pool's futures; :func:`stop_now` then ends the pool."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.exitcode is not None:
            raise BrokenProcessPool(f"worker {process.pid} ended with exit code "
                                    f"{process.exitcode} while the pool was running")


def result_of(future: Future, pool: ProcessPoolExecutor, check_s: float = CHECK_S):
    """``future.result()`` for a future of ``pool``, waiting in slices of ``check_s`` seconds
    and calling :func:`check_workers` after each empty one: a worker that died half-way
    through sending a result raises ``BrokenProcessPool`` within about ``check_s`` seconds
    (the CLI: its one line naming the OOM killer) instead of a wait without end. The
    future's own error is raised as ``result()`` raises it."""
    while not wait((future,), timeout=check_s).done:
        check_workers(pool)
    return future.result()


def results_in_order(pool: ProcessPoolExecutor, function, items) -> list:
    """``[function(item) for item in items]``, every call run in ``pool`` at once, results
    in the items' order (``pool.map``, but each wait is :func:`result_of`)."""
    futures = [pool.submit(function, item) for item in items]
    return [result_of(future, pool) for future in futures]


def map_in_workers(function, chunks, args: tuple, jobs: int, consume) -> None:
    """``consume(function(chunk, *args))`` for each chunk, run in ``jobs`` spawned worker
    processes (one Numba thread each, gone with their parent), at most ``2 * jobs`` chunks
    in flight. Results are consumed in submission order (not completion order), so two
    runs over the same files write the same bytes whatever the scheduling. A worker that
    dies (the OOM killer) raises ``BrokenProcessPool`` (:func:`result_of`)."""
    with worker_pool(jobs, one_thread_worker) as pool:  # a SIGKILLed run leaves no worker
        in_flight: deque = deque()
        for chunk in chunks:
            in_flight.append(pool.submit(call_portably, function, chunk, *args))
            if len(in_flight) >= 2 * jobs:
                consume(result_of(in_flight.popleft(), pool))
        while in_flight:
            consume(result_of(in_flight.popleft(), pool))
