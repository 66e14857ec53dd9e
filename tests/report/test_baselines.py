"""`paintkit baseline`: outputs in the SPEC 5 layout; oracle scores 1.0, identity 0 on edits."""

from __future__ import annotations

import json

import numpy as np
import pytest

from paintkit.baselines import baseline_output, write_baseline
from paintkit.eval.synthetic import write_synthetic_tree
from paintkit.io.images import load_rgb
from paintkit.layout.benchmark import discover_problems


def _rows(pipeline):
    path = pipeline["results"] / "problem_stats.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_oracle_scores_one_everywhere(pipeline):
    rows = [r for r in _rows(pipeline) if r["model"] == "oracle"]
    assert rows and all(r["has_output"] and r["correct_output_size"] for r in rows)
    for r in rows:
        for t in range(11):
            block = r["output"]["cie76_threshold"][str(t)]
            assert block["iou"] == block["edit_accuracy"] == block["preservation_accuracy"] == 1.0


def test_identity_zero_on_edits_one_on_preservation(pipeline):
    rows = [r for r in _rows(pipeline) if r["model"] == "identity"]
    pres = [r for r in rows if r["task"] == "preservation"]
    scored = [r for r in rows if r["task"] != "preservation"]
    assert pres and scored
    assert all(r["output"]["cie76_mean"]["iou"] == 1.0 for r in pres)
    for r in scored:
        assert r["output"]["cie76_threshold"]["0"]["edit_accuracy"] == 0.0
        assert r["output"]["cie76_mean"]["iou"] <= 0.05  # SPEC 3: doing nothing is never rewarded
        assert r["output"]["cie76_mean"]["preservation_accuracy"] == 1.0


def test_aggregate_of_baselines(pipeline):
    agg = [json.loads(line) for line in
           (pipeline["results"] / "aggregate_stats.jsonl").read_text().splitlines()]
    bench = {r["model"]: r["cie76_mean"]["mean_iou"] for r in agg if r["level"] == "benchmark"}
    assert bench["oracle"] == 1.0
    assert bench["identity"] <= 0.05
    pres = {r["model"]: r for r in agg if r.get("task") == "preservation"}
    assert pres["identity"]["cie76_mean"]["mean_iou"] == 1.0


def test_baselines_on_a_foreign_tree_are_exact_and_deterministic(tmp_path):
    bench, _ = write_synthetic_tree(tmp_path / "syn", problems=6, tasks=2, models=())
    s1 = write_baseline("noise", bench, tmp_path / "out1")
    s2 = write_baseline("noise", bench, tmp_path / "out2")
    assert s1.written == s2.written == 6
    for p in discover_problems(bench):
        a = (tmp_path / "out1" / "noise" / p.benchmark / p.task / f"{p.idx:04d}_output.png")
        b = (tmp_path / "out2" / "noise" / p.benchmark / p.task / f"{p.idx:04d}_output.png")
        assert a.read_bytes() == b.read_bytes()
        assert np.array_equal(baseline_output("oracle", p), load_rgb(p.answer_path))
        blank = baseline_output("blank", p)
        assert (blank == load_rgb(p.input_path)[0, 0]).all()  # the synthetic background colour
    again = write_baseline("noise", bench, tmp_path / "out1")
    assert again.written == 0 and again.skipped == 6  # resumes: existing files are kept


def test_unknown_baseline_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="expected one of identity, oracle, blank, noise"):
        write_baseline("magic", tmp_path, tmp_path / "out")
