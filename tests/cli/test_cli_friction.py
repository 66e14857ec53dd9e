"""Small command-line frictions of the pipeline commands (issue: report for papers, item 13)."""

from __future__ import annotations

from paintkit.cli.main import main
from paintkit.eval.synthetic import write_synthetic_tree


def test_baseline_shows_progress(tmp_path, capsys):
    bench, _ = write_synthetic_tree(tmp_path, problems=4, tasks=2, width=16, height=16,
                                    models=())
    assert main(["baseline", "oracle", "--benchmarks", str(bench), "--outputs",
                 str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "oracle: written [" in err and "4/4" in err
    assert main(["baseline", "oracle", "--benchmarks", str(bench), "--outputs",
                 str(tmp_path / "out"), "--quiet"]) == 0
    assert "[" not in capsys.readouterr().err


def test_gallery_conditions_comma_or_space(tmp_path, capsys):
    assert main(["gallery", "--out", str(tmp_path), "--per-condition", "1", "--conditions",
                 "baseline,striped", "n_med"]) == 0
    out = capsys.readouterr().out
    assert "baseline: 1 scene in" in out and "n_med: 1 scene in" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["baseline", "n_med", "striped"]


def test_tasks_prints_plain_text(capsys):
    assert main(["tasks", "recolor"]) == 0
    out = capsys.readouterr().out
    assert "recolor (color_change)" in out and "``" not in out and ":func:" not in out
