"""``paintkit agreement`` on files: matching by problem, bad rows recorded, report written."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.stats import spearmanr

from paintkit.cli.main import main


def _write_jsonl(path, rows, extra_lines=()):
    lines = [json.dumps(r) for r in rows] + list(extra_lines)
    path.write_text("\n".join(lines) + "\n")


def _score_row(task, idx, miou):
    return {"model": "m", "benchmark": "PaintBench", "task": task, "idx": idx,
            "output": {"cie76_mean": {"iou": miou}}}


def test_agreement_cli_matches_problems_and_records_bad_rows(tmp_path, capsys):
    rng = np.random.default_rng(0)
    mious = rng.uniform(size=30)
    scores = [_score_row("recolor", k, float(m)) for k, m in enumerate(mious)]
    scores.append(_score_row("recolor", 99, 0.5))  # never judged
    judgments = [{"task": "recolor", "idx": k, "rater": "h1", "rating": float(m * 5)}
                 for k, m in enumerate(mious)]
    judgments[4]["rating"] = "good"  # bad row: recorded, skipped
    _write_jsonl(tmp_path / "scores.jsonl", scores)
    _write_jsonl(tmp_path / "judgments.jsonl", judgments, extra_lines=["{not json"])
    out = tmp_path / "agreement.json"
    code = main(["agreement", "--scores", str(tmp_path / "scores.jsonl"), "--judgments",
                 str(tmp_path / "judgments.jsonl"), "--resamples", "20", "--output", str(out)])
    assert code == 0
    report = json.loads(out.read_text())
    assert report["n_items"] == 29 and report["key_fields"] == ["task", "idx"]
    assert report["unmatched"] == {"scores_only": 2, "judgments_only": 0}
    assert len(report["skipped_rows"]) == 2
    assert any("not a finite number" in s for s in report["skipped_rows"])
    keep = [k for k in range(30) if k != 4]
    expected = spearmanr(mious[keep], mious[keep] * 5).statistic
    assert report["metric_vs_raters"]["spearman"]["value"] == pytest.approx(expected)
    assert report["rater_vs_rater"] is None
    printed = capsys.readouterr()
    assert "paintkit vs raters" in printed.out and "skipped" in printed.err


def test_agreement_cli_without_shared_problems_fails_clearly(tmp_path, capsys):
    _write_jsonl(tmp_path / "s.jsonl", [_score_row("recolor", 0, 0.1)])
    _write_jsonl(tmp_path / "j.jsonl", [{"task": "recolor", "idx": 5, "rating": 1}])
    code = main(["agreement", "--scores", str(tmp_path / "s.jsonl"),
                 "--judgments", str(tmp_path / "j.jsonl")])
    assert code == 2
    assert "no problem is both in" in capsys.readouterr().err


def test_agreement_reads_the_miou_of_the_rows_own_colour_difference(tmp_path):
    rows = [{"model": "m", "benchmark": "PaintBench", "task": "recolor", "idx": k,
             "delta_e": "ciede2000", "output": {"ciede2000_mean": {"iou": k / 10}}}
            for k in range(8)]
    _write_jsonl(tmp_path / "s.jsonl", rows)
    _write_jsonl(tmp_path / "j.jsonl", [{"task": "recolor", "idx": k, "rating": k} for k in range(8)])
    out = tmp_path / "a.json"
    assert main(["agreement", "--scores", str(tmp_path / "s.jsonl"), "--judgments",
                 str(tmp_path / "j.jsonl"), "--resamples", "0", "--output", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["score_field"] == "output.ciede2000_mean.iou"
    assert report["n_items"] == 8 and report["skipped_rows"] == []
    assert report["metric_vs_raters"]["spearman"]["value"] == pytest.approx(1.0)


def test_agreement_refuses_rows_of_mixed_colour_differences(tmp_path, capsys):
    rows = [_score_row("recolor", 0, 0.1),
            {**_score_row("recolor", 1, 0.2), "delta_e": "cie94"}]
    _write_jsonl(tmp_path / "s.jsonl", rows)
    _write_jsonl(tmp_path / "j.jsonl", [{"task": "recolor", "idx": k, "rating": k} for k in range(2)])
    code = main(["agreement", "--scores", str(tmp_path / "s.jsonl"),
                 "--judgments", str(tmp_path / "j.jsonl")])
    assert code == 2
    assert "several colour differences (cie76, cie94)" in capsys.readouterr().err
