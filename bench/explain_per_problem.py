"""Per-problem cost of the opt-in extras vs the base metric, on generated 1024x1024 problems.

    python bench/explain_per_problem.py [--tasks translation recolor removal] [--threads 2]

For each problem and three outputs (``answer``: a perfect output; ``input``: the model did
nothing, so the explanation has work to do; ``noisy``: the answer with +-3 per channel,
every pixel a new colour, like a generative model's output) it times, best of
``--repeats`` rounds (each round runs every measure once in turn):

- base: ``paintkit.metrics.score`` (CIE76, Numba), the reference figure;
- explain: ``paintkit.explainer.explain`` (tags + segments, tolerance 5);
- explain_bins: the same, given the scorer's per-pixel bins (``bins=``, as a caller that
  scored with ``return_bins=True`` can: one full-image ΔE pass fewer);
- explain_each: given the bins and the problem's ``prepare_scenes`` (built once per problem,
  as ``paintkit explain`` does for all models): the cost of each further model's output;
- ssim, psnr: ``paintkit.metrics.similarity`` (CPU arrays: the Numba kernels);
- cie94, ciede2000: ``tolerance_histograms_delta_e`` (Numba) vs the fused CIE76 kernel;
- score_de2000: ``score(..., delta_e="ciede2000")`` end to end.

Numba and torch get the same thread count (``--threads``). Prints ms per problem and the
ratio to the base metric.
"""

# ruff: noqa: B023  (the lambdas run immediately, inside the loop)
from __future__ import annotations

import argparse
import statistics
import time

import numba
import numpy as np
import torch

from paintkit.explainer import explain, prepare_scenes
from paintkit.kernels.counting.formulas import tolerance_histograms_delta_e
from paintkit.metrics import score, tolerance_statistics
from paintkit.metrics.similarity import psnr, ssim
from paintkit.sources import generate
from paintkit.tasks import task_spec


def best_ms(functions: dict, repeats: int) -> dict:
    """Best time (ms) of each function over ``repeats`` rounds; each round runs every
    function once in turn, so a burst of load from other processes on a shared machine hits
    the base metric and the extras alike."""
    for fn in functions.values():
        fn()  # warm-up (JIT compile, caches)
    best = dict.fromkeys(functions, float("inf"))
    for _ in range(repeats):
        for name, fn in functions.items():
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: t * 1000 for name, t in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", nargs="+", default=["translation", "recolor", "removal",
                                                       "pattern", "flood_fill"])
    parser.add_argument("--condition", default="n_med")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    numba.set_num_threads(args.threads)
    torch.set_num_threads(args.threads)
    figures: dict[str, list[float]] = {}
    for task in args.tasks:
        mode = task_spec(task).modes[0]
        problem = generate(task, 0, args.condition, mode)
        a, i, meta = problem.answer, problem.input, problem.metadata
        noise = np.random.default_rng(0).integers(-3, 4, a.shape)
        noisy = np.clip(a.astype(np.int16) + noise, 0, 255).astype(np.uint8)
        for name, out in (("answer", a), ("input", i), ("noisy", noisy)):
            bins = tolerance_statistics([out], [a], [i], return_bins=True).bins[0]
            scenes = prepare_scenes(a, i, meta)
            timings = best_ms({
                "base": lambda: score([out], [a], [i]),
                "explain": lambda: explain(out, a, i, meta),
                "explain_bins": lambda: explain(out, a, i, meta, bins=bins),
                "explain_each": lambda: explain(out, a, i, meta, bins=bins, scenes=scenes),
                "ssim": lambda: ssim(out[None], a[None]),
                "psnr": lambda: psnr(out[None], a[None]),
                "cie94": lambda: tolerance_histograms_delta_e(out[None], a[None], i[None],
                                                              "cie94"),
                "ciede2000": lambda: tolerance_histograms_delta_e(out[None], a[None], i[None],
                                                                  "ciede2000"),
                "score_de2000": lambda: score([out], [a], [i], delta_e="ciede2000"),
            }, args.repeats)
            base = timings["base"]
            line = "  ".join(f"{k} {v:7.1f} ms ({v / base:4.1f}x)" for k, v in timings.items())
            print(f"{task:14s} {name:6s} {line}", flush=True)
            for k, v in timings.items():
                figures.setdefault(k, []).append(v / base)
    print("median ratio to base: " + ", ".join(
        f"{k} {statistics.median(v):.2f}x" for k, v in figures.items()))
    print("worst ratio to base:  " + ", ".join(
        f"{k} {max(v):.2f}x" for k, v in figures.items()))
    print(f"threads: {args.threads}; canvas {a.shape[1]}x{a.shape[0]}")


if __name__ == "__main__":
    main()
