"""The aggregation hierarchy of docs/metric-definition.md §13 as ``aggregate_stats.jsonl`` rows.

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

import numpy as np
from threadpoolctl import threadpool_limits

from paintkit.arguments import check_int
from paintkit.parallel import results_in_order, worker_pool
from paintkit.stats.bootstrap import (
    DEFAULT_N_BOOT,
    DEFAULT_SEED,
    check_n_boot,
    percentile_interval,
    task_counts,
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
    """One output row: key fields, counts, point mean/std ``(12, 4)``, resamples ``(36, B)``."""

    def __init__(self, keys, counts, mean, std, boot):
        self.keys, self.counts, self.mean, self.std, self.boot = keys, counts, mean, std, boot

    def row(self, model: str, benchmark: str, low=None, high=None) -> dict:
        """The aggregate row; ``low``/``high`` ``(12, 3)`` are the CI bounds (None: no CI)."""
        row = {"level": self.keys["level"], "model": model, "benchmark": benchmark}
        row.update({k: v for k, v in self.keys.items() if k != "level"})
        row.update(self.counts)
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
        boot = _mean_skipping_nan([c.boot for c in children])
    return _Node(keys, counts, means.mean(axis=0), _pop_std(means), boot)


def _mean_skipping_nan(parts: list[np.ndarray]) -> np.ndarray:
    """Mean of equally shaped arrays; NaN entries (a subgroup not drawn) are left out."""
    total = parts[0].copy()
    for part in parts[1:]:
        total += part
    if not np.isnan(total).any():
        return total / len(parts)
    total = np.zeros_like(parts[0])
    count = np.zeros(parts[0].shape, np.float32)
    for part in parts:
        ok = ~np.isnan(part)
        total += np.where(ok, part, 0.0)
        count += ok
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / count


def _task_resamples(table: ProblemTable, member: np.ndarray, counts_t: np.ndarray, conds: bool):
    """Resampled means ``(36, B)`` of one task: the task, each mode, each condition.

    ``counts_t`` is the task's ``(n, B)`` count matrix. The task's problems are ordered by
    (condition, idx) and matched to its rows in that order (rows are exchangeable, so this
    is still a uniform resample), which makes each condition a contiguous slice: one matrix
    product on a view, no copy. Modes (multi-mode tasks only) select their rows. Task, mode
    and condition means all come from the same resamples.
    """
    pos = np.flatnonzero(member)
    pos = pos[np.lexsort((table.idx[pos], table.condition[pos]))]
    values_t = np.ascontiguousarray(table.values[pos, :, :_NC].reshape(len(pos), -1).T,
                                    dtype=np.float32)

    def means(rows):
        w = counts_t[rows]
        with np.errstate(invalid="ignore", divide="ignore"):
            return (values_t[:, rows] @ w) / w.sum(axis=0)

    task_boot = (values_t @ counts_t) / len(pos)
    mode = table.mode[pos]
    modes = list(dict.fromkeys(mode.tolist()))
    mode_boot = {m: means(mode == m) for m in modes} if len(modes) > 1 else {modes[0]: task_boot}
    cond_boot = {}
    if conds:
        cond = table.condition[pos]
        edges = [0, *(np.flatnonzero(cond[1:] != cond[:-1]) + 1).tolist(), len(pos)]
        cond_boot = {str(cond[a]): means(slice(a, b))
                     for a, b in zip(edges[:-1], edges[1:], strict=True)}
    return task_boot, mode_boot, cond_boot


def aggregate_table(table: ProblemTable, n_boot: int = DEFAULT_N_BOOT, seed: int = DEFAULT_SEED,
                    ci: bool = True) -> list[dict]:
    """Aggregate rows of one (model, benchmark), in :data:`LEVELS` order."""
    is_tgb = table.benchmark == TINYGRAFIX
    task_nodes: dict[str, _Node] = {}
    mode_nodes: dict[str, list[_Node]] = {}
    cond_parts: dict[str, list[_Node]] = {}
    for task in table.tasks():
        member = table.task == task
        vals = table.values[member]
        cat = str(table.category[member][0])
        with_conds = not (is_tgb or task == PRESERVATION_TASK)
        task_boot, mode_boot, cond_boot = None, {}, {}
        if ci:
            counts_w = task_counts(seed, table.benchmark, task, int(member.sum()), n_boot)
            task_boot, mode_boot, cond_boot = _task_resamples(table, member, counts_w, with_conds)
        names = _task_names(task, cat) if is_tgb else {"task": task}
        task_nodes[task] = _Node({"level": "task", "category": cat, **names},
                                 _counts(table, member), vals.mean(axis=0), _pop_std(vals),
                                 task_boot)
        modes = list(dict.fromkeys(table.mode[member].tolist()))
        if modes != ["default"]:
            mode_nodes[task] = []
            for mode in modes:
                sub = table.mode[member] == mode
                mode_nodes[task].append(_Node(
                    {"level": "mode", "category": cat, **names, "mode": mode},
                    _counts(table, _sub_member(member, sub)),
                    vals[sub].mean(axis=0), _pop_std(vals[sub]), mode_boot.get(mode)))
        if not with_conds:
            continue
        for cond in dict.fromkeys(table.condition[member].tolist()):
            sub = table.condition[member] == cond
            cond_parts.setdefault(cond, []).append(_Node(
                {}, _counts(table, _sub_member(member, sub)), vals[sub].mean(axis=0),
                _pop_std(vals[sub]), cond_boot.get(cond)))
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
    if not ci:
        return [node.row(table.model, table.benchmark) for node in out]
    # One percentile call for every node of the table, over contiguous rows (36, B) each:
    # far cheaper than one call per node or a strided axis-0 percentile.
    boots = np.concatenate([node.boot for node in out], axis=0)
    low, high = percentile_interval(boots)
    low, high = low.reshape(len(out), _NB, _NC), high.reshape(len(out), _NB, _NC)
    return [node.row(table.model, table.benchmark, low[k], high[k]) for k, node in enumerate(out)]


def _task_names(task: str, category: str) -> dict:
    """TinyGrafixBench task rows the way the benchmark's authors name them: ``task`` is the
    edit (``add_bar``) under its chart ``category`` (``bar_chart``); ``chart_task`` keeps the
    folder name (``bar_chart_add_bar``)."""
    prefix = f"{category}_"
    short = task[len(prefix):] if task.startswith(prefix) and len(task) > len(prefix) else task
    return {"task": short, "chart_task": task}


def _sub_member(member: np.ndarray, sub: np.ndarray) -> np.ndarray:
    """Global bool mask of the ``sub`` selection inside the ``member`` selection."""
    full = np.zeros_like(member)
    full[np.flatnonzero(member)[sub]] = True
    return full


def _aggregate_job(args) -> list[dict]:
    table, n_boot, seed, ci = args
    # The products are small ((B, n) @ (n, 36)): a multi-threaded BLAS spends far more time
    # waking threads than computing (30x slower on a busy 2-core machine), and one thread
    # also fixes the summation order. Parallelism comes from --jobs processes instead.
    with threadpool_limits(limits=1, user_api="blas"):
        return aggregate_table(table, n_boot, seed, ci)


def aggregate_tables(tables: list[ProblemTable], n_boot: int = DEFAULT_N_BOOT,
                     seed: int = DEFAULT_SEED, ci: bool = True, jobs: int = 1) -> list[dict]:
    """Rows of every table, in table order; byte-identical output for any ``jobs``."""
    n_boot = check_n_boot(n_boot)
    seed, jobs = check_int(seed, "seed", 0), check_int(jobs, "jobs", 1)
    work = [(t, n_boot, seed, ci) for t in tables]
    if jobs <= 1 or len(work) <= 1:
        results = [_aggregate_job(w) for w in work]
    else:
        with worker_pool(min(jobs, len(work))) as pool:  # workers die with a killed stats
            results = results_in_order(pool, _aggregate_job, work)  # a dead worker: raises
    return [row for rows in results for row in rows]
