"""Parallel Numba kernels leave a process that can still fork (DataLoader workers, pools).

With Numba's OpenMP layer (GNU OpenMP), a fork after a parallel kernel ran aborts the child
("fork() called from a process already using GNU OpenMP"); paintkit picks a layer that
survives it (TBB, or workqueue without the tbb wheel) unless the user chose one.
"""

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import os
    import numpy as np
    import numba  # imported before paintkit, as a user's script may
    from paintkit.kernels.counting.cie76_numba import tolerance_histograms_numba

    rng = np.random.default_rng(0)
    a = rng.integers(0, 256, (4, 64, 64, 3), dtype=np.uint8)
    b = a[::-1].copy()
    before = tolerance_histograms_numba(a, b, a)
    before = np.asarray(before[0] if isinstance(before, tuple) else before)
    pid = os.fork()
    if pid == 0:
        out = tolerance_histograms_numba(a, b, a)
        out = np.asarray(out[0] if isinstance(out, tuple) else out)
        os._exit(0 if np.array_equal(out, before) else 3)
    _, status = os.waitpid(pid, 0)
    print("layer", numba.threading_layer(), "child", os.waitstatus_to_exitcode(status))
""")


def _run(env_extra=None):
    import os

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=300, env=env)


def test_a_child_forked_after_a_parallel_kernel_runs_kernels():
    done = _run()
    assert done.returncode == 0, done.stderr[-2000:]
    layer, child = done.stdout.split()[1], done.stdout.split()[3]
    # tbb (fork- and thread-safe) when the tbb wheel is installed, workqueue otherwise
    assert layer in ("tbb", "workqueue") and child == "0", done.stdout + done.stderr[-2000:]


def test_a_threading_layer_the_user_chose_is_kept():
    done = _run({"NUMBA_THREADING_LAYER": "omp"})
    assert "layer omp" in done.stdout, done.stderr[-2000:]
