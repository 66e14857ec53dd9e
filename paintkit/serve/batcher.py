"""Gather the images of concurrent requests into batches for the scoring thread.

Requests put their items in one queue and await a future per item. A worker task takes the
first waiting item, waits up to ``max_wait_ms`` for more (``max_batch`` at most), and hands
the batch to a scoring thread, so the event loop keeps reading and decoding the next
requests while a batch is scored; items that arrive meanwhile make the next batch. With
``threads`` scoring threads, up to that many batches are scored at once (the CPU service
runs one per core, each kernel on one core: see :mod:`paintkit.serve.app`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from functools import partial


class ScoreBatcher:
    """``await batcher.score(items)`` -> per item a result or an exception.

    Args:
        score_fn: ``score_fn(items) -> list`` (a result or an exception per item), run in
            the scoring thread.
        max_batch: most items per call of ``score_fn``.
        max_wait_ms: how long the first item of a batch waits for others.
        threads: scoring threads, so batches scored at once.
        thread_setup: run once in each scoring thread before its first batch.
    """

    def __init__(self, score_fn, max_batch: int = 32, max_wait_ms: float = 5.0, threads: int = 1,
                 thread_setup=None):
        self.score_fn = score_fn
        self.max_batch = max_batch
        self.max_wait = max_wait_ms / 1000
        self.threads = threads
        self.batches = 0  # batches scored (the tests read it)
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="paintkit-score",
                                            initializer=thread_setup)
        self._free: asyncio.Semaphore | None = None
        self._waiting: deque = deque()
        self._arrived: asyncio.Event | None = None
        self._worker: asyncio.Task | None = None

    async def score(self, items: list) -> list:
        loop = asyncio.get_running_loop()
        if self._worker is None or self._worker.done():
            self._waiting, self._arrived = deque(), asyncio.Event()
            self._free = asyncio.Semaphore(self.threads)
            self._worker = loop.create_task(self._run())
        futures = [loop.create_future() for _ in items]
        self._waiting.extend(zip(items, futures, strict=True))
        self._arrived.set()
        return list(await asyncio.gather(*futures, return_exceptions=True))

    async def _next_arrival(self, timeout: float | None) -> bool:
        """Wait until an item is queued (True) or ``timeout`` seconds pass (False)."""
        self._arrived.clear()
        try:
            await asyncio.wait_for(self._arrived.wait(), timeout)
        except asyncio.TimeoutError:
            return False
        return True

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        waiting, free = self._waiting, self._free
        while True:
            await free.acquire()  # a scoring thread is free: gather its batch
            while not waiting:
                await self._next_arrival(None)
            batch = [waiting.popleft()]
            deadline = loop.time() + self.max_wait
            while len(batch) < self.max_batch:
                if waiting:
                    batch.append(waiting.popleft())
                    continue
                remaining = deadline - loop.time()
                if remaining <= 0 or not await self._next_arrival(remaining):
                    break
            scoring = loop.run_in_executor(self._executor, self.score_fn, [i for i, _ in batch])
            scoring.add_done_callback(partial(self._answer, batch))

    def _answer(self, batch: list, scoring: asyncio.Future) -> None:
        """Hand a scored batch's results to its requests (on the event loop)."""
        self._free.release()
        self.batches += 1
        if scoring.cancelled():
            return
        exc = scoring.exception()
        # the whole call failed: every item says so
        results = [exc] * len(batch) if exc is not None else scoring.result()
        for (_, future), result in zip(batch, results, strict=True):
            if future.done():  # the request went away
                continue
            if isinstance(result, BaseException):
                future.set_exception(result)
            else:
                future.set_result(result)

    def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)
