"""The reward adapters called the way trainers call them at once: threads, asyncio, fork.

- verl-omni scores one asyncio task per sample and runs the synchronous ``verl_pixel_miou``
  in worker threads (here: ``asyncio.gather`` over ``asyncio.to_thread``, and a 16-thread
  pool);
- flow_grpo submits each batch's reward call to an 8-thread executor, all sharing one
  reward function (and so one target cache);
- DataLoader workers fork the process after rewards ran.

Each scenario runs in a fresh interpreter: a Numba threading layer that is not thread-safe
aborts the whole process (SIGABRT), which must fail one test, not the run. Results must
equal sequential calls.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

PROBLEMS = textwrap.dedent("""
    import numpy as np
    import torch

    def problems(n, h=48, w=64, seed=0):
        rng = np.random.default_rng(seed)
        out = []
        for k in range(n):
            inp = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
            ans = inp.copy()
            y, x = rng.integers(0, h // 2), rng.integers(0, w // 2)
            ans[y:y + h // 3, x:x + w // 3] = rng.integers(0, 256, 3, dtype=np.uint8)
            sol = np.where(rng.random((h, w, 1)) < 0.7, ans, inp)
            out.append((np.ascontiguousarray(sol.transpose(2, 0, 1)), ans, inp))
        return out
""")


def run(body: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    env.update(env_extra or {})
    done = subprocess.run([sys.executable, "-c", PROBLEMS + textwrap.dedent(body)],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr[-3000:]}"
    return done


VERL_THREADS = """
    from concurrent.futures import ThreadPoolExecutor
    from paintkit.rewards import verl_pixel_miou

    items = problems(16)
    def one(k):
        sol, ans, inp = items[k % len(items)]
        return verl_pixel_miou("paintbench", sol, {"answer": ans, "input": inp})["score"]
    sequential = [one(k) for k in range(16 * 50)]
    with ThreadPoolExecutor(16) as pool:
        concurrent = list(pool.map(one, range(16 * 50)))
    assert concurrent == sequential, "results differ from sequential calls"
    assert len(set(sequential)) > 1
    import numba
    print("ok", numba.threading_layer())
"""


def test_verl_compute_score_from_16_threads_x_50_calls():
    done = run(VERL_THREADS)
    assert done.stdout.split()[0] == "ok"


def test_verl_compute_score_16_threads_with_the_workqueue_layer_fallback():
    """Without TBB (or with ``workqueue`` chosen), paintkit's own calls are serialised."""
    done = run(VERL_THREADS, {"NUMBA_THREADING_LAYER": "workqueue"})
    assert done.stdout.split() == ["ok", "workqueue"]


def test_verl_asyncio_gather_over_to_thread():
    run("""
        import asyncio
        from paintkit.rewards import verl_pixel_miou

        items = problems(8)
        def one(k):
            sol, ans, inp = items[k % len(items)]
            return verl_pixel_miou(data_source="paintbench", solution_image=sol,
                                 ground_truth={"answer_path": ans, "input_path": inp},
                                 extra_info={"index": k})["score"]

        async def main():  # one task per sample, the synchronous scorer in worker threads
            return await asyncio.gather(*(asyncio.to_thread(one, k) for k in range(64)))

        sequential = [one(k) for k in range(64)]
        assert asyncio.run(main()) == sequential
    """)


def test_fork_after_parallel_kernel_then_threads_in_one_process():
    run("""
        import os
        from concurrent.futures import ThreadPoolExecutor
        from paintkit.rewards import verl_pixel_miou

        items = problems(4)
        def one(k):
            sol, ans, inp = items[k % len(items)]
            return verl_pixel_miou("paintbench", sol, {"answer": ans, "input": inp})["score"]
        before = [one(k) for k in range(4)]  # parallel kernels ran in this process
        pid = os.fork()
        if pid == 0:  # a DataLoader worker: kernels and threads in the child
            with ThreadPoolExecutor(4) as pool:
                ok = list(pool.map(one, range(8))) == before * 2
            os._exit(0 if ok else 3)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, status
        with ThreadPoolExecutor(8) as pool:
            assert list(pool.map(one, range(80))) == before * 20
    """)


def test_flow_grpo_executor_shares_one_cache_past_its_budget():
    """8 threads, 600 calls, 300 problems through a cache that holds 16: no KeyError on
    eviction, every score equals the sequential one, the cache stays within budget."""
    run("""
        from concurrent.futures import ThreadPoolExecutor
        from paintkit.rewards import flow_grpo_pixel_miou

        items = problems(300, h=12, w=16)
        fn = flow_grpo_pixel_miou("cpu", cache_size=16)
        def one(k):
            sol, ans, inp = items[k % len(items)]
            images = torch.from_numpy(sol)[None].float() / 255
            scores, info = fn(images, [""], [{"answer": ans, "image": inp}])
            return float(scores[0])
        sequential = [one(k) for k in range(600)]
        with ThreadPoolExecutor(8) as pool:
            concurrent = list(pool.map(one, range(600)))
        assert concurrent == sequential
        assert len(fn.cache) <= 16, len(fn.cache)
    """)


@pytest.mark.parametrize("layer", ["tbb", "workqueue"])
def test_numba_lock_matches_the_layer(layer):
    done = run("""
        import paintkit.kernels as k
        print(k.THREADING_LAYER, type(k.numba_lock()).__name__)
    """, {"NUMBA_THREADING_LAYER": layer})
    name, lock = done.stdout.split()
    assert name == layer
    assert (lock == "nullcontext") == (layer == "tbb")
