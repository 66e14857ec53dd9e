"""A plain reference of SPEC 2 written from the text: Python loops, no paintkit.stats code.

Means by explicit loops over problems; the bootstrap resamples problems within each task
with Python's ``random`` (a different generator from paintkit's), one resample at a time.
"""

from __future__ import annotations

import random
import statistics

CATS = {"translation": "geometric_transformation", "rotation": "geometric_transformation",
        "removal": "structural_manipulation", "border": "structural_manipulation",
        "recolor": "color_change", "counting": "symbolic_reasoning"}


def figure(row, block, fig):
    if not row["has_output"]:
        return 0.0
    out = row["output"]
    return out["cie76_mean"][fig] if block == "mean" else out["cie76_threshold"][block][fig]


def category_of(benchmark, task):
    if benchmark == "TinyGrafixBench":  # the five chart types, as folder-name prefixes
        return next(c for c in ("bar_chart", "scatter_plot", "line_chart", "heatmap", "network")
                    if task.startswith(c + "_"))
    return CATS.get(task, "other")


def by_task(rows, model, benchmark):
    tasks = {}
    for r in rows:
        if r["model"] == model and r["benchmark"] == benchmark and r["task"] != "preservation":
            tasks.setdefault(r["task"], []).append(r)
    return tasks


def benchmark_mean(task_means: dict, benchmark) -> float:
    cats = {}
    for task, value in task_means.items():
        cats.setdefault(category_of(benchmark, task), []).append(value)
    return statistics.fmean(statistics.fmean(v) for v in cats.values())


def reference_levels(rows, model, benchmark, block="mean", fig="iou"):
    """{(level, key): mean} for task, mode, category, visual_condition, benchmark."""
    tasks = by_task(rows, model, benchmark)
    out = {}
    task_means = {}
    for task, trs in tasks.items():
        task_means[task] = statistics.fmean(figure(r, block, fig) for r in trs)
        out[("task", task)] = task_means[task]
        modes = {r["mode"] for r in trs}
        if modes != {"default"}:
            for mode in modes:
                out[("mode", task, mode)] = statistics.fmean(
                    figure(r, block, fig) for r in trs if r["mode"] == mode)
    cats = {}
    for task, value in task_means.items():
        cats.setdefault(category_of(benchmark, task), []).append(value)
    for cat, values in cats.items():
        out[("category", cat)] = statistics.fmean(values)
    out[("benchmark",)] = benchmark_mean(task_means, benchmark)
    if benchmark != "TinyGrafixBench":
        conds = {}
        for trs in tasks.values():
            for cond in {r["visual_condition"] for r in trs}:
                conds.setdefault(cond, []).append(statistics.fmean(
                    figure(r, block, fig) for r in trs if r["visual_condition"] == cond))
        for cond, values in conds.items():
            out[("visual_condition", cond)] = statistics.fmean(values)
    pres = [r for r in rows if r["model"] == model and r["benchmark"] == benchmark
            and r["task"] == "preservation"]
    if pres:
        out[("task", "preservation")] = statistics.fmean(figure(r, block, fig) for r in pres)
    return out


def loop_bootstrap_benchmark(rows, model, benchmark, n_boot, seed=123, fig="iou"):
    """(low, high) of the benchmark mIoU: resample within each task, one loop per resample."""
    rng = random.Random(seed)
    tasks = {t: [figure(r, "mean", fig) for r in trs]
             for t, trs in by_task(rows, model, benchmark).items()}
    estimates = []
    for _ in range(n_boot):
        means = {t: statistics.fmean(rng.choice(v) for _ in v) for t, v in tasks.items()}
        estimates.append(benchmark_mean(means, benchmark))
    estimates.sort()
    q = statistics.quantiles(estimates, n=40, method="inclusive")
    return q[0], q[-1]
