"""``paintkit agreement`` with hostile rows (issue 23, items 8 and 10): a rating holding
U+2028, unhashable keys, every rating skipped, and scores and ratings on different scales."""

from __future__ import annotations

import json

from paintkit.cli.main import main
from paintkit.stats.agreement import agreement_report, scale_warning


def _write(path, rows, extra=()):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
                    + "".join(line + "\n" for line in extra))
    return path


def _scores(tmp_path, n=8):
    return _write(tmp_path / "s.jsonl", [
        {"model": "m", "benchmark": "PaintBench", "task": "recolor", "idx": k,
         "output": {"cie76_mean": {"iou": k / n}}} for k in range(n)])


def _run(tmp_path, judgments, capsys):
    out = tmp_path / "a.json"
    code = main(["agreement", "--scores", str(_scores(tmp_path)), "--judgments",
                 str(judgments), "--resamples", "10", "--output", str(out)])
    captured = capsys.readouterr()
    return code, captured, (json.loads(out.read_text()) if out.exists() else None)


def test_a_rating_with_a_line_separator_is_kept(tmp_path, capsys):
    rows = [{"task": "recolor", "idx": k, "rating": k / 8, "comment": "good\u2028enough"}
            for k in range(8)]
    code, captured, report = _run(tmp_path, _write(tmp_path / "j.jsonl", rows), capsys)
    assert code == 0, captured.err
    assert report["n_items"] == 8 and report["skipped_rows"] == []


def test_unhashable_keys_are_skipped_with_a_reason(tmp_path, capsys):
    rows = [{"task": "recolor", "idx": k, "rating": k / 8} for k in range(8)]
    rows[2]["idx"] = [2]
    rows[3]["task"] = {"name": "recolor"}
    rows[4]["rater"] = ["a", "b"]
    code, captured, report = _run(tmp_path, _write(tmp_path / "j.jsonl", rows), capsys)
    assert code == 0 and "Traceback" not in captured.err
    assert report["n_items"] == 5
    reasons = "\n".join(report["skipped_rows"])
    assert ":3: key field 'idx' is a list" in reasons
    assert ":4: key field 'task' is a dict" in reasons
    assert ":5: rater is a list, not a name" in reasons


def test_every_rating_skipped_names_the_reasons(tmp_path, capsys):
    rows = [{"task": "recolor", "idx": k, "rating": "good"} for k in range(8)]
    code, captured, report = _run(tmp_path, _write(tmp_path / "j.jsonl", rows), capsys)
    lines = captured.err.strip().splitlines()
    assert code == 2 and report is None and len(lines) == 1
    assert "no problem is both in" in lines[0] and "8 row(s) were skipped" in lines[0]
    assert "rating is not a finite number: 'good'" in lines[0]


def test_different_scales_are_warned_about(tmp_path, capsys):
    rows = [{"task": "recolor", "idx": k, "rating": 1 + k % 5} for k in range(8)]
    code, captured, report = _run(tmp_path, _write(tmp_path / "j.jsonl", rows), capsys)
    assert code == 0
    assert "warning: scores lie in [0, 0.875] and ratings in [1, 5]" in captured.err
    assert "signed_bias and krippendorff_alpha" in report["scale_warning"]


def test_same_scales_get_no_warning():
    assert scale_warning([0.1, 0.9], [[0.2], [0.7]]) is None
    assert scale_warning([1.0, 3.0], [[2.0], [5.0]]) is None
    report = agreement_report([0.1, 0.5, 0.9], [[0.2], [0.4], [1.0]], resamples=0)
    assert report["scale_warning"] is None


def test_resamples_are_bounded(tmp_path, capsys):
    from paintkit.stats.agreement import MAX_RESAMPLES

    rows = [{"task": "recolor", "idx": k, "rating": k / 8} for k in range(8)]
    judgments = _write(tmp_path / "j.jsonl", rows)
    code = main(["agreement", "--scores", str(_scores(tmp_path)), "--judgments",
                 str(judgments), "--resamples", str(MAX_RESAMPLES + 1)])
    err = capsys.readouterr().err
    assert code == 2 and f"--resamples: expected a count from 0 to {MAX_RESAMPLES:,}" in err
