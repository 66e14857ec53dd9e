"""One small pipeline run shared by the report tests: generate -> baseline -> eval -> stats."""

from __future__ import annotations

import pytest

from paintkit.cli.main import main

BASELINES = ("oracle", "identity", "blank", "noise")


@pytest.fixture(scope="session")
def pipeline(tmp_path_factory):
    """Paths of a tiny PaintBench (removal + recolor, 2 conditions, plus the preservation
    split), the four baselines' outputs, their problem_stats.jsonl and aggregate_stats.jsonl."""
    root = tmp_path_factory.mktemp("pipeline")
    bench, outputs, results = root / "bench", root / "outputs", root / "results"
    assert main(["generate", "paintbench", "--out", str(bench), "--tasks", "removal,recolor",
                 "--conditions", "baseline,striped", "--per-cell", "2", "--size", "128x128",
                 "--jobs", "1", "--quiet"]) == 0
    for name in BASELINES:
        assert main(["baseline", name, "--benchmarks", str(bench), "--outputs", str(outputs)]) == 0
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                 str(results), "--jobs", "1", "--quiet"]) == 0
    assert main(["stats", "--results", str(results), "--aggregate",
                 str(results / "aggregate_stats.jsonl"), "--n-boot", "500"]) == 0
    return {"bench": bench, "outputs": outputs, "results": results}
