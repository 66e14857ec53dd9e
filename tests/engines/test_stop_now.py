"""``stop_now`` ends a pool whose worker was killed half-way through sending a result.

A unit's result (its PNGs) is larger than a pipe holds, so the pool's manager thread reads
it in many pieces while the worker writes. A first Ctrl-C / SIGTERM kills the workers
(:func:`paintkit.parallel.stop_now`); one killed mid-send left the manager thread waiting
for the rest of the message forever, and the interpreter joins that thread at exit, so
``generate --jobs 2`` hung until the stop watchdog ended it (seen under load). Here the
worker sends the start of a message and no more, every time, and the oracle is the
process's own exit: the script runs in a child with a time limit.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import os, struct, sys, time
    from paintkit.parallel import start_pool, stop_now

    def half_a_result(ready):
        frame = sys._getframe()
        while frame.f_code.co_name != "_process_worker":  # the pool's worker loop
            frame = frame.f_back
        writer = frame.f_locals["result_queue"]._writer
        # a message announcing 1 MB, then 10 bytes of it: the reader waits for the rest
        os.write(writer.fileno(), struct.pack("!i", 1 << 20) + b"x" * 10)
        open(ready, "w").close()
        time.sleep(600)

    if __name__ == "__main__":
        ready = sys.argv[1]
        pool = start_pool(1, start=sys.argv[2])
        pool.submit(half_a_result, ready)
        while not os.path.exists(ready):
            time.sleep(0.02)
        time.sleep(0.3)  # the manager thread is inside the read of that message
        manager = pool._executor_manager_thread
        stop_now(pool)
        manager.join(10)
        if manager.is_alive():  # exit would join it, and wait forever
            print("manager alive", flush=True)
            os._exit(3)
        print("manager ended", flush=True)
""")


@pytest.mark.parametrize("start", ["spawn", "forkserver"])
def test_a_worker_killed_mid_result_does_not_hang_the_stop(start, tmp_path):
    script = tmp_path / "half_a_result.py"
    script.write_text(SCRIPT)
    try:
        done = subprocess.run([sys.executable, str(script), str(tmp_path / "ready"), start],
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                              capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the process did not exit after stop_now: {exc.stdout}") from None
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "manager ended", done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr


ENGINE_SCRIPT = textwrap.dedent("""
    import os, struct, sys
    from concurrent.futures import BrokenExecutor
    from paintkit.engines.local import ProcessPoolEngine

    def half_a_result_then_killed():
        frame = sys._getframe()
        while frame.f_code.co_name != "_process_worker":
            frame = frame.f_back
        writer = frame.f_locals["result_queue"]._writer
        os.write(writer.fileno(), struct.pack("!i", 1 << 20) + b"x" * 10)
        os._exit(137)  # as the OOM killer's SIGKILL: mid-send, the pool never hears of it

    if __name__ == "__main__":
        try:
            with ProcessPoolEngine(2) as engine:
                engine.wait({engine.call(half_a_result_then_killed)})
        except BrokenExecutor as exc:
            print("broken:", exc, flush=True)
""")


def test_a_worker_killed_mid_result_breaks_the_engine_s_wait(tmp_path):
    """The pool's manager thread waits forever for the rest of that result, so the pool
    never reports the dead worker; the engine's wait does (the CLI's one line naming the
    OOM killer), and the process ends."""
    script = tmp_path / "killed_mid_result.py"
    script.write_text(ENGINE_SCRIPT)
    try:
        done = subprocess.run([sys.executable, str(script)], cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)},
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the wait never ended: {exc.stdout}") from None
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("broken: worker "), done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
