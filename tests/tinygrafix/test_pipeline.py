"""TinyGrafixBench in the pipeline: generate (formats, engines, namespaces), show, stream,
eval, and ``generate all`` (issue 12, item 5)."""

from __future__ import annotations

import json
import shutil

import pytest

from paintkit.cli.main import main
from paintkit.tinygrafix.suite import TinyGrafixSuite

TASKS = "bar_chart_remove_bar,network_recolor_node"


def _generate(out, *extra):
    return main(["generate", "tinygrafixbench", "--out", str(out), "--tasks", TASKS,
                 "--per-cell", "2", "--quiet", *extra])


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    out = tmp_path_factory.mktemp("tgb")
    assert _generate(out, "--engine", "inprocess") == 0
    return out


def test_spec5_layout_and_metadata(tree):
    root = tree / "TinyGrafixBench"
    assert sorted(p.name for p in root.iterdir()) == sorted(TASKS.split(","))
    meta = json.loads((root / "network_recolor_node" / "001.json").read_text())
    assert meta["task"] == "network_recolor_node" and meta["category"] == "network"
    assert meta["mode"] == "default" and meta["slot"] == 1 and (meta["W"], meta["H"]) == (1024, 768)
    for key in ("instruction", "visual_condition", "problem_id", "seed", "bg_colors"):
        assert key in meta
    assert sorted(p.name for p in (root / "bar_chart_remove_bar").iterdir()) == \
        ["000.json", "000_answer.png", "000_input.png", "001.json", "001_answer.png", "001_input.png"]


def test_process_engine_writes_the_same_bytes(tree, tmp_path):
    assert _generate(tmp_path, "--engine", "process", "--jobs", "2") == 0
    files = lambda root: json.loads((root / "manifest.json").read_text())["files"]  # noqa: E731
    assert files(tmp_path) == files(tree)


def test_shard_formats_and_namespace(tmp_path):
    for fmt in ("webdataset", "parquet"):
        assert main(["generate", "tinygrafixbench", "--out", str(tmp_path / fmt), "--tasks",
                     "heatmap_add_cell", "--per-cell", "1", "--format", fmt, "--engine", "inprocess",
                     "--quiet"]) == 0
        assert list((tmp_path / fmt).glob("shard-*"))
    a = next(TinyGrafixSuite(tasks=["heatmap_add_cell"], per_cell=1).problems())
    b = next(TinyGrafixSuite(tasks=["heatmap_add_cell"], per_cell=1, namespace="train").problems())
    assert a.metadata["seed"] != b.metadata["seed"] and b.metadata["problem_id"].startswith("train-")


def test_paintbench_only_options_are_refused(tmp_path, capsys):
    assert main(["generate", "tinygrafixbench", "--out", str(tmp_path), "--conditions", "baseline"]) == 2
    assert "--conditions applies to PaintBench only" in capsys.readouterr().err


def test_eval_scores_the_answers_as_perfect(tree, tmp_path):
    outputs = tmp_path / "outputs"
    # model "oracle" outputs the answers, model "noop" the inputs (doing nothing)
    for model, suffix in (("oracle", "_answer.png"), ("noop", "_input.png")):
        for image in (tree / "TinyGrafixBench").glob(f"*/*{suffix}"):
            target = outputs / model / "TinyGrafixBench" / image.parent.name / \
                f"{int(image.name[:3]):04d}_output.png"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(image, target)
    assert main(["eval", "--benchmarks", str(tree), "--outputs", str(outputs), "--results",
                 str(tmp_path / "res"), "--jobs", "1", "--quiet"]) == 0
    rows = [json.loads(line) for line in (tmp_path / "res" / "problem_stats.jsonl").read_text().splitlines()]
    assert len(rows) == 8 and {r["benchmark"] for r in rows} == {"TinyGrafixBench"}
    for row in rows:
        iou = row["output"]["cie76_threshold"]["0"]["iou"]
        assert iou == 1.0 if row["model"] == "oracle" else iou <= 0.05


def test_show_writes_a_chart_problem(tmp_path):
    assert main(["show", "line_chart_shade_interval", "--out", str(tmp_path)]) == 0
    meta = json.loads((tmp_path / "problem.json").read_text())
    assert meta["category"] == "line_chart" and (tmp_path / "answer.png").exists()


def test_problem_stream_over_the_suite():
    from paintkit.data import ProblemStream

    suite = TinyGrafixSuite(tasks=["bar_chart_sort_bars"], per_cell=1)
    stream = ProblemStream(suite, infinite=True)
    items = [stream.problem(i) for i in range(2)]
    assert items[0]["input"].shape == (768, 1024, 3)
    assert [it["metadata"]["slot"] for it in items] == [0, 1]  # round 1 = fresh slots


def test_generate_all_writes_both_benchmarks(tmp_path):
    assert main(["generate", "all", "--out", str(tmp_path), "--tasks", "translation,heatmap_add_cell",
                 "--conditions", "baseline", "--per-cell", "1", "--engine", "inprocess",
                 "--quiet"]) == 0
    assert (tmp_path / "PaintBench" / "translation" / "000_input.png").exists()
    assert (tmp_path / "TinyGrafixBench" / "heatmap_add_cell" / "000.json").exists()
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert [p["benchmark"] for p in manifest["suite"]["parts"]] == ["PaintBench", "TinyGrafixBench"]
    assert manifest["complete"] is True
    assert sorted(manifest["files"]) and not any(path.startswith(".") for path in manifest["files"])


def test_generate_all_overwrite_replaces_both_benchmarks_and_keeps_foreign_files(tmp_path):
    args = ["generate", "all", "--out", str(tmp_path), "--tasks", "translation,heatmap_add_cell",
            "--conditions", "baseline", "--per-cell", "1", "--engine", "inprocess", "--quiet"]
    assert main(args) == 0
    foreign = [tmp_path / "PaintBench" / "translation" / "stale.txt",
               tmp_path / "TinyGrafixBench" / "heatmap_add_cell" / "stale.txt"]
    for path in foreign:
        path.write_text("not written by paintkit")
    other = [a if a != "1" else "2" for a in args]  # another suite: --overwrite replaces the old one
    assert main([*other, "--overwrite"]) == 0
    # --overwrite removes what the previous manifest lists, never a file paintkit did not write
    assert all(path.read_text() == "not written by paintkit" for path in foreign)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["complete"] is True and all(
        p["per_cell"] == 2 for p in manifest["suite"]["parts"] if "per_cell" in p)
    assert (tmp_path / "TinyGrafixBench" / "heatmap_add_cell" / "000.json").exists()
