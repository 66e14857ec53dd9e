"""Worker processes die with the process that started them.

A pool worker started by ``paintkit eval``, ``generate``, ``stats`` or ``explain`` must not
outlive its parent: after a SIGKILL of the parent nothing runs ``shutdown()``, and a worker blocked on
its task queue (or busy with a long unit) would otherwise live on, holding hundreds of MB.
Two mechanisms, both set up by :func:`bind_to_parent` in the pool's initializer:

- Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the worker the moment the
  process that forked it exits (for a ``forkserver`` pool that is the fork server, which
  itself exits when the parent's connection closes);
- a daemon thread that checks every :data:`POLL_SECONDS` whether the original parent is
  still alive and ends the worker with ``os._exit`` if not (any POSIX system, and the
  case where a fork server survives).

Every process pool of paintkit is started by :func:`worker_pool` (or, for ``generate``'s
engines, binds its workers itself), so no command leaves orphans after a ``kill -9``.
"""

from __future__ import annotations

import ctypes
import multiprocessing.context
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

POLL_SECONDS = 0.5
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
    pool = ProcessPoolExecutor(jobs, mp_context=_QuietSpawnContext(),
                               initializer=_bound_initializer,
                               initargs=(os.getpid(), initializer, initargs))
    try:
        yield pool
    except BaseException:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.kill()
        for process in processes:
            process.join(5)
        raise
    pool.shutdown(wait=True)
