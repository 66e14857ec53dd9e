"""What the report shows, gathered from a results folder: aggregate rows, diagnostics and a
compact JSON payload for the page's tables.

Reads ``problem_stats.jsonl`` (required) and ``aggregate_stats.jsonl`` beside it when present
(and built from the same models); otherwise the aggregate is computed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from paintkit.io.jsonl import parse_json
from paintkit.stats.table import BLOCKS, CI_FIGURES, ProblemTable, load_tables

AGGREGATE_NAME = "aggregate_stats.jsonl"
#: Selector value -> (figure in the aggregate block, or a count ratio).
METRICS = {"iou": "mIoU", "edit_accuracy": "edit accuracy",
           "preservation_accuracy": "preservation accuracy", "outputs": "outputs present",
           "correct_size": "correct size"}


@dataclass
class ReportData:
    tables: list[ProblemTable]
    aggregate: list[dict]
    diagnostics: list[dict]

    @property
    def models(self) -> list[str]:
        return list(dict.fromkeys(t.model for t in self.tables))

    @property
    def benchmarks(self) -> list[str]:
        return list(dict.fromkeys(t.benchmark for t in self.tables))


def _results_file(path: Path) -> Path:
    return path / "problem_stats.jsonl" if path.is_dir() else path


def _aggregate_rows(path: Path) -> list[dict]:
    """The rows of an ``aggregate_stats.jsonl``; ``ValueError`` naming the file and line."""
    rows = []
    for n, line in enumerate(path.read_bytes().split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            row = parse_json(line)
        except ValueError as exc:
            raise ValueError(f"{path}:{n}: not JSON ({exc}); remove the file or rewrite it "
                             "with 'paintkit stats'") from None
        if not isinstance(row, dict) or "model" not in row or "benchmark" not in row:
            raise ValueError(f"{path}:{n}: not an aggregate row (no model and benchmark)")
        rows.append(row)
    return rows


def load_report_data(input_path, n_boot: int = 10_000, seed: int = 0) -> ReportData:
    """Tables, aggregate rows (read or computed) and diagnostics of ``input_path``."""
    from paintkit.stats.aggregate import aggregate_tables
    from paintkit.stats.diagnostics import diagnostics_rows

    input_path = Path(input_path)
    tables = load_tables(input_path)
    if tables and tables[0].delta_e != "cie76":  # the page's blocks and labels are CIE76
        raise ValueError(f"{input_path}: rows scored with delta_e {tables[0].delta_e}; the "
                         "report shows CIE76 results (score with 'paintkit eval' without "
                         "--delta-e)")
    agg_path = _results_file(input_path).parent / AGGREGATE_NAME
    aggregate = None
    if agg_path.is_file():
        rows = _aggregate_rows(agg_path)
        pairs = {(r["model"], r["benchmark"]) for r in rows}
        if pairs == {(t.model, t.benchmark) for t in tables}:
            aggregate = rows
    if aggregate is None:
        aggregate = aggregate_tables(tables, n_boot=n_boot, seed=seed)
    diagnostics = diagnostics_rows(tables, n_boot=min(n_boot, 2000), seed=seed)
    return ReportData(tables, aggregate, diagnostics)


def _cell(row: dict) -> dict:
    """Compact per-row payload: {block: [mean, low, high] per CI figure} + counts."""
    out = {"n": row["n_problems"], "out": row["n_with_output"],
           "size": row["n_correct_output_size"]}
    for block in BLOCKS:
        b = row[block]
        out[block] = {f: [round(b[f"mean_{f}"], 6), _r(b.get(f"ci95_{f}_low")),
                          _r(b.get(f"ci95_{f}_high"))] for f in CI_FIGURES}
    return out


def _r(x):
    return None if x is None or x != x else round(x, 6)


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
        tree["categories"] = list(cats.values())
        tree["conditions"] = [{"name": c, "cells": cells} for c, cells in conds.items()]
        benches[bench] = tree
    return {"models": data.models, "benchmarks": benches, "metrics": METRICS}


def leaderboard(data: ReportData) -> list[dict]:
    """One entry per model: benchmark mIoU (cie76_mean) with CI per benchmark, best first."""
    scores: dict[str, dict] = {m: {} for m in data.models}
    for r in data.aggregate:
        if r["level"] == "benchmark":
            b = r["cie76_mean"]
            scores[r["model"]][r["benchmark"]] = (b["mean_iou"], b.get("ci95_iou_low"),
                                                  b.get("ci95_iou_high"))
    first = data.benchmarks[0] if data.benchmarks else None
    entries = [{"model": m, "scores": s} for m, s in scores.items()]
    entries.sort(key=lambda e: (-(e["scores"].get(first, (-1.0,))[0]), e["model"]))
    return entries
