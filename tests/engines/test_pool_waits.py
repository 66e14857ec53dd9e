"""Every wait on a paintkit process pool ends when a worker dies half-way through a result.

A worker killed while it sends a result (the OOM killer's SIGKILL) leaves the pool's
manager thread waiting forever for the rest of that message: the pool never marks itself
broken and no future finishes. ``generate``'s engine checks its workers while it waits
(tests/engines/test_stop_now.py); these are the other pools: :func:`map_in_workers`
(``eval``, ``explain``, ``verify``), ``stats`` / ``report``'s bootstrap tables, and
``paintkit eval --jobs 2`` end to end. One worker sends the start of a message announcing
1 MB and exits at once, as a SIGKILL would leave it. The oracle is the child process's own
exit within a time limit (the defect is a wait that never ends) and the error it reports.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from paintkit.eval.synthetic import write_synthetic_tree

ROOT = Path(__file__).resolve().parents[2]

#: Seconds the child may take; a wait that ignores the dead worker never ends.
LIMIT_S = 90

#: Seconds from the worker's death to the error: the checks run each second (the defect is
#: a wait without end; the margin is for a loaded 2-core machine).
NOTICE_S = 15

DYING = textwrap.dedent("""
    import os, struct, sys, time

    def die_mid_result(marker):
        '''Exactly one call (the first to create ``marker``) writes the start of a 1 MB
        result to the pool's result pipe, notes the time and exits; the others return.'''
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return False
        frame = sys._getframe()
        while frame.f_code.co_name != "_process_worker":  # the pool's worker loop
            frame = frame.f_back
        writer = frame.f_locals["result_queue"]._writer
        os.write(writer.fileno(), struct.pack("!i", 1 << 20) + b"x" * 10)
        with open(marker, "w") as fh:
            fh.write(repr(time.time()))
        os._exit(137)  # as the OOM killer's SIGKILL: mid-send, the pool never hears of it

    def report_since(marker):
        with open(marker) as fh:
            print(f"noticed after {time.time() - float(fh.read()):.1f} s", flush=True)
""")

MAP_SCRIPT = DYING + textwrap.dedent("""
    def chunk_job(chunk, marker):
        die_mid_result(marker)
        return [x * x for x in chunk]

    if __name__ == "__main__":
        from concurrent.futures import BrokenExecutor
        from paintkit.parallel import map_in_workers
        marker, got = sys.argv[1], []
        try:
            map_in_workers(chunk_job, [[k] for k in range(12)], (marker,), 2, got.extend)
        except BrokenExecutor as exc:
            print("broken:", exc, flush=True)
            report_since(marker)
        else:
            print("finished:", got, flush=True)
""")

STATS_SCRIPT = DYING + textwrap.dedent("""
    def table_job(work):
        die_mid_result(work[0])
        return [{"table": work[0]}]

    if __name__ == "__main__":
        from concurrent.futures import BrokenExecutor
        import paintkit.stats.aggregate as aggregate
        marker = sys.argv[1]
        aggregate._aggregate_job = table_job  # this process only: workers run table_job
        try:
            aggregate.aggregate_tables([marker] * 6, n_boot=10, jobs=2)
        except BrokenExecutor as exc:
            print("broken:", exc, flush=True)
            report_since(marker)
        else:
            print("finished", flush=True)
""")

EVAL_SCRIPT = DYING + textwrap.dedent("""
    def score_chunk(chunk, *args):
        import paintkit.eval.runner as runner  # a worker's own: not replaced there
        die_mid_result(MARKER)
        return runner._score_chunk(chunk, *args)

    MARKER = os.environ["DYING_MARKER"]

    if __name__ == "__main__":
        import paintkit.eval.runner as runner
        from paintkit.cli.main import main
        runner._score_chunk = score_chunk  # this process only: the workers run score_chunk
        code = main(["eval", "--benchmarks", sys.argv[1], "--outputs", sys.argv[2],
                     "--results", sys.argv[3], "--jobs", "2", "--quiet"])
        report_since(MARKER)
        sys.exit(code)
""")


def _run(tmp_path: Path, script: str, *args: str) -> subprocess.CompletedProcess:
    path = tmp_path / "dies_mid_result.py"
    path.write_text(script)
    marker = tmp_path / "died"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DYING_MARKER": str(marker)}
    try:
        return subprocess.run([sys.executable, str(path), *(args or (str(marker),))], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=LIMIT_S)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the wait never ended after the worker died: {exc.stdout}"
                             ) from None


def _noticed_within_limit(stdout: str) -> None:
    seconds = float(stdout.split("noticed after ")[1].split()[0])
    assert seconds < NOTICE_S, stdout


@pytest.mark.parametrize("script", [MAP_SCRIPT, STATS_SCRIPT], ids=["map_in_workers", "stats"])
def test_a_worker_killed_mid_result_breaks_the_wait(script, tmp_path):
    done = _run(tmp_path, script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("broken: worker "), done.stdout + done.stderr
    assert "exit code 137" in done.stdout, done.stdout
    _noticed_within_limit(done.stdout)
    assert "Traceback" not in done.stderr, done.stderr


def test_eval_with_a_worker_killed_mid_result_is_one_line(tmp_path):
    """``paintkit eval --jobs 2``: the CLI's one line naming the OOM killer, exit 1."""
    bench, outputs = write_synthetic_tree(tmp_path / "tree", problems=24, tasks=2, width=16,
                                          height=16, models=("exact", "noisy"),
                                          missing_every=0, corrupt_every=0, resized_every=0)
    done = _run(tmp_path, EVAL_SCRIPT, str(bench), str(outputs), str(tmp_path / "results"))
    assert done.returncode == 1, done.stdout + done.stderr
    _noticed_within_limit(done.stdout)
    lines = [line for line in done.stderr.splitlines() if line.strip()
             and "resource_tracker" not in line and "warnings.warn(" not in line]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("paintkit eval: error: a worker process was killed"), lines
    assert "out of memory" in lines[0] and "run the same command again" in lines[0]
