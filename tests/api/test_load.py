"""``paintkit.load``: a benchmark tree, a shard set or an outputs tree as a sequence of
problems with lazy images (issue 37, item 13)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import paintkit
from paintkit.cli.main import main
from paintkit.io.images import load_rgb

COMMON = ["--tasks", "translation", "--conditions", "baseline", "--per-cell", "2",
          "--no-preservation", "--namespace", "t37l", "--engine", "inprocess", "--quiet"]


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    root = tmp_path_factory.mktemp("load")
    assert main(["generate", "paintbench", "--out", str(root / "bench"), *COMMON]) == 0
    assert main(["baseline", "identity", "--benchmarks", str(root / "bench"), "--outputs",
                 str(root / "outs"), "--quiet"]) == 0
    (root / "outs" / "identity" / "PaintBench" / "translation" / "0001_output.png").unlink()
    return root


def test_a_benchmark_tree(trees):
    bench = paintkit.load(trees / "bench")
    assert bench.kind == "benchmark" and len(bench) == 2
    first = bench[0]
    folder = trees / "bench" / "PaintBench" / "translation"
    assert (first.key, first.benchmark, first.task, first.idx) == (
        "PaintBench/translation/000", "PaintBench", "translation", 0)
    np.testing.assert_array_equal(first.input, load_rgb(folder / "000_input.png"))
    np.testing.assert_array_equal(first.answer, load_rgb(folder / "000_answer.png"))
    assert first.metadata == json.loads((folder / "000.json").read_text())
    assert first.instruction == first.metadata["instruction"]
    assert [p.key for p in bench[1:]] == ["PaintBench/translation/001"]


@pytest.mark.parametrize("fmt", ["webdataset", "parquet"])
def test_a_shard_set_holds_the_same_problems(trees, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    out = trees / f"shards-{fmt}"
    assert main(["generate", "paintbench", "--out", str(out), "--format", fmt,
                 "--shard-size", "1", *COMMON]) == 0
    shards, bench = paintkit.load(out), paintkit.load(trees / "bench")
    assert shards.kind == "shards" and len(shards) == 2
    by_id = {p.metadata["problem_id"]: p for p in bench}
    for item in shards:
        same = by_id[item.key]
        assert (item.task, item.idx) == (same.task, same.idx)
        np.testing.assert_array_equal(item.input, same.input)
        np.testing.assert_array_equal(item.answer, same.answer)
        assert item.metadata == same.metadata


def test_an_outputs_tree_with_and_without_its_benchmark(trees):
    alone = paintkit.load(trees / "outs")
    assert alone.kind == "outputs" and [p.key for p in alone] == [
        "identity/PaintBench/translation/0000"]
    assert alone[0].input is None and alone[0].output.shape == paintkit.load(
        trees / "bench")[0].input.shape
    paired = paintkit.load(trees / "outs", benchmarks=trees / "bench")
    assert [(p.model, p.idx) for p in paired] == [("identity", 0), ("identity", 1)]
    np.testing.assert_array_equal(paired[0].output, paired[0].input)  # the identity baseline
    assert paired[1].output is None and paired[1].answer is not None


def test_what_is_not_a_tree_is_one_line(tmp_path):
    with pytest.raises(ValueError, match="not a folder"):
        paintkit.load(tmp_path / "nope")
    with pytest.raises(ValueError, match="paintkit.load opens a benchmark tree"):
        paintkit.load(tmp_path)
