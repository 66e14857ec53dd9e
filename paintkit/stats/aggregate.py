"""The aggregation hierarchy of SPEC 2 as ``aggregate_stats.jsonl`` rows.

- task = mean of its problems; mode = mean of that mode's problems (multi-mode tasks only);
- category = mean of its tasks; visual condition = mean over the tasks of that condition
  (each task restricted to that condition's problems; PaintBench-style benchmarks only);
- benchmark = mean of the categories (a doubly macro average).
- The ``preservation`` task gets a task row and feeds no roll-up.

``std_*`` is the population std (0 when n < 2) over the units averaged at that level:
problems for task and mode rows, the inner units' means for roll-ups (tasks for category
and condition rows, categories for the benchmark row).
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import numpy as np

from paintkit.stats.bootstrap import (
    DEFAULT_N_BOOT,
    DEFAULT_SEED,
    percentile_interval,
    resample_counts,
    task_rng,
    weighted_means,
)
from paintkit.stats.table import (
    BLOCKS,
    CI_FIGURES,
    FIGURES,
    PRESERVATION_TASK,
    TINYGRAFIX,
    ProblemTable,
)

LEVELS = ("benchmark", "category", "task", "mode", "visual_condition")
_NB, _NF, _NC = len(BLOCKS), len(FIGURES), len(CI_FIGURES)


def _pop_std(x: np.ndarray) -> np.ndarray:
    return np.zeros(x.shape[1:]) if len(x) < 2 else x.std(axis=0)


class _Node:
    """One output row: key fields, counts, point mean/std ``(12, 4)``, resamples ``(B, 12, 3)``."""

    def __init__(self, keys, counts, mean, std, boot):
        self.keys, self.counts, self.mean, self.std, self.boot = keys, counts, mean, std, boot

    def row(self, model: str, benchmark: str) -> dict:
        row = {"level": self.keys["level"], "model": model, "benchmark": benchmark}
        row.update({k: v for k, v in self.keys.items() if k != "level"})
        row.update(self.counts)
        low = high = None
        if self.boot is not None:
            low, high = percentile_interval(self.boot.reshape(len(self.boot), -1))
            low, high = low.reshape(_NB, _NC), high.reshape(_NB, _NC)
        for b, block in enumerate(BLOCKS):
            out = {}
            for f, fig in enumerate(FIGURES):
                out[f"mean_{fig}"] = float(self.mean[b, f])
                out[f"std_{fig}"] = float(self.std[b, f])
            if low is not None:
                for f, fig in enumerate(CI_FIGURES):
                    out[f"ci95_{fig}_low"] = float(low[b, f])
                    out[f"ci95_{fig}_high"] = float(high[b, f])
            row[block] = out
        return row


def _counts(table: ProblemTable, member: np.ndarray) -> dict:
    return {"n_problems": int(member.sum()), "n_with_output": int(table.has_output[member].sum()),
            "n_correct_output_size": int(table.correct_size[member].sum())}


def _rollup(keys, children: list[_Node], with_boot: bool) -> _Node:
    means = np.stack([c.mean for c in children])
    counts = {k: sum(c.counts[k] for c in children)
              for k in ("n_problems", "n_with_output", "n_correct_output_size")}
    counts["n_tasks"] = sum(c.counts.get("n_tasks", 1) for c in children)
    boot = None
    if with_boot:
        with np.errstate(invalid="ignore"), _quiet_nanmean():
            boot = np.nanmean(np.stack([c.boot for c in children]), axis=0)
    return _Node(keys, counts, means.mean(axis=0), _pop_std(means), boot)


class _quiet_nanmean:
    # nanmean warns on all-NaN slices (a resample that drew no problem of a condition in
    # any task); the NaN is then ignored by the percentile, which is what we want.
    def __enter__(self):
        import warnings

        self._ctx = warnings.catch_warnings()
        self._ctx.__enter__()
        warnings.simplefilter("ignore", RuntimeWarning)

    def __exit__(self, *exc):
        self._ctx.__exit__(*exc)


def aggregate_table(table: ProblemTable, n_boot: int = DEFAULT_N_BOOT, seed: int = DEFAULT_SEED,
                    ci: bool = True) -> list[dict]:
    """Aggregate rows of one (model, benchmark), in :data:`LEVELS` order."""
    is_tgb = table.benchmark == TINYGRAFIX
    flat = table.values[:, :, :_NC].reshape(len(table), -1)
    task_nodes: dict[str, _Node] = {}
    mode_nodes: dict[str, list[_Node]] = {}
    cond_parts: dict[str, list[_Node]] = {}
    for task in table.tasks():
        member = table.task == task
        vals = table.values[member]
        cat = str(table.category[member][0])
        counts_w = (resample_counts(task_rng(seed, table.benchmark, task, int(member.sum())),
                                    n_boot, int(member.sum())) if ci else None)
        sub_flat = flat[member]

        def boot_of(sub, counts_w=counts_w, sub_flat=sub_flat):
            if counts_w is None:
                return None
            return weighted_means(counts_w, sub_flat, sub).reshape(n_boot, _NB, _NC)

        task_nodes[task] = _Node({"level": "task", "category": cat, "task": task},
                                 _counts(table, member), vals.mean(axis=0), _pop_std(vals),
                                 boot_of(None))
        modes = list(dict.fromkeys(table.mode[member].tolist()))
        if modes != ["default"]:
            mode_nodes[task] = []
            for mode in modes:
                sub = table.mode[member] == mode
                mode_nodes[task].append(_Node(
                    {"level": "mode", "category": cat, "task": task, "mode": mode},
                    _counts(table, _sub_member(member, sub)),
                    vals[sub].mean(axis=0), _pop_std(vals[sub]), boot_of(sub)))
        if is_tgb or task == PRESERVATION_TASK:
            continue
        for cond in dict.fromkeys(table.condition[member].tolist()):
            sub = table.condition[member] == cond
            cond_parts.setdefault(cond, []).append(_Node(
                {}, _counts(table, _sub_member(member, sub)), vals[sub].mean(axis=0),
                _pop_std(vals[sub]), boot_of(sub)))
    scored = {t: n for t, n in task_nodes.items() if t != PRESERVATION_TASK}
    by_cat: dict[str, list[_Node]] = {}
    for node in scored.values():
        by_cat.setdefault(node.keys["category"], []).append(node)
    cat_nodes = [_rollup({"level": "category", "category": c}, nodes, ci)
                 for c, nodes in by_cat.items()]
    out: list[_Node] = []
    if cat_nodes:
        bench = _rollup({"level": "benchmark"}, cat_nodes, ci)
        bench.counts["n_tasks"] = len(scored)
        out.append(bench)
    out.extend(cat_nodes)
    for task, node in task_nodes.items():
        out.append(node)
        out.extend(mode_nodes.get(task, []))
    for cond, parts in cond_parts.items():
        out.append(_rollup({"level": "visual_condition", "visual_condition": cond}, parts, ci))
    return [node.row(table.model, table.benchmark) for node in out]


def _sub_member(member: np.ndarray, sub: np.ndarray) -> np.ndarray:
    """Global bool mask of the ``sub`` selection inside the ``member`` selection."""
    full = np.zeros_like(member)
    full[np.flatnonzero(member)[sub]] = True
    return full


def _aggregate_job(args) -> list[dict]:
    table, n_boot, seed, ci = args
    return aggregate_table(table, n_boot, seed, ci)


def aggregate_tables(tables: list[ProblemTable], n_boot: int = DEFAULT_N_BOOT,
                     seed: int = DEFAULT_SEED, ci: bool = True, jobs: int = 1) -> list[dict]:
    """Rows of every table, in table order; byte-identical output for any ``jobs``."""
    if n_boot < 1:
        raise ValueError(f"n_boot: expected a positive resample count, got {n_boot}")
    work = [(t, n_boot, seed, ci) for t in tables]
    if jobs <= 1 or len(work) <= 1:
        results = [_aggregate_job(w) for w in work]
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, len(work))) as pool:
            results = list(pool.map(_aggregate_job, work))
    return [row for rows in results for row in rows]
