"""One results file per run (``results.json``, as lm-evaluation-harness writes), ``stats
--format json`` and ``tasks --json`` for scripts (issue 37, item 11)."""

from __future__ import annotations

import hashlib
import json

import pytest

from paintkit._version import __version__
from paintkit.cli.main import main
from paintkit.metrics.version import METRIC_VERSION


def _sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    root = tmp_path_factory.mktemp("r")
    bench, outs, res = root / "bench", root / "outs", root / "res"
    assert main(["generate", "paintbench", "--out", str(bench), "--tasks", "translation,recolor",
                 "--conditions", "baseline", "--per-cell", "2", "--no-preservation",
                 "--namespace", "t37r", "--engine", "inprocess", "--quiet"]) == 0
    for name in ("oracle", "identity"):
        assert main(["baseline", name, "--benchmarks", str(bench), "--outputs", str(outs),
                     "--quiet"]) == 0
    (outs / "identity" / "PaintBench" / "recolor" / "0001_output.png").unlink()
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(res), "--quiet", "-j", "1"]) == 0
    return bench, outs, res


def test_eval_writes_results_json(scored):
    bench, outs, res = scored
    doc = json.loads((res / "results.json").read_text())
    assert doc["paintkit_version"] == __version__ and doc["metric_version"] == METRIC_VERSION
    # eval scores and summarises; the bootstrap CIs are the stats stage's
    assert doc["config"]["n_boot"] is None and doc["config"]["delta_e"] == "cie76"
    assert doc["config"]["command"].startswith("paintkit eval --benchmarks ")
    assert doc["benchmarks"]["PaintBench"] == {"manifest_sha256": _sha(bench / "manifest.json"),
                                               "problems": 4}
    oracle, identity = doc["models"]["oracle"]["PaintBench"], doc["models"]["identity"]["PaintBench"]
    assert oracle["score"] == 1.0 and oracle["ci95"] == [None, None]
    assert set(oracle["categories"]) == {"geometric_transformation", "color_change"}
    assert oracle["coverage"] == {"problems": 4, "outputs": 4, "expected": 4}
    assert identity["coverage"] == {"problems": 4, "outputs": 3, "expected": 4}
    assert identity["score"] < 1.0 and identity["ci95"] == [None, None]
    hashes = oracle["outputs_sha256"]
    assert len(hashes) == 4 and hashes["recolor/0001"] == _sha(
        outs / "oracle" / "PaintBench" / "recolor" / "0001_output.png")
    assert "recolor/0001" not in identity["outputs_sha256"]
    assert doc["timings"]["eval_seconds"] >= 0


def test_stats_json_for_scripts(scored, capsys):
    _, _, res = scored
    capsys.readouterr()
    assert main(["stats", "--results", str(res), "--format", "json", "--n-boot", "100"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["model"] for r in rows] == ["oracle", "identity"]


def test_tasks_json(capsys):
    assert main(["tasks", "--json"]) == 0
    tasks = json.loads(capsys.readouterr().out)
    assert len(tasks) == 20 and {"name", "category", "modes"} == set(tasks[0])
    assert main(["tasks", "recolor", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["name"] == "recolor" and one["rules"] and one["parameters"]
