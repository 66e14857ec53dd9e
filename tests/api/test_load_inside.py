"""``paintkit.load`` is how paintkit opens trees itself: ``eval`` (and ``--turns``), ``run``
and the rewards' ``ProblemIndex`` list their problems through it, so they read exactly what a
user's ``paintkit.load`` reads (issue 37, item 13)."""

from __future__ import annotations

import numpy as np
import pytest

import paintkit
import paintkit.loader
from paintkit.cli.main import main
from paintkit.layout.errors import LayoutError

COMMON = ["--tasks", "translation,recolor", "--conditions", "baseline", "--per-cell", "2",
          "--no-preservation", "--namespace", "t37i", "--engine", "inprocess", "--quiet"]


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    root = tmp_path_factory.mktemp("inside")
    assert main(["generate", "paintbench", "--out", str(root / "bench"), *COMMON]) == 0
    assert main(["generate", "paintbench", "--out", str(root / "shards"), "--format",
                 "webdataset", "--shard-size", "2", *COMMON]) == 0
    for name in ("oracle", "identity"):
        assert main(["baseline", name, "--benchmarks", str(root / "bench"), "--outputs",
                     str(root / "outs"), "--quiet"]) == 0
    return root


@pytest.fixture
def opened(monkeypatch):
    """Every tree the loader lists, as (kind, folder name)."""
    seen = []
    listing = paintkit.loader.discover_problems
    models = paintkit.loader.discover_models

    def problems(root, *args, **kwargs):
        seen.append(("benchmark", root.name))
        return listing(root, *args, **kwargs)

    def model_folders(root, *args, **kwargs):
        seen.append(("outputs", root.name))
        return models(root, *args, **kwargs)

    monkeypatch.setattr(paintkit.loader, "discover_problems", problems)
    monkeypatch.setattr(paintkit.loader, "discover_models", model_folders)
    return seen


def test_eval_scores_what_load_lists(trees, tmp_path, opened):
    from paintkit.eval import evaluate, read_rows

    summary = evaluate(trees / "bench", trees / "outs", tmp_path, progress=False)
    assert opened == [("benchmark", "bench"), ("outputs", "outs")]
    bench = paintkit.load(trees / "bench")
    outs = paintkit.load(trees / "outs", benchmarks=bench)
    rows = {(r["model"], r["task"], r["idx"]): r for r in read_rows(summary.results_path)}
    assert sorted(rows) == sorted((p.model, p.task, p.idx) for p in outs)
    for item in outs:
        row = rows[item.model, item.task, item.idx]
        assert row["mode"] == item.metadata["mode"]
        assert row["output"]["output_size"] == list(item.input.shape[1::-1])


def test_run_and_turns_open_the_benchmark_through_load(trees, tmp_path, opened):
    from paintkit.eval.turns import score_turns
    from paintkit.run.runner import select_problems

    chosen = select_problems(trees / "bench", tasks=["recolor"], limit=1)
    assert opened == [("benchmark", "bench")]
    assert [(p.task, p.idx) for p in chosen] == [("recolor", 0)]
    assert chosen[0] == paintkit.load(trees / "bench", tasks=["recolor"])[0].problem
    opened.clear()
    score_turns(trees / "bench", trees / "outs", tmp_path)
    assert opened == [("benchmark", "bench"), ("outputs", "outs")]


def test_the_reward_index_reads_a_tree_and_its_shards_alike(trees, opened):
    from paintkit.io.images import load_rgb
    from paintkit.rewards import ProblemIndex

    tree, shards = ProblemIndex(trees / "bench"), ProblemIndex(trees / "shards")
    for item in paintkit.load(trees / "bench"):
        pid = item.metadata["problem_id"]
        inp, answer = tree.paths(pid)
        assert (inp, answer) == (str(item.problem.input_path), str(item.problem.answer_path))
        inp_s, answer_s = shards.paths(pid)
        np.testing.assert_array_equal(inp_s, load_rgb(inp))
        np.testing.assert_array_equal(answer_s, load_rgb(answer))
    assert ("benchmark", "bench") in opened
    with pytest.raises(ValueError, match="not found under"):
        shards.paths("no-such-problem")
    with pytest.raises(ValueError, match="model-outputs tree"):
        ProblemIndex(trees / "outs").paths("x")


def test_a_named_kind_is_not_guessed(trees):
    with pytest.raises(LayoutError, match="no model folder named nobody"):
        paintkit.load(trees / "outs", kind="outputs", models=["nobody"])
    with pytest.raises(LayoutError):  # an outputs tree is no benchmark tree
        paintkit.load(trees / "outs", kind="benchmark")
    with pytest.raises(ValueError, match="no shard"):
        paintkit.load(trees / "bench", kind="shards")
    with pytest.raises(ValueError, match="kind: expected one of benchmark, shards, outputs"):
        paintkit.load(trees / "bench", kind="tree")
    outs = paintkit.load(trees / "outs", kind="outputs")
    assert outs.models == ["identity", "oracle"] and len(outs) == 8


def test_a_trl_reward_scores_alike_from_the_tree_and_from_its_shards(trees):
    torch = pytest.importorskip("torch")
    from paintkit.rewards import trl_pixel_miou

    bench = paintkit.load(trees / "bench")
    answers = {item.metadata["problem_id"]: item.answer for item in bench}
    rows = [{"prompt": "p", "problem_id": pid} for pid in answers for _ in range(2)]
    texts = ["answer", "input"] * len(answers)

    def render(text, input_image, row):
        return answers[row["problem_id"]] if text == "answer" else input_image

    def call(root):
        fn = trl_pixel_miou(render, root=root)
        out = fn(prompts=["p"] * len(rows), completions=texts, completion_ids=[[1]] * len(rows),
                 problem_id=[r["problem_id"] for r in rows], trainer_state=object())
        return torch.tensor(out, dtype=torch.float32)

    from_tree, from_shards = call(trees / "bench"), call(trees / "shards")
    assert from_tree.tolist() == [1.0, 0.0] * len(answers)
    torch.testing.assert_close(from_shards, from_tree, rtol=0, atol=0)
