"""Throughput of ``paintkit stats`` (aggregation + bootstrap CIs), with a loop-based baseline.

    python bench/stats_bootstrap.py [--n-boot 10000] [--loop-boot 200]

Prints seconds for 13 models x 336 problems and 12 models x 1,920 problems (the full
PaintBench grid: 20 tasks x 8 conditions x 12), and a straightforward loop-over-resamples
implementation timed at ``--loop-boot`` resamples and scaled linearly to ``--n-boot``
(the same cores for both).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import numpy as np

from paintkit.stats.aggregate import aggregate_tables
from paintkit.stats.table import build_tables
from paintkit.tasks import CATEGORIES

CONDITIONS = ("baseline", "horizontal", "vertical", "nonstandard", "striped", "n_med", "n_high",
              "n_xhigh")
TASKS = [(f"task{k:02d}", CATEGORIES[k // 5]) for k in range(20)]


def synthetic_rows(n_models: int, per_cell: int, conditions=CONDITIONS, seed=0) -> list[dict]:
    rng = np.random.default_rng(seed)
    rows = []
    for m in range(n_models):
        for task, cat in TASKS:
            idx = 0
            for cond in conditions:
                for k in range(per_cell):
                    e = rng.random(11).cumsum() / 11
                    p = 0.5 + rng.random(11).cumsum() / 22
                    iou = e * p
                    per_t = {str(t): {"edit_correct_pixels": 0, "preservation_correct_pixels": 0,
                                      "edit_accuracy": e[t], "preservation_accuracy": p[t],
                                      "iou": iou[t], "changed_pixels": int(rng.integers(1000))}
                             for t in range(11)}
                    mean = {k2: float(np.mean([per_t[str(t)][k2] for t in range(11)]))
                            for k2 in per_t["0"]}
                    rows.append({"model": f"model{m:02d}", "benchmark": "PaintBench",
                                 "task": task, "category": cat, "mode": f"mode{k % 2}",
                                 "visual_condition": cond, "idx": idx,
                                 "has_output": bool(rng.random() > 0.05),
                                 "correct_output_size": True,
                                 "output": {"edit_pixels": 100, "cie76_threshold": per_t,
                                            "cie76_mean": mean}})
                    idx += 1
    return rows


def loop_bootstrap(rows, n_boot: int, seed: int = 0) -> None:
    """The straightforward way: per resample, per task, draw indices in Python, then average."""
    rng = random.Random(seed)
    by = {}
    for r in rows:
        value = r["output"]["cie76_mean"]["iou"] if r["has_output"] else 0.0
        by.setdefault((r["model"], r["category"], r["task"]), []).append(value)
    for model in sorted({k[0] for k in by}):
        tasks = {k: v for k, v in by.items() if k[0] == model}
        for _ in range(n_boot):
            cats = {}
            for (_, cat, _), v in tasks.items():
                cats.setdefault(cat, []).append(statistics.fmean(rng.choice(v) for _ in v))
            statistics.fmean(statistics.fmean(c) for c in cats.values())


def time_case(label, n_models, per_cell, conditions, n_boot, loop_boot, jobs=1):
    rows = synthetic_rows(n_models, per_cell, conditions)
    n = len(rows) // n_models
    start = time.perf_counter()
    tables = build_tables(rows)
    read = time.perf_counter() - start
    start, cpu = time.perf_counter(), time.process_time()
    aggregate_tables(tables, n_boot=n_boot, jobs=jobs)
    fast, cpu = time.perf_counter() - start, time.process_time() - cpu
    start = time.perf_counter()
    loop_bootstrap(rows, loop_boot)
    loop = (time.perf_counter() - start) * n_boot / loop_boot
    print(f"{label}: {n_models} models x {n} problems, B={n_boot}, jobs={jobs}: tables {read:.2f} s, "
          f"aggregate+CIs {fast:.2f} s wall ({cpu:.2f} s CPU in this process); "
          f"loop baseline (iou mean only) ~{loop:.1f} s "
          f"(timed at B={loop_boot}, scaled) -> {loop / fast:.0f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-boot", type=int, default=10_000)
    parser.add_argument("--loop-boot", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for paintkit stats")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")
    # ~320 problems per model (20 tasks x 2 conditions x 8), the size of the 336-problem run.
    time_case("small", 13, 8, CONDITIONS[:2], args.n_boot, args.loop_boot, args.jobs)
    time_case("full", 12, 12, CONDITIONS, args.n_boot, args.loop_boot, args.jobs)


if __name__ == "__main__":
    main()
