"""Comparisons between models: paired differences and the cross-benchmark correlation.

**Paired differences.** "Is model A better than model B?" is answered on the problems both
have, with one set of resamples for both: each resample draws the problems of every task
(:func:`paintkit.stats.bootstrap.task_counts`, the same draws ``paintkit stats`` uses),
recomputes each model's benchmark score (task means -> category means -> their mean, the
preservation split left out, as in the aggregate) and takes the difference. The 95%
percentile interval of that difference is the paired-bootstrap CI; ``share_a_better`` is the
share of resamples in which A scores higher.

**Cross-benchmark correlation.** With PaintBench and TinyGrafixBench in one results folder,
the Pearson correlation of the two benchmark scores across the models present in both,
with a 95% CI from resampling the problems of both benchmarks (models held fixed).

Figures are the mean-over-tolerances mIoU (``cie76_mean``) unless another block is chosen.
"""

from __future__ import annotations

import itertools

import numpy as np

from paintkit.stats.bootstrap import DEFAULT_SEED, percentile_interval, task_counts
from paintkit.stats.table import BLOCKS, FIGURES, PRESERVATION_TASK, ProblemTable

PAINTBENCH, TINYGRAFIX = "PaintBench", "TinyGrafixBench"
_IOU = FIGURES.index("iou")


def _shared(tables: list[ProblemTable]) -> tuple[list[tuple], dict]:
    """Problem keys (task, idx) every table has (preservation left out), sorted, and each
    task's category."""
    keys = None
    category = {}
    for t in tables:
        mine = {(str(task), int(i)) for task, i in zip(t.task, t.idx, strict=True)
                if task != PRESERVATION_TASK}
        keys = mine if keys is None else keys & mine
        category.update(zip(t.task.tolist(), t.category.tolist(), strict=True))
    return sorted(keys or ()), category


def benchmark_resamples(tables: list[ProblemTable], n_boot: int, seed: int = DEFAULT_SEED,
                        block: str = "cie76_mean") -> tuple[np.ndarray, np.ndarray, int]:
    """``(point (M,), resamples (M, B), n_shared)``: the benchmark score of each table (same
    benchmark) on the problems all of them have, and its bootstrap resamples."""
    b = BLOCKS.index(block)
    keys, category = _shared(tables)
    bench = tables[0].benchmark
    tasks = list(dict.fromkeys(k[0] for k in keys))
    lookup = [{(str(task), int(i)): k for k, (task, i) in enumerate(zip(t.task, t.idx, strict=True))}
              for t in tables]
    task_point, task_boot, task_cat = [], [], []
    for task in tasks:
        mine = [k for k in keys if k[0] == task]
        vals = np.array([[t.values[lk[k], b, _IOU] for k in mine]
                         for t, lk in zip(tables, lookup, strict=True)])  # (M, n)
        counts = task_counts(seed, bench, task, len(mine), n_boot)  # (n, B)
        task_point.append(vals.mean(axis=1))
        task_boot.append((vals.astype(np.float32) @ counts) / len(mine))
        task_cat.append(category[task])
    cats = list(dict.fromkeys(task_cat))
    point = np.zeros(len(tables))
    boot = np.zeros((len(tables), n_boot))
    for cat in cats:
        sel = [k for k, c in enumerate(task_cat) if c == cat]
        point += np.mean([task_point[k] for k in sel], axis=0)
        boot += np.mean([task_boot[k] for k in sel], axis=0)
    if cats:
        point /= len(cats)
        boot /= len(cats)
    return point, boot, len(keys)


def paired_differences(tables: list[ProblemTable], n_boot: int = 2000,
                       seed: int = DEFAULT_SEED) -> list[dict]:
    """One row per benchmark and ordered pair of models (A before B in score order):
    ``diff`` = score(A) - score(B) on the shared problems, its paired 95% CI and
    ``share_a_better``."""
    rows = []
    for bench in dict.fromkeys(t.benchmark for t in tables):
        mine = [t for t in tables if t.benchmark == bench]
        if len(mine) < 2:
            continue
        point, boot, n = benchmark_resamples(mine, n_boot, seed)
        order = np.argsort(-point, kind="stable")
        for i, j in itertools.combinations(order, 2):
            diff = boot[i] - boot[j]
            low, high = percentile_interval(diff[None].copy())
            rows.append({"kind": "paired_difference", "benchmark": bench,
                         "model_a": mine[i].model, "model_b": mine[j].model,
                         "n_shared": n, "score_a": float(point[i]), "score_b": float(point[j]),
                         "diff": float(point[i] - point[j]), "ci95_low": float(low[0]),
                         "ci95_high": float(high[0]),
                         "share_a_better": float((diff > 0).mean()), "n_boot": n_boot})
    return rows


def cross_benchmark_correlation(tables: list[ProblemTable], n_boot: int = 2000,
                                seed: int = DEFAULT_SEED, first: str = PAINTBENCH,
                                second: str = TINYGRAFIX) -> dict | None:
    """Pearson r of the ``first`` and ``second`` benchmark scores across the models that have
    both, with a 95% CI from resampling problems; None with fewer than 3 such models."""
    models = [t.model for t in tables if t.benchmark == first]
    models = [m for m in models if any(t.model == m and t.benchmark == second for t in tables)]
    if len(models) < 3:
        return None
    by = {(t.benchmark, t.model): t for t in tables}
    p1, b1, n1 = benchmark_resamples([by[(first, m)] for m in models], n_boot, seed)
    p2, b2, n2 = benchmark_resamples([by[(second, m)] for m in models], n_boot, seed)
    r = _pearson(p1[None], p2[None])[0]
    rb = _pearson(b1.T, b2.T)  # (B,)
    rb = rb[np.isfinite(rb)]
    low = high = None
    if len(rb):
        lo, hi = percentile_interval(rb[None].copy())
        low, high = float(lo[0]), float(hi[0])
    return {"kind": "cross_benchmark_correlation", "first": first, "second": second,
            "models": models, "scores_first": p1.tolist(), "scores_second": p2.tolist(),
            "n_problems_first": n1, "n_problems_second": n2,
            "pearson_r": None if not np.isfinite(r) else float(r), "ci95_low": low,
            "ci95_high": high, "n_boot": n_boot}


def _pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Row-wise Pearson r of ``(k, M)`` arrays; NaN where a row is constant."""
    x = x - x.mean(axis=1, keepdims=True)
    y = y - y.mean(axis=1, keepdims=True)
    den = np.sqrt((x * x).sum(axis=1) * (y * y).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, (x * y).sum(axis=1) / np.where(den > 0, den, 1), np.nan)


def comparison_rows(tables: list[ProblemTable], n_boot: int = 2000,
                    seed: int = DEFAULT_SEED) -> list[dict]:
    """Every paired difference, then the cross-benchmark correlation when there is one."""
    rows = paired_differences(tables, n_boot, seed)
    corr = cross_benchmark_correlation(tables, n_boot, seed)
    return rows + ([corr] if corr else [])
