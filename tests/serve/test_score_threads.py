"""Where the service spends its CPU: batches scored in several threads at once, each kernel
on one core under load (a batch alone takes the idle threads' cores), and raw pixels of a
prepared problem taken without a hop to a decode thread. Rewards stay the in-process ones
bit for bit (tests/serve/test_equal_in_process.py)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import threading
import time

import httpx
import numpy as np
import pytest
from PIL import Image

from paintkit.metrics import reward
from paintkit.rewards.client import RewardClient
from paintkit.serve.batcher import ScoreBatcher
from tests.serve.conftest import noisy


def test_batches_are_scored_in_several_threads_at_once():
    two_in_flight = threading.Barrier(2, timeout=10)

    def score(items):  # returns only once two batches are being scored together
        two_in_flight.wait()
        return [item * 2 for item in items]

    async def main():
        batcher = ScoreBatcher(score, max_batch=1, max_wait_ms=0, threads=2)
        try:
            return await asyncio.gather(batcher.score([1]), batcher.score([2]))
        finally:
            batcher.close()

    assert asyncio.run(main()) == [[2], [4]]


def test_one_thread_scores_one_batch_at_a_time():
    active, most = [0], [0]
    lock = threading.Lock()

    def score(items):
        with lock:
            active[0] += 1
            most[0] = max(most[0], active[0])
        time.sleep(0.05)
        with lock:
            active[0] -= 1
        return items

    async def main():
        batcher = ScoreBatcher(score, max_batch=1, max_wait_ms=0, threads=1)
        try:
            return await asyncio.gather(*(batcher.score([k]) for k in range(4)))
        finally:
            batcher.close()

    assert asyncio.run(main()) == [[0], [1], [2], [3]]
    assert most[0] == 1


def test_a_busy_event_loop_does_not_hold_back_the_next_batch():
    calls = []

    def score(items):
        calls.append(time.monotonic())
        time.sleep(0.05)
        return items

    async def main():
        batcher = ScoreBatcher(score, max_batch=1, max_wait_ms=0, threads=1)
        try:
            waiting = asyncio.ensure_future(
                asyncio.gather(*(batcher.score([k]) for k in range(3))))
            await asyncio.sleep(0)  # the three items are queued
            time.sleep(0.5)  # the loop is busy (reading a large body, say)
            busy_until = time.monotonic()
            return await waiting, busy_until
        finally:
            batcher.close()

    results, busy_until = asyncio.run(main())
    assert results == [[0], [1], [2]]
    assert len(calls) == 3 and all(t < busy_until for t in calls)  # all scored meanwhile


def test_a_failed_batch_fails_its_items_and_the_batcher_goes_on():
    def score(items):
        if items == ["bad"]:
            raise RuntimeError("kernel exploded")
        return items

    async def main():
        batcher = ScoreBatcher(score, max_batch=1, max_wait_ms=0, threads=2)
        try:
            return await asyncio.gather(batcher.score(["bad"]), batcher.score(["good"]))
        finally:
            batcher.close()

    bad, good = asyncio.run(main())
    assert isinstance(bad[0], RuntimeError) and good == ["good"]


def _cores_per_batch(threads, items, score=None, busy_elsewhere=None):
    """``[(item, cores)]`` in the order batches started, for ``items`` queued at once on a
    batcher with ``threads`` scoring threads (``score(item)`` runs inside each batch)."""
    seen, lock = [], threading.Lock()
    cores = threading.local()

    def score_fn(batch):
        with lock:
            seen.append((batch[0], cores.n))
        if score is not None:
            score(batch[0])
        return batch

    async def main():
        batcher = ScoreBatcher(score_fn, max_batch=1, max_wait_ms=0, threads=threads,
                               kernel_threads=lambda n: setattr(cores, "n", n),
                               busy_elsewhere=busy_elsewhere)
        try:
            return await asyncio.gather(*(batcher.score([item]) for item in items))
        finally:
            batcher.close()

    assert asyncio.run(main()) == [[item] for item in items]
    return seen


def test_a_batch_alone_takes_the_cores_of_the_idle_scoring_threads():
    assert _cores_per_batch(2, ["alone"]) == [("alone", 2)]
    assert _cores_per_batch(4, ["alone"]) == [("alone", 4)]


def test_a_batch_alone_keeps_to_one_core_while_a_body_is_read():
    assert _cores_per_batch(2, ["alone"], busy_elsewhere=lambda: True) == [("alone", 1)]
    assert _cores_per_batch(2, ["alone"], busy_elsewhere=lambda: False) == [("alone", 2)]


def test_under_load_each_batch_keeps_to_one_core():
    third_started = threading.Event()

    def score(item):
        if item == 2:  # still scoring when item 3 starts: no core is idle then
            assert third_started.wait(10)
        elif item == 3:
            third_started.set()

    # items 1 and 2 start with more queued; item 3 starts while item 2 is scored
    assert sorted(_cores_per_batch(2, [1, 2, 3], score)) == [(1, 1), (2, 1), (3, 1)]


def test_cpu_scoring_threads_set_their_kernels_cores_per_batch(start_service, problems):
    numba = pytest.importorskip("numba")
    before = numba.get_num_threads()
    service = start_service(score_threads=2)
    seen = []
    batcher = service.service.batcher
    score_fn = batcher.score_fn
    batcher.score_fn = lambda items: seen.append(numba.get_num_threads()) or score_fn(items)
    problem = problems[1]
    image = noisy(problem.answer, 3)
    got = RewardClient(service.url).score([image], [problem.metadata["problem_id"]])
    assert got.tobytes() == reward(image[None], [problem.answer], [problem.input]).numpy().tobytes()
    # a lone request: its batch takes the idle thread's core too (as many as Numba has)
    assert batcher.threads == 2 and seen == [min(2, numba.config.NUMBA_NUM_THREADS)]
    turns = service.service.body_turns  # while a large body is read, a batch keeps to one core
    assert batcher.busy_elsewhere() is False
    turns.busy = True
    try:
        assert batcher.busy_elsewhere() is True
    finally:
        turns.busy = False
    assert httpx.get(service.url + "/health").json()["score_threads"] == 2
    assert numba.get_num_threads() == before  # only the scoring threads changed


def test_raw_pixels_of_a_prepared_problem_skip_the_decode_threads(start_service, problems):
    service = start_service()
    problem = problems[0]
    pid = problem.metadata["problem_id"]
    client = RewardClient(service.url)
    images = [noisy(problem.answer, seed) for seed in range(4)]
    first = client.score_one(images[0], pid)  # prepares the problem in a decode thread
    hops = []
    run = service.service.run

    async def counted(fn, *args):
        hops.append(getattr(fn, "__name__", fn))
        return await run(fn, *args)

    service.service.run = counted
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda image: client.score_one(image, pid), images))
    assert hops == []
    got += list(client.score(images, [pid] * 4))
    assert hops == ["parse_batch"]  # the batch's header is parsed off the loop, its items not
    expected = reward(np.stack(images), [problem.answer] * 4, [problem.input] * 4).numpy()
    assert np.array(got, np.float32).tobytes() == np.concatenate([expected, expected]).tobytes()
    assert first == got[0]
    # a PNG is decoded in a decode thread even when its problem is prepared
    buffer = io.BytesIO()
    Image.fromarray(images[1]).save(buffer, format="PNG")
    answer = httpx.post(f"{service.url}/v1/score/{pid}", content=buffer.getvalue(),
                        headers={"content-type": "image/png"})
    assert answer.status_code == 200 and np.float32(answer.json()["reward"]) == expected[1]
    assert hops == ["parse_batch", "prepare"]


def test_a_problem_being_prepared_is_not_taken_from_the_cache(start_service, problems):
    service = start_service()
    cache = service.service.targets.cache
    pid = problems[2].metadata["problem_id"]
    assert service.service.targets.cached(pid) is None  # not prepared: never waited for
    release = threading.Event()

    def slow_load():
        release.wait(10)
        return problems[2].answer, problems[2].input

    loader = threading.Thread(target=lambda: cache.get(("id", pid), load=slow_load))
    loader.start()
    time.sleep(0.1)
    assert service.service.targets.cached(pid) is None  # being prepared: no wait
    release.set()
    loader.join(10)
    assert service.service.targets.cached(pid) is not None
    assert service.service.targets.cached(12) is None


def test_requests_after_the_warm_up_compile_no_kernel(start_service, problems):
    """The warm-up scores a writable image; a raw body is a read-only one (``np.frombuffer``)
    and a PNG another writable one: all three reach the counting kernel under one compiled
    signature, so the first real request does not wait seconds for a compile."""
    from paintkit.kernels.counting import cie76_numba as tolerance_counts

    service = start_service()
    problem = problems[0]
    pid = problem.metadata["problem_id"]
    kernel = tolerance_counts._histograms_kernel
    compiled = len(kernel.signatures)
    assert compiled >= 1  # the warm-up's
    with RewardClient(service.url) as raw, RewardClient(service.url, encoding="png") as png:
        assert raw.score_one(noisy(problem.answer, 1), pid) == png.score_one(
            noisy(problem.answer, 1), pid)
        raw.score([problem.answer], [pid])
    assert len(kernel.signatures) == compiled, kernel.signatures
