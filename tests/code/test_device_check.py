"""``bench/device_check.sh --dry-run``: the GPU check's script runs its sections on the CPU.

A GPU is lent to this project rarely and for minutes: the script must work the first time.
The dry run exercises every section at toy sizes and writes both summaries: in the default
run those that start nothing (environment, exact counts of every formula, synchronisation
check, throughput with the kornia baseline, kernel tuning, memory); marked slow, all of them
(the reward service driven by client processes, the whole pipeline, Ray).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


#: The sections of the default run's dry run: those that start no service, pool or cluster.
QUICK_SECTIONS = "exact,formulas_exact,sync,throughput,formulas_throughput,kernel,memory"


def test_device_check_dry_run_writes_both_summaries(tmp_path):
    env = dict(os.environ, OUT=str(tmp_path), PYTHON=sys.executable,
               DEVICE_CHECK_SECTIONS=QUICK_SECTIONS)
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
    assert results["formulas_exact"]["ok"] and results["formulas_exact"]["outputs"] > 0
    assert {r["formula"] for r in results["formulas_throughput"]["rows"]} == {
        "cie76", "cie94", "ciede2000"}
    summary = (tmp_path / "device_check.md").read_text()
    assert "Throughput" in summary and "Every formula and Lab source: exact" in summary


@pytest.mark.slow  # ~3.5 min on 2 busy cores: a service, generate runs and a Ray instance
def test_device_check_dry_run_runs_every_section(tmp_path):
    """All sections, the service, pipeline and Ray ones too, at toy sizes on the CPU: each
    recorded without an error, and summarised."""
    from bench.device_check import SECTIONS

    env = dict(os.environ, OUT=str(tmp_path), PYTHON=sys.executable)
    env.pop("DEVICE_CHECK_SECTIONS", None)
    run = subprocess.run(["bash", "bench/device_check.sh", "--dry-run"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    results = json.loads((tmp_path / "device_check.json").read_text())
    assert set(SECTIONS) <= set(results) and set(results["seconds"]) == set(SECTIONS)
    failed = {k: v["error"] for k, v in results.items() if isinstance(v, dict) and "error" in v}
    assert not failed
    assert {r["clients"] for r in results["serve"]["rows"]} == {1, 2}
    assert {r["encoding"] for r in results["serve"]["grpo_step"]} == {"raw", "png"}
    assert {r["way"] for r in results["pipeline"]["rows"]} == {"files", "shards", "stream"}
    assert all(r["problems"] > 0 for r in results["pipeline"]["rows"])
    assert results["ray"].get("equal_rows") is True or "skipped" in results["ray"]
    summary = (tmp_path / "device_check.md").read_text()
    assert "paintkit serve on the device" in summary and "The whole pipeline" in summary


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
