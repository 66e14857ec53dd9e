"""``bench/device_check.sh --dry-run``: the GPU check's script runs its sections on the CPU.

A GPU is lent to this project rarely and for minutes: the script must work the first time.
The dry run exercises every section (environment, exact counts, synchronisation check,
throughput with the kornia baseline, kernel tuning, memory) at toy sizes and writes both
summaries.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_device_check_dry_run_writes_both_summaries(tmp_path):
    env = dict(os.environ, OUT=str(tmp_path), PYTHON=sys.executable)
    run = subprocess.run(["bash", "bench/device_check.sh", "--dry-run"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    results = json.loads((tmp_path / "device_check.json").read_text())
    assert results["dry_run"] is True
    failed = {k: v["error"] for k, v in results.items() if isinstance(v, dict) and "error" in v}
    assert not failed
    assert results["exact"]["ok"] and results["exact"]["outputs"] > 0
    paths = {row["path"] for row in results["throughput"]["rows"]}
    assert {"torch uint8", "kornia float32"} <= paths
    assert "Throughput" in (tmp_path / "device_check.md").read_text()


def test_device_check_runs_the_sections_asked_for_and_refuses_unknown_ones(tmp_path, capsys):
    """``DEVICE_CHECK_SECTIONS`` (``--sections``) runs those sections alone, plus the
    environment: what a short second call on a GPU machine uses."""
    env = dict(os.environ, OUT=str(tmp_path), PYTHON=sys.executable,
               DEVICE_CHECK_SECTIONS="kernel,memory")
    run = subprocess.run(["bash", "bench/device_check.sh", "--dry-run"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    results = json.loads((tmp_path / "device_check.json").read_text())
    assert set(results["seconds"]) == {"environment", "kernel", "memory"}
    assert results["kernel"] == {"skipped": "no CUDA device (dry run)"}
    from bench.device_check import main

    with pytest.raises(SystemExit) as refused:
        main(["--dry-run", "--out", str(tmp_path), "--sections", "exact,kernels"])
    assert refused.value.code == 2
    assert "unknown sections ['kernels']" in capsys.readouterr().err
