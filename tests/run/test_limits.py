"""Request pacing, back-off with jitter, the retry budget, and error classification."""

from __future__ import annotations

import pickle

import pytest

from paintkit.run.api.base import classify, describe_error
from paintkit.run.api.limits import RateLimiter, RetryPolicy


class FakeClock:
    def __init__(self):
        self.now = 100.0
        self.slept = []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.slept.append(seconds)
        self.now += seconds


def test_rate_limiter_spaces_request_starts():
    clock = FakeClock()
    limiter = RateLimiter(120, clock=clock, sleep=clock.sleep)  # one start per 0.5 s
    starts = []
    for _ in range(5):
        limiter.wait()
        starts.append(clock.now)
    assert starts == [100.0, 100.5, 101.0, 101.5, 102.0]
    clock.now += 10  # after an idle spell the next request starts at once...
    slept = len(clock.slept)
    limiter.wait()
    assert clock.now == 112.0 and len(clock.slept) == slept
    limiter.wait()  # ...and the one after it waits its interval again (no burst credit)
    assert clock.now == 112.5
    unlimited = RateLimiter(None, clock=clock, sleep=clock.sleep)
    before = len(clock.slept)
    for _ in range(100):
        unlimited.wait()
    assert len(clock.slept) == before
    with pytest.raises(ValueError, match="rpm"):
        RateLimiter(-1)


def test_back_off_is_exponential_with_full_jitter_and_capped():
    policy = RetryPolicy(retries=10, base_delay=1.0, max_delay=8.0, seed=0)
    for retry, cap in ((1, 1), (2, 2), (3, 4), (4, 8), (5, 8), (9, 8)):
        delays = [policy.delay(retry) for _ in range(200)]
        assert 0 <= min(delays) and max(delays) <= cap
        assert max(delays) > 0.8 * cap  # jitter spreads over the whole range
        assert len(set(delays)) > 150
    assert policy.delay(1, retry_after=5) == 5  # the server's Retry-After when longer
    assert policy.delay(1, retry_after=100) == 8  # never beyond max_delay


class Status(Exception):
    def __init__(self, status_code):
        super().__init__(f"status {status_code}")
        self.status_code = status_code


def test_retry_budget_then_the_last_error_with_its_attempts():
    calls = []

    def always_429():
        calls.append(1)
        raise Status(429)

    slept = []
    policy = RetryPolicy(retries=3, base_delay=0.5, max_delay=1, seed=1)
    with pytest.raises(Status) as info:
        policy.call(always_429, classify, sleep=slept.append)
    assert len(calls) == 4 and len(slept) == 3 and info.value.attempts == 4
    assert "(after 4 attempt(s))" in describe_error(info.value)
    calls.clear()

    def bad_request():
        calls.append(1)
        raise Status(400)

    with pytest.raises(Status):
        policy.call(bad_request, classify, sleep=slept.append)
    assert len(calls) == 1  # permanent errors are not retried
    outcomes = iter([Status(503), Status(502), "done"])

    def flaky():
        item = next(outcomes)
        if isinstance(item, Exception):
            raise item
        return item

    assert policy.call(flaky, classify, sleep=slept.append) == ("done", 3)


def test_classify():
    assert classify(Status(429))[0] and classify(Status(500))[0] and classify(Status(408))[0]
    assert not classify(Status(400))[0] and not classify(Status(401))[0]
    assert classify(TimeoutError())[0] and classify(ConnectionError())[0]
    assert not classify(ValueError("bad image"))[0]


def test_planner_pickles_without_its_client(monkeypatch):
    pytest.importorskip("openai")
    from paintkit.run.planner import Planner

    monkeypatch.setenv("OPENAI_API_KEY", "k")
    planner = Planner("chat-model", base_url="http://127.0.0.1:9/v1", rpm=30)
    copy = pickle.loads(pickle.dumps(planner))
    assert copy.describe() == planner.describe() and copy.limiter.interval == 2.0
