"""What the report shows, gathered from a results folder: aggregate rows, diagnostics and a
compact JSON payload for the page's tables.

Reads ``problem_stats.jsonl`` (required) and ``aggregate_stats.jsonl`` beside it when present
(and built from the same models); otherwise the aggregate is computed here. The rows are
read once; what the reader should know (a stale aggregate file, recomputed) is a
:class:`ReportNote` warning, never printed here.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path

from paintkit.io.jsonl import parse_json
from paintkit.layout.readers import STRICT, read_jsonl
from paintkit.layout.results import AGGREGATE_NAME, aggregate_path, problem_stats_path, provenance_path
from paintkit.metrics.version import row_metric_version
from paintkit.report.text import display, finite
from paintkit.stats.aggregate import aggregate_tables
from paintkit.stats.diagnostics import diagnostics_rows
from paintkit.stats.order import category_key, task_key
from paintkit.stats.results_file import recorded_subset
from paintkit.stats.table import (
    BLOCKS,
    CI_FIGURES,
    PRESERVATION_TASK,
    ProblemTable,
    build_tables,
    read_problem_rows,
)
from paintkit.subsets import as_subset

__all__ = ["AGGREGATE_NAME", "METRICS", "ReportData", "ReportNote", "coverage", "leaderboard",
           "load_report_data", "read_stats_provenance", "table_payload"]


class ReportNote(UserWarning):
    """Something the report did that its reader should know (``paintkit report`` prints it
    as one line)."""
#: Selector value -> (figure in the aggregate block, or a count ratio).
METRICS = {"iou": "mIoU", "edit_accuracy": "edit accuracy",
           "preservation_accuracy": "preservation accuracy", "outputs": "outputs present",
           "correct_size": "correct size"}


@dataclass
class ReportData:
    tables: list[ProblemTable]
    aggregate: list[dict]
    diagnostics: list[dict]
    #: Where the figures came from: the aggregate file read (or None), bootstrap B and seed.
    provenance: dict = field(default_factory=dict)

    @property
    def models(self) -> list[str]:
        return list(dict.fromkeys(t.model for t in self.tables))

    @property
    def benchmarks(self) -> list[str]:
        return list(dict.fromkeys(t.benchmark for t in self.tables))


def load_report_data(input_path, n_boot: int = 10_000, seed: int = 0,
                     subset=None) -> ReportData:
    """Tables, aggregate rows (read or computed) and diagnostics of ``input_path``;
    ``subset`` (a ``subset.json`` or :class:`~paintkit.subsets.Subset`): only its problems'
    rows. ``provenance["subset"]`` names the subset the figures cover (this one, or the one
    the results folder's ``results.json`` or ``aggregate_stats.jsonl`` records), else None."""

    input_path = Path(input_path)
    subset = as_subset(subset)
    rows = read_problem_rows(input_path)  # the one read of problem_stats.jsonl
    if subset is not None:
        rows = subset.select_rows(rows)
        if not rows:
            raise ValueError(f"{input_path}: no row is of a problem of {subset.path}")
    tables = build_tables(rows)
    if tables and tables[0].delta_e != "cie76":  # the page's blocks and labels are CIE76
        raise ValueError(f"{input_path}: rows scored with delta_e {tables[0].delta_e}; the "
                         "report shows CIE76 results (score with 'paintkit eval' without "
                         "--delta-e)")
    results = problem_stats_path(input_path)
    agg_path = aggregate_path(results)
    scope = subset.scope() if subset is not None else None
    recorded = read_stats_provenance(agg_path).get("subset") if agg_path.is_file() else None
    # an aggregate of other rows than the subset's is not this report's
    same_rows = subset is None or recorded == scope
    aggregate = _read_aggregate(agg_path, results, tables) if same_rows else None
    provenance = {"n_boot": n_boot, "seed": seed, "aggregate_file": None,
                  "metric_version": row_metric_version(rows[0])}
    if aggregate is None:
        aggregate = aggregate_tables(tables, n_boot=n_boot, seed=seed)
    else:
        provenance.update(read_stats_provenance(agg_path), aggregate_file=str(agg_path))
    if scope is None:

        scope = recorded_subset(results) or (recorded if aggregate is not None and
                                             provenance["aggregate_file"] else None)
    provenance["subset"] = scope
    diagnostics = diagnostics_rows(tables, n_boot=min(n_boot, 2000), seed=seed)
    return ReportData(tables, aggregate, diagnostics, provenance)


def read_stats_provenance(agg_path: Path) -> dict:
    """What ``paintkit stats`` recorded beside ``agg_path`` (bootstrap B, seed, ...), or {}."""
    side = provenance_path(agg_path)
    try:
        data = parse_json(side.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"n_boot": None, "seed": None}
    return data if isinstance(data, dict) else {"n_boot": None, "seed": None}


def _read_aggregate(agg_path: Path, results: Path, tables: list[ProblemTable]) -> list[dict] | None:
    """The rows of ``aggregate_stats.jsonl`` when they describe ``tables``, else None (then the
    report computes them, and says why in a :class:`ReportNote` when the file exists)."""
    if not agg_path.is_file():
        return None
    why = None
    try:
        if results.is_file() and agg_path.stat().st_mtime < results.stat().st_mtime:
            why = f"older than {results.name}"
        else:
            rows = [row for _, row in read_jsonl(agg_path, STRICT).rows]
            pairs = {(r["model"], r["benchmark"]) for r in rows}
            if pairs != {(t.model, t.benchmark) for t in tables}:
                why = "built from other models or benchmarks"
            else:
                for r in rows:
                    _cell(r)  # every figure a number: else recompute
                return rows
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        why = f"unreadable ({exc})"
    warnings.warn(f"{agg_path}: {why}; recomputing the aggregate", ReportNote, stacklevel=2)
    return None


def _count(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a count, got {value!r}")
    return value


def _cell(row: dict) -> dict:
    """Compact per-row payload: {block: {figure: [mean, low, high]}} + counts.

    Anything that is not a finite number becomes None (shown as "–"). The edit accuracy of
    the preservation task has an empty denominator (no edit region): None too.
    """
    out = {"n": _count(row["n_problems"]), "out": _count(row["n_with_output"]),
           "size": _count(row["n_correct_output_size"])}
    no_edit = row.get("task") == PRESERVATION_TASK
    for block in BLOCKS:
        b = row[block]
        out[block] = {f: ([None, None, None] if no_edit and f == "edit_accuracy" else
                          [_r(b[f"mean_{f}"]), _r(b.get(f"ci95_{f}_low")),
                           _r(b.get(f"ci95_{f}_high"))]) for f in CI_FIGURES}
    return out


def _r(x):
    x = finite(x)
    return None if x is None else round(x, 6)


def table_payload(data: ReportData) -> dict:
    """JSON for the page script: models, and per benchmark the hierarchy and conditions."""
    benches = {}
    for bench in data.benchmarks:
        rows = [r for r in data.aggregate if r["benchmark"] == bench]
        tree: dict = {"benchmark": {}, "categories": [], "conditions": []}
        cats: dict[str, dict] = {}
        tasks: dict[str, dict] = {}
        conds: dict[str, dict] = {}
        for r in rows:
            level, model = r["level"], r["model"]
            if level == "benchmark":
                tree["benchmark"][model] = _cell(r)
            elif level == "category":
                cats.setdefault(r["category"], {"name": r["category"], "cells": {}, "tasks": []})
                cats[r["category"]]["cells"][model] = _cell(r)
            elif level == "task":
                key = r["task"]
                if key not in tasks:
                    tasks[key] = {"name": key, "category": r.get("category"), "cells": {},
                                  "modes": {}}
                tasks[key]["cells"][model] = _cell(r)
            elif level == "mode":
                tasks[r["task"]]["modes"].setdefault(r["mode"], {})[model] = _cell(r)
            elif level == "visual_condition":
                conds.setdefault(r["visual_condition"], {})[model] = _cell(r)
        for task in tasks.values():
            name = task["category"] or "other"
            if name not in cats:  # e.g. the preservation split: a task row, no roll-up
                name = "not in the benchmark score"
                cats.setdefault(name, {"name": name, "cells": {}, "tasks": [], "unscored": True})
            cat = cats[name]
            task["modes"] = [{"name": m, "cells": c} for m, c in task["modes"].items()]
            cat["tasks"].append(task)
        for cat in cats.values():
            cat["tasks"].sort(key=lambda t: task_key(bench, t["name"]))
        tree["categories"] = sorted(cats.values(), key=lambda c: (
            c.get("unscored", False), category_key(bench, c["name"])))
        tree["conditions"] = [{"name": c, "cells": cells} for c, cells in conds.items()]
        benches[bench] = tree
    return {"models": data.models, "benchmarks": benches, "metrics": METRICS,
            "coverage": coverage(data)}


def coverage(data: ReportData) -> dict:
    """``{benchmark: {model: {"problems", "outputs", "expected"}}}``: rows scored, outputs
    present, and the problems any model has in that benchmark (the denominator)."""
    out: dict[str, dict] = {}
    for bench in data.benchmarks:
        mine = [t for t in data.tables if t.benchmark == bench]
        union = {(str(task), int(i)) for t in mine for task, i in zip(t.task, t.idx, strict=True)}
        out[bench] = {t.model: {"problems": len(t), "outputs": int(t.has_output.sum()),
                                "expected": len(union)} for t in mine}
    return out


def leaderboard(data: ReportData) -> list[dict]:
    """One entry per model, best first on the first benchmark: ``{"model", "scores":
    {benchmark: (mIoU, CI low, CI high)}, "coverage": {benchmark: {"problems", "outputs",
    "expected"}}}`` (scores: ``cie76_mean`` of the benchmark row; None where not finite)."""
    scores: dict[str, dict] = {m: {} for m in data.models}
    for r in data.aggregate:
        if r["level"] == "benchmark":
            b = r["cie76_mean"]
            scores[r["model"]][r["benchmark"]] = (finite(b["mean_iou"]), finite(b.get("ci95_iou_low")),
                                                  finite(b.get("ci95_iou_high")))
    cov = coverage(data)
    first = data.benchmarks[0] if data.benchmarks else None
    entries = [{"model": m, "scores": s, "coverage": {b: cov[b][m] for b in cov if m in cov[b]}}
               for m, s in scores.items()]

    def key(e):
        top = e["scores"].get(first, (None,))[0]
        return (top is None, -(top or 0.0), display(e["model"]))

    entries.sort(key=key)
    return entries
