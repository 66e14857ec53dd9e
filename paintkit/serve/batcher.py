"""Gather the images of concurrent requests into batches for the scoring threads.

Requests put their items in one queue and await a future per item. Each scoring thread
takes the first waiting item, waits up to ``max_wait_ms`` for more (``max_batch`` at most),
scores the batch and hands every result back to the event loop of the request that asked.
The threads pull their next batch themselves, so the event loop only reads and decodes
requests: a busy loop never delays the start of a batch. With ``threads`` scoring threads,
up to that many batches are scored at once (the CPU service runs one per core, each
kernel on one core under load, a batch alone on the idle threads' cores too: see
:mod:`paintkit.serve.app`).
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time

_STOP = object()


class ScoreBatcher:
    """``await batcher.score(items)`` -> per item a result or an exception.

    Args:
        score_fn: ``score_fn(items) -> list`` (a result or an exception per item), run in
            a scoring thread.
        max_batch: most items per call of ``score_fn``.
        max_wait_ms: how long the first item of a batch waits for others.
        threads: scoring threads, so batches scored at once.
        kernel_threads: ``kernel_threads(n)`` is called in a scoring thread before each
            batch with the cores that batch may use: 1, plus one for each other scoring
            thread that is idle when the batch starts with nothing queued and nothing
            ``busy_elsewhere`` (cores that would otherwise wait). None: not called.
        busy_elsewhere: ``busy_elsewhere()`` is True while the service has other work in
            hand that needs a core (a request body being read); None: never.
    """

    def __init__(self, score_fn, max_batch: int = 32, max_wait_ms: float = 5.0, threads: int = 1,
                 kernel_threads=None, busy_elsewhere=None):
        self.score_fn = score_fn
        self.max_batch = max_batch
        self.max_wait = max_wait_ms / 1000
        self.threads = threads
        self.kernel_threads = kernel_threads
        self.busy_elsewhere = busy_elsewhere
        self.batches = 0  # batches scored (the tests read it)
        self.busy = 0  # scoring threads with a batch in hand
        self._count = threading.Lock()
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._workers = [threading.Thread(target=self._work, daemon=True,
                                          name=f"paintkit-score-{k}") for k in range(threads)]
        for worker in self._workers:
            worker.start()

    async def score(self, items: list) -> list:
        loop = asyncio.get_running_loop()
        futures = [loop.create_future() for _ in items]
        for item, future in zip(items, futures, strict=True):
            self._queue.put((item, future, loop))
        return list(await asyncio.gather(*futures, return_exceptions=True))

    def _batch(self) -> list | None:
        """The next batch (blocks for its first item), or None once closed."""
        first = self._queue.get()
        if first is _STOP:
            return None
        batch = [first]
        deadline = time.monotonic() + self.max_wait
        while len(batch) < self.max_batch:
            try:
                entry = self._queue.get_nowait()
            except queue.Empty:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                try:
                    entry = self._queue.get(timeout=remaining)
                except queue.Empty:
                    break
            if entry is _STOP:
                self._queue.put(_STOP)  # this batch is scored; the next call stops
                break
            batch.append(entry)
        return batch

    def _work(self) -> None:
        while (batch := self._batch()) is not None:
            with self._count:
                self.busy += 1
                idle = self.threads - self.busy
            try:
                if self.kernel_threads is not None:
                    quiet = self._queue.empty() and not (self.busy_elsewhere is not None and
                                                         self.busy_elsewhere())
                    self.kernel_threads(1 + idle if quiet else 1)
                results = self.score_fn([item for item, _, _ in batch])
            except Exception as exc:  # noqa: BLE001 - the whole call failed: every item says so
                results = [exc] * len(batch)
            with self._count:
                self.batches += 1
                self.busy -= 1
            for (_, future, loop), result in zip(batch, results, strict=True):
                try:
                    loop.call_soon_threadsafe(_settle, future, result)
                except RuntimeError:  # that request's event loop is closed: nobody waits
                    pass

    def close(self) -> None:
        """Stop the threads once the batches being scored are done (items still queued
        are not scored; their requests are gone with the server)."""
        for _ in self._workers:
            self._queue.put(_STOP)


def _settle(future: asyncio.Future, result) -> None:
    if future.done():  # the request went away
        return
    if isinstance(result, BaseException):
        future.set_exception(result)
    else:
        future.set_result(result)
