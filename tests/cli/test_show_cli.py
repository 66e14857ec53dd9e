"""``paintkit show``: ``--slot`` is a benchmark slot, ``--seed`` a generator seed, and the
printed call reproduces the problem."""

import json

import numpy as np
import pytest
from PIL import Image

from paintkit.cli.main import main
from paintkit.cli.show import benchmark_index
from paintkit.sources import generate
from paintkit.tasks import task_module


def _pixels(path):
    return np.asarray(Image.open(path).convert("RGB"))


def test_slot_prints_id_seed_and_the_reproducing_call(tmp_path, capsys):
    assert main(["show", "translation", "--mode", "amount", "--slot", "1",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    meta = json.loads((tmp_path / "problem.json").read_text())
    assert meta["slot"] == 1 and meta["namespace"] == "paintbench"
    assert "problem paintbench-translation-baseline-amount-000001" in out
    assert f"seed {meta['seed']}" in out
    by_slot = "paintkit.generate('translation', seed=1, condition='baseline', mode='amount')"
    by_seed = f"paintkit.tasks.task_module('translation').generate({meta['seed']}, 'baseline', 'amount')"
    assert by_slot in out and by_seed in out
    for again in (generate("translation", seed=1, condition="baseline", mode="amount"),
                  task_module("translation").generate(meta["seed"], "baseline", "amount")):
        assert np.array_equal(again.input, _pixels(tmp_path / "input.png"))
    assert "PaintBench/translation/002_input.png" in out  # 2 modes: slot 1 of amount is 002


def test_seed_is_a_generator_seed(tmp_path, capsys):
    seed = generate("border", 0).metadata["seed"]
    assert main(["show", "border", "--seed", str(seed), "--out", str(tmp_path)]) == 0
    meta = json.loads((tmp_path / "problem.json").read_text())
    assert meta["seed"] == seed and "slot" not in meta
    assert f"generator seed {seed}" in capsys.readouterr().out


def test_slot_and_seed_are_exclusive_and_bad_seeds_explain(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["show", "border", "--slot", "1", "--seed", "1", "--out", str(tmp_path)])
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:  # refused when parsed, before anything runs
        main(["show", "border", "--seed", "-1", "--out", str(tmp_path)])
    assert stop.value.code == 2 and "--seed: expected an integer from 0" in capsys.readouterr().err


def test_benchmark_index_follows_the_suite_order():
    from paintkit.suites import Suite

    suite = Suite(tasks=("point_operations",), preservation=False)
    for i in range(len(suite)):
        spec = suite.spec(i)
        assert benchmark_index(spec.task, spec.condition, spec.mode, spec.slot) == spec.idx
    assert benchmark_index("point_operations", "baseline", "invert", 4) is None


def test_tasks_describes_one_task_with_its_distributions(capsys):
    assert main(["tasks", "counting"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("counting (symbolic_reasoning); modes: shape, color")
    assert "uniformly over the whole feasible range" in out and "target:" in out
    assert main(["tasks", "nope"]) == 2
    assert "unknown task 'nope'" in capsys.readouterr().err
