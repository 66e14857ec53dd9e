"""Large request bodies read one at a time, in the order they arrive.

When many clients upload images at once, the event loop reads all their bodies a chunk at a
time, in turn, so every body is complete only near the end of the burst; meanwhile the
scoring threads have nothing to score, and a core idles (6-8 % of this project's 2-core
test machine at 16 clients sending 1024x1024 images). Reading one body after the other
instead completes the first body after its own chunks alone, and scoring starts while the
next is read (the other connections' bytes wait in their sockets). Measured:
docs/performance.md, "Reward service".

A turn is a bound, never a block: a body that stops arriving keeps the turn at most
``hold_s``, and a request waits for the turn at most ``wait_s``, then reads on without it.
So a slow or stalled client delays the others by those bounds at most; the body timeout
(:class:`~paintkit.serve.guard.GuardMiddleware`) still answers it 408.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable

#: Bodies shorter than this read without a turn (uvicorn hands the application up to
#: 64 KiB at once: such a body arrives in one or two reads, with nothing to reorder).
MIN_BYTES = 1 << 16


def _nothing() -> None:
    pass


def _settle(future: asyncio.Future, value: bool) -> None:
    if not future.done():
        future.set_result(value)


class BodyTurns:
    """``release = await turns.take()`` ... ``release()``: one holder at a time, first come
    first served. Use from one event loop.

    Args:
        hold_s: longest a holder keeps the turn; then the turn passes on and the holder
            reads on without it.
        wait_s: longest a request waits for the turn; then it reads without it.
    """

    def __init__(self, hold_s: float = 0.05, wait_s: float = 0.5) -> None:
        self.hold_s, self.wait_s = hold_s, wait_s
        self.busy = False  # a large body is being read (scoring threads read it too)
        self.waited_out = 0  # requests that gave up waiting and read without the turn
        self.held_out = 0  # holders whose turn passed on after hold_s (a slow or stalled body)
        self._waiting: deque[asyncio.Future] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None

    async def take(self) -> Callable[[], None]:
        """Wait for the turn (``wait_s`` at most); returns the function that gives it back
        (idempotent; a no-op when the wait ran out)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new event loop (a test client's): nothing carries over
            self._loop, self.busy = loop, False
            self._waiting = deque()
        waiting = self._waiting
        if self.busy:
            future = loop.create_future()
            self._waiting.append(future)
            timer = loop.call_later(self.wait_s, _settle, future, False)
            try:
                handed = await future
            except asyncio.CancelledError:
                if future.done() and not future.cancelled() and future.result():
                    self._pass_on()  # handed the turn as it was cancelled: not kept
                raise
            finally:
                timer.cancel()
            if not handed:
                self.waited_out += 1
                return _nothing
        else:
            self.busy = True
        given_back = False

        def release() -> None:
            nonlocal given_back
            if not given_back:
                given_back = True
                hold.cancel()
                if waiting is self._waiting:  # not a turn of an event loop gone since
                    self._pass_on()

        def held_too_long() -> None:  # a released turn cancelled this timer
            self.held_out += 1
            release()

        hold = loop.call_later(self.hold_s, held_too_long)
        return release

    def _pass_on(self) -> None:
        """The turn to the first request still waiting, or free."""
        while self._waiting:
            future = self._waiting.popleft()
            if not future.done():  # else it gave up waiting, or went away
                future.set_result(True)
                return
        self.busy = False
