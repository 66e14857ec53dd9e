"""``paintkit generate compositional``: the usual layout, scored by ``paintkit eval`` unchanged."""

import json

import pytest

from paintkit.cli.main import main
from paintkit.suites.compositional import CompositionalSuite


def test_suite_order_ids_and_folders():
    suite = CompositionalSuite(steps=3, conditions=("baseline", "striped"), per_cell=2)
    assert len(suite) == 2 * 2 * 2
    specs = list(suite.specs())
    assert [s.folder for s in specs] == ["multi_edit_steps3"] * 4 + ["conversational_steps3"] * 4
    assert [s.stem for s in specs[:4]] == ["000", "001", "002", "003"]
    assert [(s.condition, s.slot) for s in specs[:4]] == \
        [("baseline", 0), ("baseline", 1), ("striped", 0), ("striped", 1)]
    assert len({s.problem_id for s in specs}) == len(specs)
    assert CompositionalSuite.from_dict(suite.to_dict()) == suite
    with pytest.raises(ValueError, match="unknown compositional kind 'multi'"):
        CompositionalSuite(kinds=("multi",))
    with pytest.raises(ValueError, match=r"steps must be one of \(2, 3\)"):
        CompositionalSuite(steps=1)


def test_generate_then_eval_scores_the_oracle_perfectly(tmp_path, capsys):
    bench, outs, results = tmp_path / "bench", tmp_path / "outs", tmp_path / "results"
    assert main(["generate", "compositional", "--steps", "2", "--out", str(bench), "--per-cell",
                 "1", "--conditions", "baseline", "--engine", "inprocess", "--quiet"]) == 0
    folder = bench / "Compositional" / "conversational_steps2"
    meta = json.loads((folder / "000.json").read_text())
    assert meta["task"] == "conversational" and meta["mode"] == "steps2"
    assert meta["namespace"] == "compositional" and len(meta["turns"]) == 2
    assert main(["baseline", "oracle", "--benchmarks", str(bench), "--outputs", str(outs)]) == 0
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(results), "--quiet", "-j", "1"]) == 0
    rows = [json.loads(line) for line in (results / "problem_stats.jsonl").read_text().splitlines()]
    assert sorted(r["task"] for r in rows) == ["conversational_steps2", "multi_edit_steps2"]
    assert all(r["output"]["cie76_threshold"]["0"]["iou"] == 1.0 for r in rows)


def test_past_the_suite_needs_another_namespace(tmp_path, capsys):
    args = ["generate", "compositional", "--out", str(tmp_path), "--per-cell", "13",
            "--namespace", "compositional", "--conditions", "baseline", "--engine", "inprocess"]
    assert main(args) != 0
    assert "reaches past the compositional suite's 12 per cell" in capsys.readouterr().err
    assert main(["generate", "paintbench", "--out", str(tmp_path / "x"), "--steps", "2"]) != 0
    assert "--steps applies to the compositional suite only" in capsys.readouterr().err
