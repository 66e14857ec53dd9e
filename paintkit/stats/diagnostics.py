"""Diagnostics beyond the aggregate table, one JSON row each with a ``kind``:

- ``pass_rate``: per (model, benchmark, task), the share of problems with ``IoU_t >= k``
  for k in :data:`PASS_THRESHOLDS` at every tolerance t;
- ``condition_delta``: per (model, benchmark, condition), the macro-averaged (over tasks)
  difference from ``baseline`` with a *paired* bootstrap CI: a task's baseline and
  condition problems are paired by slot ((mode, rank by idx) — generated in the same
  order) and pairs are resampled together, so the delta's CI is tighter than the
  difference of two independent CIs (both are written);
- ``edit_size_bucket``: per (model, benchmark), problems bucketed by edit-region size
  (quantiles of ``edit_pixels`` over the benchmark's problems) with mIoU and the median
  over-edit ratio (changed pixels at t = 5 over |E|, docs/metric-definition.md §10; outputs only);
- ``failure_modes``: per (model, benchmark, task), counts of each failure-mode tag (see
  :mod:`paintkit.stats.failure_modes`); ``problem_failure_mode``: the tag of each problem.
"""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_limits

from paintkit.arguments import check_int
from paintkit.stats.bootstrap import (
    DEFAULT_N_BOOT,
    DEFAULT_SEED,
    check_n_boot,
    percentile_interval,
    resample_counts,
    task_rng,
)
from paintkit.stats.failure_modes import FAILURE_MODES, failure_mode_codes
from paintkit.stats.table import BLOCKS, PRESERVATION_TASK, TINYGRAFIX, ProblemTable

PASS_THRESHOLDS = (0.5, 0.9, 0.95, 0.99)
#: Tolerance at which the over-edit ratio is read: the median of 0..10 (docs/metric-definition.md §10).
OVER_EDIT_TOLERANCE = 5
DELTA_FIGURES = ("iou", "edit_accuracy", "preservation_accuracy")  # read on cie76_mean
_FIG_INDEX = {"edit_accuracy": 0, "preservation_accuracy": 1, "iou": 2}
BASELINE_CONDITION = "baseline"


def pass_rate_rows(table: ProblemTable) -> list[dict]:
    rows = []
    for task in table.tasks():
        iou = table.values[table.task == task][:, :11, 2]
        rates = {}
        for t in range(11):
            rates[BLOCKS[t]] = {str(k): float((iou[:, t] >= k).mean()) for k in PASS_THRESHOLDS}
        rows.append({"kind": "pass_rate", "model": table.model, "benchmark": table.benchmark,
                     "task": task, "n_problems": int(len(iou)), "pass_rates": rates})
    return rows


def _slot_pairs(table: ProblemTable, task: str, cond: str):
    """(baseline values, condition values) ``(m, 3)`` paired by (mode, rank within mode)."""
    def slots(c):
        sel = np.flatnonzero((table.task == task) & (table.condition == c))
        sel = sel[np.lexsort((table.idx[sel], table.mode[sel]))]
        out, rank = {}, {}
        for i in sel:
            m = str(table.mode[i])
            out[(m, rank.get(m, 0))] = i
            rank[m] = rank.get(m, 0) + 1
        return out

    base, other = slots(BASELINE_CONDITION), slots(cond)
    keys = sorted(set(base) & set(other))
    cols = [_FIG_INDEX[f] for f in DELTA_FIGURES]
    b = table.values[[base[k] for k in keys]][:, -1, cols] if keys else np.zeros((0, 3))
    x = table.values[[other[k] for k in keys]][:, -1, cols] if keys else np.zeros((0, 3))
    return b, x


def condition_delta_rows(table: ProblemTable, n_boot: int, seed: int, ci: bool) -> list[dict]:
    if table.benchmark == TINYGRAFIX:
        return []
    tasks = [t for t in table.tasks() if t != PRESERVATION_TASK]
    conds = [c for c in dict.fromkeys(table.condition.tolist()) if c != BASELINE_CONDITION]
    if BASELINE_CONDITION not in set(table.condition.tolist()):
        return []
    rows = []
    for cond in conds:
        deltas, paired, unpaired, n_pairs = [], [], [], 0
        for task in tasks:
            b, x = _slot_pairs(table, task, cond)
            if not len(b):
                continue
            n_pairs += len(b)
            deltas.append(x.mean(axis=0) - b.mean(axis=0))
            if ci:
                key = f"delta|{cond}"
                w = resample_counts(task_rng(seed, table.benchmark, f"{task}|{key}", len(b)),
                                    n_boot, len(b))
                paired.append(w @ (x - b) / len(b))
                w2 = resample_counts(task_rng(seed, table.benchmark, f"{task}|{key}|base",
                                              len(b)), n_boot, len(b))
                unpaired.append(w @ x / len(b) - w2 @ b / len(b))
        if not deltas:
            continue
        row = {"kind": "condition_delta", "model": table.model, "benchmark": table.benchmark,
               "visual_condition": cond, "against": BASELINE_CONDITION, "n_tasks": len(deltas),
               "n_pairs": n_pairs}
        delta = np.mean(deltas, axis=0)
        for f, fig in enumerate(DELTA_FIGURES):
            row[f"delta_{fig}"] = float(delta[f])
        if ci:
            for name, parts in (("ci95", paired), ("unpaired_ci95", unpaired)):
                low, high = percentile_interval(np.mean(parts, axis=0).T)
                for f, fig in enumerate(DELTA_FIGURES):
                    row[f"{name}_delta_{fig}_low"] = float(low[f])
                    row[f"{name}_delta_{fig}_high"] = float(high[f])
        rows.append(row)
    return rows


def edit_size_edges(edit_pixels: np.ndarray, n_buckets: int = 4) -> np.ndarray:
    """Bucket edges ``(n_buckets + 1,)``: quantiles of the known (>= 0) edit sizes."""
    known = edit_pixels[edit_pixels >= 0]
    if not len(known):
        return np.zeros(0)
    return np.quantile(known, np.linspace(0, 1, n_buckets + 1))


def over_edit_ratios(table: ProblemTable) -> np.ndarray:
    """float ``(n,)``: changed pixels at t = 5 over |E|; NaN without an output or with |E| = 0."""
    ratio = np.full(len(table), np.nan)
    ok = table.has_output & (table.edit_pixels > 0)
    ratio[ok] = table.values[ok, OVER_EDIT_TOLERANCE, 3] / table.edit_pixels[ok]
    return ratio


def edit_size_rows(table: ProblemTable, edges: np.ndarray) -> list[dict]:
    if len(edges) < 2:
        return []
    scored = (table.task != PRESERVATION_TASK) & (table.edit_pixels >= 0)
    bucket = np.clip(np.searchsorted(edges, table.edit_pixels, side="right") - 1, 0,
                     len(edges) - 2)
    ratio = over_edit_ratios(table)
    rows = []
    for k in range(len(edges) - 1):
        sel = scored & (bucket == k)
        r = ratio[sel]
        r = r[~np.isnan(r)]
        rows.append({"kind": "edit_size_bucket", "model": table.model,
                     "benchmark": table.benchmark, "bucket": k,
                     "edit_pixels_low": float(edges[k]), "edit_pixels_high": float(edges[k + 1]),
                     "n_problems": int(sel.sum()),
                     "miou": float(table.values[sel, -1, 2].mean()) if sel.any() else None,
                     "median_over_edit_ratio": float(np.median(r)) if len(r) else None,
                     "n_with_output": int(len(r))})
    return rows


def failure_mode_rows(table: ProblemTable, per_problem: bool = True) -> list[dict]:
    codes = failure_mode_codes(table.values[:, :11, 0], table.values[:, :11, 1])
    rows = []
    for task in table.tasks():
        sel = table.task == task
        counts = np.bincount(codes[sel], minlength=len(FAILURE_MODES))
        rows.append({"kind": "failure_modes", "model": table.model, "benchmark": table.benchmark,
                     "task": task, "n_problems": int(sel.sum()),
                     "counts": {m: int(c) for m, c in zip(FAILURE_MODES, counts, strict=True)}})
    if per_problem:
        rows.extend({"kind": "problem_failure_mode", "model": table.model,
                     "benchmark": table.benchmark, "task": str(table.task[i]),
                     "idx": int(table.idx[i]), "failure_mode": FAILURE_MODES[codes[i]]}
                    for i in range(len(table)))
    return rows


def diagnostics_rows(tables: list[ProblemTable], n_boot: int = DEFAULT_N_BOOT,
                     seed: int = DEFAULT_SEED, ci: bool = True, n_buckets: int = 4) -> list[dict]:
    """Every diagnostics row of every (model, benchmark), grouped by kind then table."""
    n_boot = check_n_boot(n_boot)
    seed, n_buckets = check_int(seed, "seed", 0), check_int(n_buckets, "n_buckets", 1)
    edges = {}
    for bench in dict.fromkeys(t.benchmark for t in tables):
        # Edit sizes are a property of the problems: pooled over models, each problem once.
        sizes = {}
        for t in tables:
            if t.benchmark == bench:
                keep = t.task != PRESERVATION_TASK
                sizes.update(zip(zip(t.task[keep].tolist(), t.idx[keep].tolist(), strict=True),
                                 t.edit_pixels[keep].tolist(), strict=True))
        edges[bench] = edit_size_edges(np.array(list(sizes.values()), dtype=np.int64), n_buckets)
    rows: list[dict] = []
    with threadpool_limits(limits=1, user_api="blas"):
        for t in tables:
            rows.extend(pass_rate_rows(t))
        for t in tables:
            rows.extend(condition_delta_rows(t, n_boot, seed, ci))
        for t in tables:
            rows.extend(edit_size_rows(t, edges[t.benchmark]))
        for t in tables:
            rows.extend(failure_mode_rows(t))
    return rows
