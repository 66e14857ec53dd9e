"""A smaller tree of a released benchmark (``--per-cell``, ``--tasks``, ``--conditions`` in
the release's namespace) is scored as what it is: results.json, the leaderboard and the
report say how many of the release's problems it holds."""

from __future__ import annotations

import json

from paintkit.cli.main import main


def test_a_per_cell_tree_is_named_a_part_of_the_release(tmp_path, capsys):
    bench, outs, res = tmp_path / "bench", tmp_path / "outs", tmp_path / "res"
    assert main(["generate", "paintbench", "--out", str(bench), "--tasks", "recolor",
                 "--conditions", "baseline,n_med", "--per-cell", "1", "--engine", "inprocess",
                 "--quiet"]) == 0
    assert main(["baseline", "oracle", "--benchmarks", str(bench), "--outputs", str(outs),
                 "--quiet"]) == 0
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(res), "--quiet", "--jobs", "1"]) == 0
    assert json.loads((res / "results.json").read_text())["subset"] == {
        "file": None, "benchmark": "PaintBench", "problems": 2, "of": 2016}
    line = "part of PaintBench: 2 of its 2,016 problems"
    assert line in capsys.readouterr().out
    assert main(["stats", "--results", str(res), "--n-boot", "20"]) == 0
    assert line in capsys.readouterr().out
    page = tmp_path / "r.html"
    assert main(["report", "--results", str(res), "--output", str(page), "--n-boot", "20"]) == 0
    assert line in page.read_text()


def test_another_namespace_is_not_a_part_of_the_release(tmp_path):
    bench, outs, res = tmp_path / "bench", tmp_path / "outs", tmp_path / "res"
    assert main(["generate", "paintbench", "--out", str(bench), "--tasks", "recolor",
                 "--conditions", "baseline", "--per-cell", "1", "--namespace", "mine",
                 "--engine", "inprocess", "--quiet"]) == 0
    assert main(["baseline", "oracle", "--benchmarks", str(bench), "--outputs", str(outs),
                 "--quiet"]) == 0
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(res), "--quiet", "--jobs", "1"]) == 0
    assert "subset" not in json.loads((res / "results.json").read_text())
