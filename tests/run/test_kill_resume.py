"""A ``paintkit run`` killed with SIGKILL mid-run, then run again: every output exactly once."""

from __future__ import annotations

import collections
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from paintkit.eval import discover_problems
from paintkit.io.images import load_rgb
from paintkit.run.records import read_log, read_manifest

HERE = Path(__file__).resolve().parent


def _command(bench, out, concurrency):
    return [sys.executable, "-m", "paintkit", "run", "--model", "editors:slow", "--option",
            "delay=0.15", "--benchmarks", str(bench), "--outputs", str(out), "--name", "m",
            "--concurrency", str(concurrency), "--quiet"]


def test_sigkill_then_rerun_gives_every_output_once(bench, tmp_path):
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(_command(bench, out, 2), env=env, stderr=subprocess.PIPE)
    folder = out / "m"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(folder.rglob("*_output.png"))) < 3:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    written = len(list(folder.rglob("*_output.png")))
    assert 3 <= written < 12, "the run should have been killed midway"
    entry = read_manifest(folder)["runs"][0]
    assert entry["ended"] is None  # the killed run never finished its manifest entry
    rerun = subprocess.run(_command(bench, out, 1), env=env, capture_output=True, text=True,
                           timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    problems = discover_problems(bench)
    names = collections.Counter(p.name for p in folder.rglob("*") if p.is_file())
    for problem in problems:
        assert names[f"{problem.idx:04d}_output.png"] == 3  # once per task folder (3 tasks)
        load_rgb(problem.output_path(out, "m"))
    assert not [p for p in folder.rglob(".*") if p.name.endswith(".tmp")]
    ok = collections.Counter(r["key"] for r in read_log(folder) if r["status"] == "ok")
    assert max(ok.values()) == 1
    last = read_manifest(folder)["runs"][-1]
    assert last["skipped"] >= written and last["written"] + last["skipped"] == 12
