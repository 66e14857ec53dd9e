"""Diagnostics: pass-rate sweeps, paired condition deltas, edit-size buckets, failure counts."""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

from paintkit.cli.main import main
from paintkit.stats.diagnostics import (
    PASS_THRESHOLDS,
    condition_delta_rows,
    diagnostics_rows,
    edit_size_edges,
    edit_size_rows,
    pass_rate_rows,
)
from paintkit.stats.failure_modes import FAILURE_MODES
from paintkit.stats.table import build_tables
from tests.support.rows_factory import paintbench_rows, problem_row


def test_pass_rates_match_plain_count():
    rows = paintbench_rows(models=("m",), per_cell=4)
    table = build_tables(rows)[0]
    got = {r["task"]: r for r in pass_rate_rows(table)}
    for task in ("rotation", "counting"):
        trs = [r for r in rows if r["task"] == task]
        for t in (0, 6, 10):
            for k in PASS_THRESHOLDS:
                want = sum(r["has_output"] and r["output"]["cie76_threshold"][str(t)]["iou"] >= k
                           for r in trs) / len(trs)
                assert got[task]["pass_rates"][f"cie76_{t}"][str(k)] == pytest.approx(want)


def _paired_rows(shift: float, seed=0):
    """Baseline and striped problems whose slots share a difficulty, striped ``shift`` lower."""
    rng = random.Random(seed)
    rows = []
    for task in ("removal", "recolor", "counting"):
        for slot in range(12):
            skill = rng.random()
            for c, cond in enumerate(("baseline", "striped")):
                row = problem_row(rng, "m", "PaintBench", task, "default", cond, 12 * c + slot)
                value = max(0.0, skill - shift * c)
                row["output"]["cie76_mean"]["iou"] = value
                rows.append(row)
    return rows


def test_condition_delta_is_paired_and_tighter():
    rows = _paired_rows(shift=0.1)
    (row,) = condition_delta_rows(build_tables(rows)[0], n_boot=2000, seed=0, ci=True)
    base = np.mean([r["output"]["cie76_mean"]["iou"] for r in rows
                    if r["visual_condition"] == "baseline"])
    striped = np.mean([r["output"]["cie76_mean"]["iou"] for r in rows
                       if r["visual_condition"] == "striped"])
    assert row["delta_iou"] == pytest.approx(striped - base, abs=1e-12)
    paired = row["ci95_delta_iou_high"] - row["ci95_delta_iou_low"]
    unpaired = row["unpaired_ci95_delta_iou_high"] - row["unpaired_ci95_delta_iou_low"]
    assert paired < 0.5 * unpaired
    assert row["ci95_delta_iou_low"] <= row["delta_iou"] <= row["ci95_delta_iou_high"]


def test_edit_size_buckets_cover_problems_with_miou_and_over_edit():
    rows = paintbench_rows(models=("m",), per_cell=4, with_preservation=False)
    for k, r in enumerate(rows):
        if r["has_output"]:
            r["output"]["cie76_threshold"]["5"]["changed_pixels"] = 2 * r["output"]["edit_pixels"]
        r["output"]["cie76_mean"]["iou"] = (k % 4) / 4 if r["has_output"] else 0.0
    table = build_tables(rows)[0]
    edges = edit_size_edges(table.edit_pixels, 4)
    buckets = edit_size_rows(table, edges)
    assert [b["bucket"] for b in buckets] == [0, 1, 2, 3]
    assert sum(b["n_problems"] for b in buckets) == len(rows)
    for b in buckets:
        assert b["median_over_edit_ratio"] == pytest.approx(2.0)
        sel = [r for r in rows if b["edit_pixels_low"] <= r["output"]["edit_pixels"]
               and (r["output"]["edit_pixels"] < b["edit_pixels_high"] or b["bucket"] == 3)]
        assert b["miou"] == pytest.approx(np.mean([r["output"]["cie76_mean"]["iou"] for r in sel]))


def test_failure_counts_add_up_and_cli_writes_diagnostics(tmp_path):
    rows = paintbench_rows(models=("m1", "m2"), per_cell=2)
    src = tmp_path / "problem_stats.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["stats", "--results", str(src), "--aggregate", str(tmp_path / "a.jsonl"),
                 "--n-boot", "200", "--diagnostics", str(tmp_path / "d.jsonl")]) == 0
    diag = [json.loads(line) for line in (tmp_path / "d.jsonl").read_text().splitlines()]
    kinds = {d["kind"] for d in diag}
    assert kinds == {"pass_rate", "condition_delta", "edit_size_bucket", "failure_modes",
                     "problem_failure_mode"}
    for d in diag:
        if d["kind"] == "failure_modes":
            assert set(d["counts"]) == set(FAILURE_MODES)
            assert sum(d["counts"].values()) == d["n_problems"]
    tags = [d for d in diag if d["kind"] == "problem_failure_mode"]
    assert len(tags) == len(rows)
    again = diagnostics_rows(build_tables(copy.deepcopy(rows)), n_boot=200)
    assert [json.loads(json.dumps(r)) for r in again] == diag  # deterministic
