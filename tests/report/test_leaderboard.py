"""The leaderboard as text: printed by ``stats`` and ``eval``, exported as md / csv / latex."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest

from paintkit.cli.main import main
from paintkit.stats.aggregate import aggregate_tables
from paintkit.stats.leaderboard import format_leaderboard, leaderboard_rows
from paintkit.stats.table import build_tables
from tests.support.rows_factory import paintbench_rows, tinygrafix_rows


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    rows = paintbench_rows(models=("weak", "a_b & c%", "strong"), per_cell=2) + \
        tinygrafix_rows(models=("weak", "a_b & c%", "strong"), per_task=2)
    for r in rows:  # "strong" best, one PaintBench output of "weak" missing
        if r["model"] == "strong" and r["has_output"]:
            r["output"]["cie76_mean"]["iou"] = 0.95
    folder = tmp_path_factory.mktemp("board")
    (folder / "problem_stats.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder, rows


def _board(rows):
    tables = build_tables([dict(r) for r in rows])
    return leaderboard_rows(aggregate_tables(tables, n_boot=200), tables), tables


def test_rows_best_first_with_coverage_and_categories(results):
    _, rows = results
    board, tables = _board(rows)
    pb = [r for r in board if r["benchmark"] == "PaintBench"]
    assert pb[0]["model"] == "strong"
    assert [r["score"] for r in pb] == sorted((r["score"] for r in pb), reverse=True)
    weak = next(t for t in tables if t.model == "weak" and t.benchmark == "PaintBench")
    entry = next(r for r in pb if r["model"] == "weak")
    assert entry["outputs"] == int(weak.has_output.sum()) < entry["expected"] == len(weak)
    # categories in the registry's order, not alphabetical or row order
    assert list(pb[0]["categories"]) == ["geometric_transformation", "structural_manipulation",
                                         "color_change", "symbolic_reasoning"]


def test_formats(results):
    _, rows = results
    board, _ = _board(rows)
    text = format_leaderboard(board)
    assert "PaintBench" in text and "TinyGrafixBench" in text and "missing)" in text
    md = format_leaderboard(board, "md")
    assert "| rank | model | mIoU % | 95% CI | geometric transformation" in md
    latex = format_leaderboard(board, "latex")
    assert r"a\_b \& c\%" in latex and r"\begin{tabular}" in latex and "–" not in latex
    parsed = list(csv.DictReader(io.StringIO(format_leaderboard(board, "csv"))))
    assert len(parsed) == len(board) == 6
    first = next(p for p in parsed if p["benchmark"] == "PaintBench" and p["rank"] == "1")
    assert first["model"] == "strong" and math.isclose(float(first["miou"]), board[0]["score"])


def test_not_a_number_prints_a_dash(results):
    _, rows = results
    board, _ = _board(rows)
    board[0]["score"] = None
    board[0]["categories"]["color_change"] = None
    assert "–" in format_leaderboard(board).splitlines()[3]


def test_stats_writes_into_the_results_folder_and_prints(results, capsys):
    folder, _ = results
    assert main(["stats", "--results", str(folder), "--n-boot", "100", "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("**PaintBench**") and "| 1 | strong |" in out
    assert (folder / "aggregate_stats.jsonl").is_file()
    prov = json.loads((folder / "aggregate_stats.provenance.json").read_text())
    assert prov["n_boot"] == 100 and prov["seed"] == 0
    assert prov["command"].startswith("paintkit stats --results ")
    # the report reads that file and says how it was made
    html = folder / "r.html"
    assert main(["report", "--results", str(folder), "--output", str(html)]) == 0
    assert "B = 100, seed 0" in html.read_text(encoding="utf-8")


def test_stats_help_shows_one_percent_sign(capsys):
    with pytest.raises(SystemExit):
        main(["stats", "--help"])
    out = capsys.readouterr().out
    assert "95%" in out and "%%" not in out


def test_eval_prints_the_leaderboard_and_hints(tmp_path, capsys):
    from paintkit.eval.synthetic import write_synthetic_tree

    bench, outputs = write_synthetic_tree(tmp_path, problems=4, tasks=2, width=16, height=16,
                                          models=("exact", "noisy"))
    args = ["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
            str(tmp_path / "res"), "--jobs", "1", "--quiet"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "rank  model" in out and "exact" in out and "noisy" in out
    assert main([*args, "--explain"]) == 0
    assert "rerun with --overwrite to add --explain" in capsys.readouterr().err
    assert main([*args, "--model", "exakt"]) == 2
    err = capsys.readouterr().err
    assert "did you mean exact?" in err and "holds exact, noisy" in err


def test_report_outputs_without_benchmarks_is_an_error(results, capsys):
    folder, _ = results
    assert main(["report", "--results", str(folder), "--output", str(folder / "x.html"),
                 "--outputs", str(folder)]) == 2
    assert "--outputs needs --benchmarks" in capsys.readouterr().err


def test_paired_differences_and_correlation(results, capsys):
    from paintkit.stats.compare import benchmark_resamples, comparison_rows

    folder, rows = results
    tables = build_tables([dict(r) for r in rows])
    agg = aggregate_tables(tables, n_boot=50)
    # on complete rows the point scores are the aggregate's benchmark scores
    pb = [t for t in tables if t.benchmark == "PaintBench"]
    point, boot, n = benchmark_resamples(pb, n_boot=300)
    expect = {r["model"]: r["cie76_mean"]["mean_iou"] for r in agg
              if r["level"] == "benchmark" and r["benchmark"] == "PaintBench"}
    assert n == sum(1 for r in rows if r["model"] == "weak" and r["benchmark"] == "PaintBench"
                    and r["task"] != "preservation")
    for t, p in zip(pb, point, strict=True):
        assert math.isclose(p, expect[t.model], abs_tol=1e-9)
    assert boot.shape == (3, 300)
    found = comparison_rows(tables, n_boot=300)
    pairs = [r for r in found if r["kind"] == "paired_difference"
             and r["benchmark"] == "PaintBench"]
    assert len(pairs) == 3 and pairs[0]["model_a"] == "strong"
    for r in pairs:
        assert r["ci95_low"] <= r["diff"] <= r["ci95_high"] and r["diff"] >= 0
    corr = found[-1]
    assert corr["kind"] == "cross_benchmark_correlation" and corr["models"] == ["a_b & c%",
                                                                                "strong", "weak"]
    assert -1 <= corr["ci95_low"] <= corr["ci95_high"] <= 1
    assert main(["stats", "--results", str(folder), "--n-boot", "100"]) == 0
    assert "PaintBench vs TinyGrafixBench: Pearson r = " in capsys.readouterr().err
    written = [json.loads(line) for line in (folder / "comparisons.jsonl").read_text().splitlines()]
    assert {r["kind"] for r in written} == {"paired_difference", "cross_benchmark_correlation"}


def test_names_that_are_not_utf8_print(results, tmp_path, capsys):
    import os

    _, rows = results
    odd = os.fsdecode(b"bad\xffname")
    renamed = [dict(r, model=odd) if r["model"] == "weak" else dict(r) for r in rows]
    (tmp_path / "problem_stats.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in renamed))
    for fmt in ("text", "md", "csv", "latex"):
        assert main(["stats", "--results", str(tmp_path), "--n-boot", "20", "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert "bad\ufffdname" in out
        out.encode("utf-8")
