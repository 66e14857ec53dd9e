"""In-memory batched scoring at 1024x1024: Numba and torch CPU paths vs the NumPy oracle.

    python -m bench.metrics_side_by_side [--batch 16] [--size 1024] [--oracle-problems 4]

Three kinds of outputs: ``flat`` (palette images, like rendered or program outputs),
``noisy`` (the answer with +-3 per channel: every pixel a new colour, like generative
models' outputs) and ``random`` (uniform noise, worst case for colour caches).
"""

# ruff: noqa: B023  (the lambdas run immediately, inside the loop)
from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from paintkit.eval.synthetic import model_output, synthetic_problem
from paintkit.metrics import prepare_targets, tolerance_statistics


def make_batch(kind: str, n: int, size: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    pairs = [synthetic_problem(rng, size, size, n_shapes=12) for _ in range(n)]
    inp = np.stack([p[0] for p in pairs])
    ans = np.stack([p[1] for p in pairs])
    if kind == "random":
        out = rng.integers(0, 256, ans.shape, dtype=np.uint8)
    else:
        style = "partial" if kind == "flat" else "noisy"
        out = np.stack([model_output(rng, a, i, style) for a, i in zip(ans, inp, strict=True)])
    return out, ans, inp


def best_rate(fn, n_problems: int, repeats: int = 3) -> float:
    fn()  # warm-up (JIT, caches)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return n_problems / best


def main() -> None:
    # imported here: bench/metric_cpu_cost.py takes make_batch from this file as a plain
    # script, where tests.support is not on the path
    from tests.support import metric_oracle as oracle

    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--oracle-problems", type=int, default=4)
    parser.add_argument("--torch-threads", type=int, default=None,
                        help="torch intra-op threads (default: torch's); on a loaded machine "
                             "OpenMP barriers make 2 threads slower than 1")
    args = parser.parse_args()
    if args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    print(f"{args.batch} problems of {args.size}x{args.size}, torch threads "
          f"{torch.get_num_threads()}; rates are problems/s (best of 3)")
    header = ("outputs", "numba", "numba+ref", "torch", "torch+ref", "oracle",
              "numba/oracle", "torch+ref/oracle")
    print(("{:>10}" * len(header)).format(*header))
    for kind in ("flat", "noisy", "random"):
        out, ans, inp = make_batch(kind, args.batch, args.size)
        ref = prepare_targets(ans, inp)
        t_out, t_ans, t_inp = (torch.from_numpy(x) for x in (out, ans, inp))
        t_ref = prepare_targets(t_ans, t_inp)
        t_ref.torch_batch("cpu")  # precompute Lab + edit mask once
        n = args.batch
        rates = {
            "numba": best_rate(lambda: tolerance_statistics(out, ans, inp, backend="numba"), n),
            "numba+ref": best_rate(lambda: tolerance_statistics(out, ref, backend="numba"), n),
            "torch": best_rate(lambda: tolerance_statistics(
                t_out, prepare_targets(t_ans, t_inp), backend="torch"), n, repeats=1),
            "torch+ref": best_rate(lambda: tolerance_statistics(t_out, t_ref, backend="torch"),
                                   n),
        }
        k = args.oracle_problems
        start = time.perf_counter()
        for j in range(k):
            oracle.problem_stats(out[j], ans[j], inp[j])
        rates["oracle"] = k / (time.perf_counter() - start)
        row = [kind] + [f"{rates[c]:.1f}" for c in header[1:6]] + [
            f"{rates['numba'] / rates['oracle']:.0f}x",
            f"{rates['torch+ref'] / rates['oracle']:.1f}x"]
        print(("{:>10}" * len(header)).format(*row), flush=True)


if __name__ == "__main__":
    main()
