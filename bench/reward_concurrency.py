"""Rewards/s of the trainer adapters from 1 thread and from N threads at once.

    python bench/reward_concurrency.py [--threads 1,8] [--size 512] [--calls 64]
        [--layer tbb|workqueue] [--adapters verl,flow_grpo] [--repeats 3]

verl-omni calls ``verl_pixel_miou`` once per sample from worker threads (the Numba path on
CPU); flow_grpo calls ``flow_grpo_pixel_miou``'s function per batch from an 8-thread executor (the
torch path). Each case scores ``--calls`` samples of 16 distinct ``--size``² problems,
best of ``--repeats`` after a warm-up, and prints samples/s over all threads and the
process's CPU time per sample (all threads, spinning workers included: steadier than wall
time on a loaded machine). ``--layer`` sets ``NUMBA_THREADING_LAYER`` before paintkit is
imported: ``tbb`` (paintkit's default when the tbb wheel is installed; fork- and
thread-safe) or ``workqueue`` (the fallback: paintkit serialises its parallel kernels with
a lock; before that lock, 8 threads aborted the process). The machine may be shared: read
the ratios.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", default="1,8")
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--calls", type=int, default=64)
    parser.add_argument("--layer", default=None)
    parser.add_argument("--adapters", default="verl,flow_grpo")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.layer:
        os.environ["NUMBA_THREADING_LAYER"] = args.layer
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

    import numpy as np
    import torch

    from paintkit.eval.synthetic import model_output, synthetic_problem
    from paintkit.rewards import flow_grpo_pixel_miou, verl_pixel_miou

    rng = np.random.default_rng(0)
    items = []
    for _ in range(16):
        inp, ans = synthetic_problem(rng, args.size, args.size, n_shapes=12)
        out = model_output(rng, ans, inp, "noisy")
        items.append((np.ascontiguousarray(out.transpose(2, 0, 1)), ans, inp))
    grpo = flow_grpo_pixel_miou("cpu")

    def verl(k):
        sol, ans, inp = items[k % 16]
        return verl_pixel_miou("paintbench", sol, {"answer": ans, "input": inp})["score"]

    def flow_grpo(k):  # one sample per call: the thread pool is what is measured
        sol, ans, inp = items[k % 16]
        return grpo(torch.from_numpy(sol)[None].float() / 255, [""],
                    [{"answer": ans, "image": inp, "problem_id": k % 16}])[0]

    adapters = {"verl": verl, "flow_grpo": flow_grpo}
    from paintkit.kernels import THREADING_LAYER

    for name in args.adapters.split(","):
        fn = adapters[name]
        for threads in (int(t) for t in args.threads.split(",")):
            with ThreadPoolExecutor(threads) as pool:
                list(pool.map(fn, range(16)))  # warm-up: JIT, tables, cache
                best, cpu = float("inf"), float("inf")
                for _ in range(args.repeats):
                    start, start_cpu = time.perf_counter(), time.process_time()
                    list(pool.map(fn, range(args.calls)))
                    best = min(best, time.perf_counter() - start)
                    cpu = min(cpu, time.process_time() - start_cpu)
            print(f"{name:>10} layer {THREADING_LAYER:>9} threads {threads:>2} "
                  f"{args.size}²: {args.calls / best:8.1f} samples/s, "
                  f"{1000 * cpu / args.calls:6.1f} ms CPU a sample", flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
