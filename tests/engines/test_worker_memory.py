"""paintkit's worker processes keep freed memory for the next problem (glibc)."""

import subprocess
import sys

import pytest

PROBE = """
import resource, sys
import numpy as np
from paintkit.worker_memory import reuse_freed_memory
if sys.argv[1] == "on":
    assert reuse_freed_memory()
def one_round():  # images of a problem and a batch: written, then freed
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for mib in (3, 6, 3, 12, 3, 24, 3, 48):
        a = np.ones(mib << 20, np.uint8)
        del a
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
one_round()
print(sum(one_round() for _ in range(3)))
"""


def _faults(mode: str) -> int:
    done = subprocess.run([sys.executable, "-c", PROBE, mode], capture_output=True, text=True,
                          check=True)
    return int(done.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_freed_blocks_are_reused_instead_of_faulted_in_again():
    # after a first round, blocks up to 48 MiB (12,288 pages) come back without faulting
    off, on = _faults("off"), _faults("on")
    assert on < 300 and off > 10 * max(on, 100), (off, on)


def test_pool_initializers_apply_it(monkeypatch):
    import numba

    import paintkit.engines.work as work
    import paintkit.parallel as parallel

    calls = []
    monkeypatch.setattr(work, "reuse_freed_memory", lambda: calls.append("generate"))
    monkeypatch.setattr(parallel, "reuse_freed_memory", lambda: calls.append("eval"))
    monkeypatch.setattr(numba, "set_num_threads", lambda n: None)
    work.pool_worker()
    parallel.one_thread_worker()
    assert calls == ["generate", "eval"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
@pytest.mark.parametrize("env", [{"GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=131072"},
                                 {"GLIBC_TUNABLES": "glibc.malloc.trim_threshold=0"},
                                 {"MALLOC_TRIM_THRESHOLD_": "0"}])
def test_the_users_glibc_settings_win(env):
    import os

    probe = "from paintkit.worker_memory import reuse_freed_memory; print(reuse_freed_memory())"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, env={**os.environ, **env})
    assert done.stdout.strip() == "False"


def test_one_tuner_serves_the_workers_and_the_service():
    import importlib.util

    import paintkit.serve.app as app
    from paintkit.worker_memory import reuse_freed_memory

    assert app.reuse_freed_memory is reuse_freed_memory
    assert importlib.util.find_spec("paintkit.serve.memory") is None
