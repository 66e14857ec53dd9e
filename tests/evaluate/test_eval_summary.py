"""``paintkit eval`` scores and writes rows; its summary is read from the rows without the
stats stage's bootstrap (that is ``paintkit stats``'s job)."""

from __future__ import annotations

import json

import pytest

import paintkit.stats.aggregate as aggregate_module
from paintkit.cli.main import main


@pytest.fixture()
def tree_and_outputs(tmp_path):
    bench, outs = tmp_path / "bench", tmp_path / "outs"
    assert main(["generate", "paintbench", "--out", str(bench), "--tasks", "recolor",
                 "--conditions", "baseline", "--per-cell", "2", "--no-preservation",
                 "--namespace", "summary", "--engine", "inprocess", "--quiet"]) == 0
    assert main(["baseline", "oracle", "--benchmarks", str(bench), "--outputs", str(outs),
                 "--quiet"]) == 0
    return bench, outs


def test_eval_summary_runs_no_bootstrap(tree_and_outputs, tmp_path, monkeypatch, capsys):
    bench, outs = tree_and_outputs

    def refuse(*args, **kwargs):
        raise AssertionError("paintkit eval resampled: the bootstrap is paintkit stats' job")

    for name in ("task_counts", "percentile_interval"):  # what the aggregate resamples with
        monkeypatch.setattr(aggregate_module, name, refuse)
    res = tmp_path / "res"
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(res), "--quiet", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    assert "oracle" in captured.out and "100.0" in captured.out
    assert "bootstrap resamples" not in captured.err and "'paintkit stats'" in captured.err
    doc = json.loads((res / "results.json").read_text())
    assert doc["models"]["oracle"]["PaintBench"]["score"] == 1.0
    assert doc["config"]["n_boot"] is None
    monkeypatch.undo()
    assert main(["stats", "--results", str(res), "--n-boot", "50"]) == 0
    assert "oracle" in capsys.readouterr().out
