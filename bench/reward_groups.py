"""GRPO groups on the CPU: G samples per problem counted against the problem in place, side
by side with the answers and inputs repeated G times (what the CPU path did before).

    python bench/reward_groups.py [--sizes 512,1024] [--groups 4,8,16] [--problems 2]
        [--threads 1,2] [--repeats 5]

For each size, ``--problems`` PaintBench problems and G noisy samples each (every pixel off
by a few units, as in bench/reward_throughput.py), uint8 NHWC on the host. Timed, best of
``--repeats``, with the counting kernel on ``--threads`` Numba threads:

- ``in place``: ``reward(outputs, targets, samples_per_problem=G)``;
- ``repeated``: the same call after ``np.repeat`` of the answers and inputs G times (the
  repeat is timed: it happened inside every call before), the targets prepared from them.

Printed: ms per batch, images/s and the ratio. The rewards of both are checked equal.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402


def best_ms(fn, repeats: int) -> float:
    """Best wall-clock ms of ``fn()`` (the kernel runs on several threads, so the thread-CPU
    time of ``bench.floors.best_ms`` would miss its workers)."""
    fn()  # warm-up: kernels compiled
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def rows(outputs, answers, inputs, group: int, size: int, args) -> None:
    """Print the rows of one group size (one per thread count)."""
    import numba
    import torch

    from paintkit.metrics import prepare_targets, reward

    targets = prepare_targets(answers, inputs)

    def in_place():
        return reward(outputs, targets, samples_per_problem=group)

    def repeated():
        wide = prepare_targets(np.repeat(answers, group, axis=0), np.repeat(inputs, group, axis=0))
        return reward(outputs, wide)

    assert torch.equal(in_place(), repeated())
    for threads in (int(t) for t in args.threads.split(",")):
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        new, old = best_ms(in_place, args.repeats), best_ms(repeated, args.repeats)
        n = len(outputs)
        print(f"| {size}² | {group} | {len(answers)} | {threads} | {new:.1f} | {old:.1f} | "
              f"{n / new * 1000:.0f} | {n / old * 1000:.0f} | {old / new:.2f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="512,1024")
    parser.add_argument("--groups", default="4,8,16")
    parser.add_argument("--problems", type=int, default=2)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    import torch

    from paintkit.eval.synthetic import model_output
    from paintkit.suites import build_problem
    from paintkit.suites.suite import Suite

    print("| size | G | problems | Numba threads | in place ms | repeated ms | in place images/s "
          "| repeated images/s | x repeated |")
    print("|---|---|---|---|---|---|---|---|---|")
    for size in (int(s) for s in args.sizes.split(",")):
        suite = Suite(tasks=("translation", "recolor"), conditions=("baseline",), per_cell=1,
                      size=(size, size), preservation=False, namespace="bench")
        problems = [build_problem(suite, suite.spec(k)) for k in range(args.problems)]
        answers = np.stack([p.answer for p in problems])
        inputs = np.stack([p.input for p in problems])
        rng = np.random.default_rng(0)
        for group in (int(g) for g in args.groups.split(",")):
            outputs = torch.from_numpy(np.stack([model_output(rng, p.answer, p.input, "noisy")
                                                 for p in problems for _ in range(group)]))

            rows(outputs, answers, inputs, group, size, args)

if __name__ == "__main__":
    main()
