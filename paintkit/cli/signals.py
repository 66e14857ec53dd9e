"""Ctrl-C and SIGTERM for every command: the first stops the command cleanly, a second at once.

While a command runs (:func:`stop_signals`), the first SIGINT raises ``KeyboardInterrupt`` and
the first SIGTERM (``timeout``, a scheduler's kill) raises :class:`Terminated`, a kind of
``KeyboardInterrupt``, in the main thread: the command stops submitting work, keeps what
finished and exits with 130 (SIGINT) or 143 (SIGTERM) after one line. A second signal while
it stops ends the process at once (``os._exit``) with one line, and so does a stop that
takes longer than :data:`STOP_WITHIN_S`: every file is written atomically, so nothing
half-written is left, and the same command resumes.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: Exit status of a command stopped by SIGINT and by SIGTERM (128 + the signal number).
EXIT_STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143}
#: Seconds a command may take to stop after the first signal before it ends at once: a
#: cleanup that hangs (a worker pool's threads joined at exit) never holds a stopped run.
STOP_WITHIN_S = 8.0


def _stop_deadline(prefix: str, signum: int) -> None:
    """End the process at once if it is still stopping :data:`STOP_WITHIN_S` from now."""
    def end() -> None:
        os.write(2, f"{prefix}: stopping took over {STOP_WITHIN_S:g} s; ended at once (every "
                    "file written so far is whole)\n".encode())
        os._exit(EXIT_STATUS.get(signum, 130))

    timer = threading.Timer(STOP_WITHIN_S, end)
    timer.daemon = True
    timer.start()


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread like Ctrl-C (exit status 143)."""

    exit_code = 143


def exit_status(exc: KeyboardInterrupt) -> int:
    """130 for Ctrl-C, 143 for SIGTERM."""
    return getattr(exc, "exit_code", 130)


@contextmanager
def stop_signals(prefix: str) -> Iterator[None]:
    """Handle SIGINT and SIGTERM as the module docstring says while the body runs; the
    previous handlers come back after. Outside the main thread it does nothing (Python
    delivers signals to the main thread only). A signal ignored before (``nohup``, a
    background job) stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    owner = os.getpid()
    stopping: list[int] = []

    def on_signal(signum, frame):
        if os.getpid() != owner:  # a forked child that inherited the handler: the default
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        if stopping:
            os.write(2, f"\n{prefix}: stopped at once (second signal); every file written "
                        "so far is whole, run the same command again to resume\n".encode())
            os._exit(EXIT_STATUS.get(signum, 130))
        stopping.append(signum)
        _stop_deadline(prefix, signum)
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    previous = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        current = signal.getsignal(signum)
        if current is signal.SIG_IGN:
            continue
        previous[signum] = current
        signal.signal(signum, on_signal)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
