"""Every process pool's workers die with a SIGKILLed parent (issue 23, item 3): ``stats
--jobs 2`` left both workers running under PID 1; eval, explain and generate are covered in
their own fault tests."""

from __future__ import annotations

import json
import sys
import time

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
    command = [sys.executable, "-m", "paintkit.cli.main", "stats", "--input", str(results),
               "--output", str(tmp_path / "agg.jsonl"), "--jobs", "2", "--n-boot", "100000"]
    kill_parent_and_check_workers(command, _after(1.0))
    assert not (tmp_path / "agg.jsonl").exists()


def test_every_pool_is_a_worker_pool():
    """No module starts a ProcessPoolExecutor of its own but the lifeline's worker_pool (and
    the generate engine, whose workers bind themselves in paintkit/engines/work.py)."""
    from pathlib import Path

    import paintkit

    root = Path(paintkit.__file__).parent
    starters = sorted(str(p.relative_to(root)) for p in root.rglob("*.py")
                      if "ProcessPoolExecutor(" in p.read_text(encoding="utf-8"))
    assert starters == ["engines/lifeline.py", "engines/local.py"]
    assert "bind_to_parent" in (root / "engines" / "work.py").read_text()
