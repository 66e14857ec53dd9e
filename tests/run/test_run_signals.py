"""Ctrl-C and SIGTERM stop ``paintkit run`` and ``paintkit generate`` cleanly (issue 38, items
7 and 11): no new work after the signal, what finished is recorded, exit 130 / 143 within
seconds even while a model call hangs, one line and no traceback; a second signal exits at
once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paintkit.run.records import read_log, read_manifest
from tests.support.loopback import Loopback
from tests.support.terminal import sigint_at_default

HERE = Path(__file__).resolve().parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parents[1]),
                                                    os.environ.get("PYTHONPATH", "")])}


def _popen(command, **kwargs) -> subprocess.Popen:
    """``command`` started with SIGINT at its default (:func:`sigint_at_default`)."""
    return subprocess.Popen(command, preexec_fn=sigint_at_default, **kwargs)


def _wait_for(predicate, seconds=240.0):  # a cold Numba cache compiles for a while first
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def _stop(proc, signum, within=10.0) -> tuple[int, float, str]:
    sent = time.monotonic()
    proc.send_signal(signum)
    try:
        _, err = proc.communicate(timeout=within + 20)
    finally:
        proc.kill()
    return proc.returncode, time.monotonic() - sent, err


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_hung_callable_run_stops_on_one_signal(signum, status, bench, tmp_path):
    counter = tmp_path / "calls"
    out = tmp_path / "out"
    proc = _popen(
        [sys.executable, "-m", "paintkit", "run", "--model", "editors:hang_after", "--option",
         f"count_file={counter}", "--option", "after=2", "--benchmarks", str(bench),
         "--outputs", str(out), "--name", "m", "--concurrency", "2", "--quiet"],
        env=ENV, stderr=subprocess.PIPE, text=True)
    _wait_for(lambda: counter.exists() and len(counter.read_text()) >= 4)  # 2 done, 2 hung
    time.sleep(0.3)
    code, seconds, err = _stop(proc, signum)
    assert code == status, err
    assert seconds < 5, f"took {seconds:.1f} s to stop"
    assert "Traceback" not in err
    word = "interrupted" if signum == signal.SIGINT else "terminated (SIGTERM)"
    assert f"paintkit run: {word}; every output written so far is kept" in err
    entry = read_manifest(out / "m")["runs"][-1]
    assert entry["ended"] and entry["written"] == 2  # what finished is recorded
    assert len([r for r in read_log(out / "m") if r["status"] == "ok"]) == 2
    assert len(list((out / "m").rglob("*_output.png"))) == 2


def test_an_api_run_stops_on_the_first_ctrl_c(bench, tmp_path):
    pytest.importorskip("openai")
    with Loopback(lambda key, attempt: "timeout", hang=30) as server:
        proc = _popen(
            [sys.executable, "-m", "paintkit", "run", "--model", "gpt-image-1", "--api-base",
             server.url + "/v1", "--benchmarks", str(bench), "--outputs", str(tmp_path),
             "--quiet"], env={**ENV, "OPENAI_API_KEY": "test-key"}, stderr=subprocess.PIPE,
            text=True)
        _wait_for(lambda: server.in_flight >= 8)
        code, seconds, err = _stop(proc, signal.SIGINT)
    assert code == 130 and seconds < 5, err
    assert "Traceback" not in err and err.count("interrupted") == 1
    assert read_manifest(tmp_path / "gpt-image-1")["runs"][-1]["ended"]


def test_a_second_signal_exits_at_once(tmp_path):
    """The first signal starts a slow stop; the second ends the process there and then."""
    ready = tmp_path / "ready"
    script = (
        "import sys, time\n"
        "from paintkit.cli.signals import stop_signals\n"
        "with stop_signals('paintkit x'):\n"
        "    try:\n"
        f"        open({str(ready)!r}, 'w').close()\n"
        "        time.sleep(60)\n"
        "    finally:  # a stop that takes long (say, a hung cleanup)\n"
        f"        open({str(ready)!r}, 'a').write('stopping')\n"
        "        time.sleep(60)\n")
    proc = _popen([sys.executable, "-c", script], env=ENV, stderr=subprocess.PIPE, text=True)
    _wait_for(ready.exists)
    proc.send_signal(signal.SIGINT)
    _wait_for(lambda: ready.read_text() == "stopping")
    code, seconds, err = _stop(proc, signal.SIGINT)
    assert code == 130 and seconds < 3
    assert err.strip() == ("paintkit x: stopped at once (second signal); every file written so "
                           "far is whole, run the same command again to resume")


def test_generate_with_jobs_stops_on_sigterm(tmp_path):
    out = tmp_path / "out"
    proc = _popen(
        [sys.executable, "-m", "paintkit", "generate", "paintbench", "--tasks", "translation",
         "--per-cell", "40", "--namespace", "sig", "--jobs", "2", "--out", str(out), "--quiet"],
        env=ENV, stderr=subprocess.PIPE, text=True)
    _wait_for(lambda: len(list(out.rglob("*.json"))) >= 3)
    code, seconds, err = _stop(proc, signal.SIGTERM)
    assert code == 143, err
    assert seconds < 10
    assert "paintkit generate: terminated (SIGTERM); every finished file is kept" in err
    assert "Traceback" not in err and "leaked semaphore" not in err


def _processes() -> dict[int, tuple[int, bytes]]:
    """pid -> (parent pid, command line) of every process."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_bytes()
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            found[int(entry)] = (int(stat.rsplit(b")", 1)[1].split()[1]), cmdline)
    return found


def _workers(pid: int) -> list[int]:
    """Pool workers below ``pid``: spawned ones, or those a fork server forked."""
    table = _processes()
    below, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for child, (ppid, _) in table.items():
            if ppid == parent and child not in below:
                below.add(child)
                todo.append(child)
    return sorted(p for p in below if b"spawn_main" in table[p][1]
                  or b"forkserver" in table.get(table[p][0], (0, b""))[1])


def test_a_killed_pool_worker_is_one_line_naming_memory(tmp_path):
    """SIGKILL one worker of ``generate --jobs 2``, as the OOM killer does (issue 38, item 10).

    A worker killed half-way through sending its result once left the engine's wait without
    end (tests/engines/test_stop_now.py); a run that does not end gets its threads' stacks
    dumped (faulthandler, SIGABRT) into the failure message."""
    out = tmp_path / "out"
    command = [sys.executable, "-X", "faulthandler", "-m", "paintkit", "generate", "paintbench",
               "--tasks", "translation", "--per-cell", "40", "--namespace", "oom", "--jobs", "2",
               "--out", str(out), "--quiet"]
    proc = _popen(command, env=ENV, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(lambda: len(list(out.rglob("*.json"))) >= 3 and _workers(proc.pid))
        os.kill(_workers(proc.pid)[0], signal.SIGKILL)
        try:
            _, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)  # faulthandler: every thread's stack to stderr
            _, err = proc.communicate(timeout=20)
            raise AssertionError(f"the run did not end after its worker was killed:\n"
                                 f"{err[-6000:]}") from None
    finally:
        proc.kill()
    assert proc.returncode == 1, err
    assert "Traceback" not in err and "BrokenProcessPool" not in err
    # The resource tracker may warn of the semaphores the killed worker could not release
    # (its own process, not paintkit's output); every other line is paintkit's one line.
    lines = [line for line in err.splitlines() if line.strip()
             and "resource_tracker" not in line and "warnings.warn(" not in line]
    assert len(lines) == 1, err
    (line,) = lines
    assert line.startswith("paintkit generate: error: a worker process was killed")
    assert "out of memory" in line and "run the same command again" in line
