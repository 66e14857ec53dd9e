"""Every command answers a fault with one line, never a traceback (issue 23, item 8):
Ctrl-C, a full disk, a read-only output folder."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

import pytest

import paintkit.io.atomic as atomic_module
import paintkit.io.folder_lock as folder_lock
import paintkit.layout.problem_stats as results_module
from paintkit.cli.main import main
from paintkit.eval import read_rows
from paintkit.layout.results import PROBLEM_STATS_NAME as RESULTS_NAME
from tests.support.generate_helpers import _alive, _descendants, kill_tree
from tests.support.terminal import sigint_at_default

# --- Ctrl-C -----------------------------------------------------------------------------


def _interrupt(command: list[str], started, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``command`` in its own process group, wait for ``started()`` and two worker
    processes, send SIGINT to the whole group (what Ctrl-C in a terminal does)."""
    proc = subprocess.Popen(command, start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=sigint_at_default)
    try:
        deadline = time.monotonic() + timeout
        workers: set[int] = set()
        while time.monotonic() < deadline and proc.poll() is None:
            workers = _descendants(proc.pid)
            if len(workers) >= 2 and started():
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the run finished before it could be interrupted"
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.1)
        assert not [w for w in workers if _alive(w)], "workers outlived the interrupt"
        return subprocess.CompletedProcess(command, proc.returncode, out, err)
    finally:
        kill_tree(proc.pid)


def _after(seconds: float):
    first: list[float] = []

    def started() -> bool:
        first.append(time.monotonic())
        return first[-1] - first[0] > seconds

    return started


def _one_interrupted_line(run, command: str) -> None:
    assert run.returncode == 130, run.stderr
    assert "Traceback" not in run.stderr and "KeyboardInterrupt" not in run.stderr, run.stderr
    assert run.stderr.strip().splitlines()[-1].startswith(f"paintkit {command}: interrupted; ")
    assert len([line for line in run.stderr.splitlines() if line.strip()]) == 1, run.stderr


@pytest.mark.slow  # ~8 s on a busy machine; the stats test below covers the same pool
def test_ctrl_c_in_eval_with_workers(tmp_path):
    from paintkit.eval.synthetic import write_synthetic_tree

    bench, outputs = write_synthetic_tree(  # several seconds of scoring on any machine
        tmp_path / "data", problems=160, tasks=2, width=64, height=64, models=("a", "b"),
        missing_every=0, corrupt_every=0, resized_every=0)
    out = tmp_path / "r"
    results = out / RESULTS_NAME
    run = _interrupt([sys.executable, "-m", "paintkit.cli.main", "eval", "--benchmarks",
                      str(bench), "--outputs", str(outputs), "--results", str(out), "--jobs", "2",
                      "--quiet"],
                     lambda: results.exists() and results.stat().st_size > 0)
    _one_interrupted_line(run, "eval")
    assert "run the same command again to resume" in run.stderr
    rows = read_rows(results)  # what was written is whole rows
    assert all(json.loads(json.dumps(r)) == r for r in rows)


def test_ctrl_c_in_stats_with_workers(tmp_path):
    from tests.support.rows_factory import paintbench_rows

    path = tmp_path / "problem_stats.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in paintbench_rows(per_cell=30)))
    run = _interrupt([sys.executable, "-m", "paintkit.cli.main", "stats", "--results", str(path),
                      "--aggregate", str(tmp_path / "agg.jsonl"), "--jobs", "2", "--n-boot",
                      "100000"], _after(1.0))
    _one_interrupted_line(run, "stats")
    assert not (tmp_path / "agg.jsonl").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize("command", ["eval", "stats", "explain", "baseline", "report"])
def test_ctrl_c_is_one_line_in_every_command(results, tmp_path, monkeypatch, capsys, command):
    """The same handler for the commands without workers (the signal arrives as
    KeyboardInterrupt wherever the command is)."""
    bench, outputs, res = results

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    targets = {"eval": ("paintkit.eval.runner", "evaluate"),
               "stats": ("paintkit.stats.aggregate_folder", "aggregate_tables"),
               "explain": ("paintkit.explainer.directory", "explain_directory"),
               "baseline": ("paintkit.baselines", "write_baseline"),
               "report": ("paintkit.report.write", "build_report")}
    module, name = targets[command]
    monkeypatch.setattr(f"{module}.{name}", interrupted)
    args = {"eval": ["--benchmarks", str(bench), "--outputs", str(outputs), "--results", str(res)],
            "stats": ["--results", str(res), "--aggregate", str(tmp_path / "a.jsonl")],
            "explain": ["--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                        str(tmp_path / "x")],
            "baseline": ["oracle", "--benchmarks", str(bench), "--outputs", str(tmp_path / "o")],
            "report": ["--results", str(res), "--output", str(tmp_path / "r.html")]}[command]
    assert main([command, *args]) == 130
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"paintkit {command}: interrupted; ")


# --- a full disk --------------------------------------------------------------------------


class _FullDisk:
    """A file whose writes fail with ENOSPC once ``room`` bytes are written."""

    def __init__(self, fh, room: int):
        self._fh, self._room = fh, room

    def write(self, text):
        if len(text) > self._room:
            raise OSError(errno.ENOSPC, "No space left on device")
        self._room -= len(text)
        return self._fh.write(text)

    def __getattr__(self, name):
        return getattr(self._fh, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._fh.close()


def _full_disk(monkeypatch, module, room: int = 0) -> None:
    real_open = open

    def opener(path, *args, **kwargs):
        return _FullDisk(real_open(path, *args, **kwargs), room)

    monkeypatch.setattr(module, "open", opener, raising=False)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_full_disk_in_eval(tree, tmp_path, monkeypatch, capsys, jobs):
    bench, outputs = tree
    _full_disk(monkeypatch, results_module, room=3000)  # room for a row or two
    out = tmp_path / "r"
    code = main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                 str(out), "--jobs", jobs, "--quiet"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and lines == [
        f"paintkit eval: error: {out / RESULTS_NAME}: No space left on device; free some "
        "space and run the same command again"]
    monkeypatch.undo()  # space again: the same command resumes
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                 str(out), "--jobs", jobs, "--quiet"]) == 0
    assert len(read_rows(out / RESULTS_NAME)) == 8  # 4 problems x 2 models


@pytest.mark.parametrize("command, output", [("stats", "a.jsonl"), ("report", "r.html"),
                                             ("agreement", "a.json")])
def test_full_disk_in_stats_report_agreement(stats_input, tmp_path, monkeypatch, capsys,
                                             command, output):
    _full_disk(monkeypatch, atomic_module)
    target = tmp_path / output
    if command == "agreement":
        (tmp_path / "j.jsonl").write_text("".join(json.dumps(
            {"task": "recolor", "idx": k, "rating": k / 4}) + "\n" for k in range(4)))
        args = ["--scores", str(stats_input / RESULTS_NAME), "--judgments",
                str(tmp_path / "j.jsonl"), "--output", str(target), "--resamples", "5",
                "--score-field", "output.cie76_mean.iou"]
    else:
        flag = "--aggregate" if command == "stats" else "--output"
        args = ["--results", str(stats_input), flag, str(target), "--n-boot", "10"]
    code = main([command, *args])
    lines = [line for line in capsys.readouterr().err.strip().splitlines()
             if line.startswith("paintkit")]
    assert code == 1 and lines == [
        f"paintkit {command}: error: {target}: No space left on device; free some space and "
        "run the same command again"]
    assert not target.exists() and not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


# --- a read-only output folder -----------------------------------------------------------


def _read_only(monkeypatch, folder) -> None:
    """Every file created in ``folder`` fails with EROFS, as on a read-only mount (root
    ignores permission bits, so the test cannot use chmod)."""
    real_mkstemp, real_open = tempfile.mkstemp, open
    folder = str(folder)

    def mkstemp(*args, dir=None, **kwargs):
        if dir is not None and str(dir).startswith(folder):
            raise OSError(errno.EROFS, "Read-only file system", str(dir))
        return real_mkstemp(*args, dir=dir, **kwargs)

    def opener(path, *args, **kwargs):
        if str(path).startswith(folder):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(folder_lock, "open", opener, raising=False)


@pytest.mark.parametrize("command", ["stats", "report", "explain", "agreement", "baseline",
                                     "scene", "gallery"])
def test_read_only_output_folder(results, tmp_path, monkeypatch, capsys, command):
    bench, outputs, res = results
    ro = tmp_path / "ro"
    ro.mkdir()
    (tmp_path / "j.jsonl").write_text("".join(json.dumps(
        {"task": "task_0", "idx": k, "rating": k / 4}) + "\n" for k in range(2)))
    (ro / "oracle" / "PaintBench" / "task_0").mkdir(parents=True)
    (ro / "oracle" / "PaintBench" / "task_1").mkdir(parents=True)
    args = {"stats": ["--results", str(res), "--aggregate", str(ro / "a.jsonl"), "--n-boot", "10"],
            "report": ["--results", str(res), "--output", str(ro / "r.html"), "--n-boot", "10"],
            "explain": ["--benchmarks", str(bench), "--outputs", str(outputs), "--results", str(ro),
                        "--jobs", "1", "--quiet"],
            "agreement": ["--scores", str(res / RESULTS_NAME), "--judgments",
                          str(tmp_path / "j.jsonl"), "--output", str(ro / "a.json"),
                          "--resamples", "5"],
            "baseline": ["oracle", "--benchmarks", str(bench), "--outputs", str(ro)],
            "scene": ["--output", str(ro / "s.png")],
            "gallery": ["--out", str(ro), "--per-condition", "1"]}[command]
    _read_only(monkeypatch, ro)
    before = sorted(p.name for p in ro.rglob("*") if p.is_file())
    code = main([command, *args])
    lines = [line for line in capsys.readouterr().err.strip().splitlines()
             if line.startswith(f"paintkit {command}")]
    assert code == 1 and len(lines) == 1, lines
    assert "Read-only file system" in lines[0] and "choose a writable folder" in lines[0]
    assert str(ro) in lines[0]
    assert sorted(p.name for p in ro.rglob("*") if p.is_file()) == before  # nothing written
