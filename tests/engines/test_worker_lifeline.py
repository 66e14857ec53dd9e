"""Every process pool's workers die with a SIGKILLed parent (issue 23, item 3): ``stats
--jobs 2`` left both workers running under PID 1; eval, explain and generate are covered in
their own fault tests (a SIGKILLed parent leaves no worker)."""

from __future__ import annotations

import json
import sys
import time

import pytest

from tests.support.generate_helpers import kill_parent_and_check_workers


def _after(seconds: float):
    """A ``started()`` that turns true ``seconds`` after its first call (workers seen)."""
    first = []

    def started() -> bool:
        first.append(time.monotonic())
        return first[-1] - first[0] > seconds

    return started


def test_stats_workers_die_with_their_parent(tmp_path):
    from tests.support.rows_factory import paintbench_rows

    results = tmp_path / "problem_stats.jsonl"  # two models: a few seconds of bootstrap each
    results.write_text("".join(json.dumps(r) + "\n" for r in paintbench_rows(per_cell=30)))
    command = [sys.executable, "-m", "paintkit.cli.main", "stats", "--results", str(results),
               "--output", str(tmp_path / "agg.jsonl"), "--jobs", "2", "--n-boot", "100000"]
    kill_parent_and_check_workers(command, _after(1.0))
    assert not (tmp_path / "agg.jsonl").exists()


def _death_signal(chunk=None) -> tuple[int, int]:
    """(pid, the signal the kernel sends this process when its parent exits) of a worker."""
    import ctypes
    import os

    libc = ctypes.CDLL(None, use_errno=True)
    value = ctypes.c_int(-1)
    assert libc.prctl(2, ctypes.byref(value), 0, 0, 0) == 0  # PR_GET_PDEATHSIG
    return os.getpid(), value.value


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_the_workers_of_eval_explain_and_stats_are_bound_to_their_parent():
    """The pools of eval/explain (map_in_workers) and stats (worker_pool) arm SIGKILL on the
    parent's death in every worker before it runs any work."""
    import os
    import signal

    from paintkit.parallel import map_in_workers, worker_pool

    seen: list[tuple[int, int]] = []
    map_in_workers(_death_signal, range(8), (), 2, seen.append)
    with worker_pool(2) as pool:
        seen += [f.result() for f in [pool.submit(_death_signal) for _ in range(4)]]
    assert len(seen) == 12 and os.getpid() not in {pid for pid, _ in seen}
    assert {sig for _, sig in seen} == {signal.SIGKILL}
    assert _death_signal()[1] == 0  # the test process itself is not bound: the probe can tell
