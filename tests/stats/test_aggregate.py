"""`paintkit stats`: the SPEC 2 hierarchy against a plain reference, CIs, determinism."""

from __future__ import annotations

import json

import numpy as np
import pytest
from reference import loop_bootstrap_benchmark, reference_levels

from paintkit.cli.main import main
from paintkit.stats.aggregate import aggregate_tables
from paintkit.stats.table import BLOCKS, StatsInputError, build_tables, load_tables
from tests.support.rows_factory import paintbench_rows, tinygrafix_rows


def _key(row):
    level = row["level"]
    if level == "benchmark":
        return ("benchmark",)
    if level == "mode":
        return ("mode", row["task"], row["mode"])
    return (level, row[level])


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def pb_rows():
    return paintbench_rows(models=("m1", "m2"), per_cell=4)


@pytest.mark.parametrize("block,fig", [("mean", "iou"), ("0", "edit_accuracy"),
                                       ("7", "preservation_accuracy"), ("10", "changed_pixels")])
def test_means_match_reference(pb_rows, block, fig):
    rows = aggregate_tables(build_tables(pb_rows), ci=False)
    name = "cie76_mean" if block == "mean" else f"cie76_{block}"
    for model in ("m1", "m2"):
        ref = reference_levels(pb_rows, model, "PaintBench", block, fig)
        got = {_key(r): r[name][f"mean_{fig}"] for r in rows if r["model"] == model}
        assert set(got) == set(ref)
        for key, value in ref.items():
            assert got[key] == pytest.approx(value, abs=1e-12), key


def test_row_schema_and_levels(pb_rows):
    rows = aggregate_tables(build_tables(pb_rows), n_boot=200)
    levels = {r["level"] for r in rows}
    assert levels == {"benchmark", "category", "task", "mode", "visual_condition"}
    modes = {(r["task"], r["mode"]) for r in rows if r["level"] == "mode"}
    assert {t for t, _ in modes} == {"translation", "rotation"}  # multi-mode tasks only
    bench = next(r for r in rows if r["level"] == "benchmark" and r["model"] == "m1")
    assert bench["n_tasks"] == 6 and bench["n_problems"] == 6 * 3 * 4  # preservation excluded
    for block in BLOCKS:
        keys = set(bench[block])
        for fig in ("edit_accuracy", "preservation_accuracy", "iou"):
            assert {f"ci95_{fig}_low", f"ci95_{fig}_high", f"mean_{fig}", f"std_{fig}"} <= keys
        assert {"mean_changed_pixels", "std_changed_pixels"} <= keys
        assert "ci95_changed_pixels_low" not in keys
    pres = [r for r in rows if r.get("task") == "preservation"]
    assert [r["level"] for r in pres] == ["task", "task"]  # a task row per model, nothing else


def test_missing_outputs_count_as_zero():
    rows = paintbench_rows(models=("m",), per_cell=2, missing_rate=0.0, with_preservation=False)
    for r in rows[:5]:
        r["has_output"] = False
        r["output"] = None  # another tool may write no output block at all
    agg = aggregate_tables(build_tables(rows), ci=False)
    ref = reference_levels(rows, "m", "PaintBench")
    bench = next(r for r in agg if r["level"] == "benchmark")
    assert bench["n_problems"] == len(rows) and bench["n_with_output"] == len(rows) - 5
    assert bench["cie76_mean"]["mean_iou"] == pytest.approx(ref[("benchmark",)], abs=1e-12)


def test_std_is_population_and_zero_for_one_problem():
    rows = paintbench_rows(models=("m",), per_cell=1, missing_rate=0.0, with_preservation=False)
    rows = [r for r in rows if r["task"] == "removal"]
    agg = aggregate_tables(build_tables(rows), ci=False)
    task = next(r for r in agg if r["level"] == "task")
    values = [r["output"]["cie76_mean"]["iou"] for r in rows]
    assert task["cie76_mean"]["std_iou"] == pytest.approx(float(np.std(values)), abs=1e-12)
    single = aggregate_tables(build_tables(rows[:1]), ci=False)
    assert next(r for r in single if r["level"] == "task")["cie76_mean"]["std_iou"] == 0.0


def test_tinygrafix_rolls_up_by_chart_without_conditions():
    rows = tinygrafix_rows()
    agg = aggregate_tables(build_tables(rows), ci=False)
    assert not [r for r in agg if r["level"] == "visual_condition"]
    cats = {r["category"] for r in agg if r["level"] == "category"}
    assert cats == {"bar_chart", "heatmap", "line_chart"}
    ref = reference_levels(rows, "m1", "TinyGrafixBench")
    bench = next(r for r in agg if r["level"] == "benchmark")
    assert bench["cie76_mean"]["mean_iou"] == pytest.approx(ref[("benchmark",)], abs=1e-12)


def test_tinygrafix_task_rows_use_the_authors_names():
    # the authors' aggregate rows name a task by its edit under its chart category
    # ("add_bar", category "bar_chart"); the folder name stays as "chart_task"
    rows = tinygrafix_rows()
    agg = aggregate_tables(build_tables(rows), ci=False)
    task_rows = [r for r in agg if r["level"] == "task"]
    folders = {r["task"] for r in rows}
    assert {r["chart_task"] for r in task_rows} == folders
    for r in task_rows:
        assert r["chart_task"] == f'{r["category"]}_{r["task"]}'
        assert not r["task"].startswith(r["category"])
    ref = reference_levels(rows, "m1", "TinyGrafixBench")
    for r in task_rows:
        assert r["cie76_mean"]["mean_iou"] == pytest.approx(ref[("task", r["chart_task"])], abs=1e-12)
    pb = aggregate_tables(build_tables(paintbench_rows(models=("m",), per_cell=2)), ci=False)
    assert all("chart_task" not in r for r in pb)  # PaintBench rows keep their names


def test_ci_brackets_mean_and_matches_independent_bootstrap():
    rows = paintbench_rows(models=("m",), per_cell=8, missing_rate=0.1)
    agg = aggregate_tables(build_tables(rows), n_boot=4000)
    for r in agg:
        block = r["cie76_mean"]
        assert block["ci95_iou_low"] <= block["mean_iou"] + 1e-12 <= block["ci95_iou_high"] + 2e-12
    bench = next(r for r in agg if r["level"] == "benchmark")["cie76_mean"]
    low, high = loop_bootstrap_benchmark(rows, "m", "PaintBench", n_boot=1500)
    assert bench["ci95_iou_low"] == pytest.approx(low, abs=0.01)
    assert bench["ci95_iou_high"] == pytest.approx(high, abs=0.01)
    assert high - low > 0.01  # the comparison is not vacuous


def test_bootstrap_is_seeded_and_independent_of_other_models(pb_rows):
    both = aggregate_tables(build_tables(pb_rows), n_boot=300)
    alone = aggregate_tables(build_tables([r for r in pb_rows if r["model"] == "m2"]), n_boot=300)
    assert [r for r in both if r["model"] == "m2"] == alone
    other_seed = aggregate_tables(build_tables(pb_rows), n_boot=300, seed=1)
    assert other_seed != both


def test_cli_byte_identical_for_any_jobs(tmp_path, pb_rows):
    src = _write(tmp_path / "problem_stats.jsonl", pb_rows + tinygrafix_rows())
    outs = []
    for jobs in (1, 3):
        out = tmp_path / f"agg_{jobs}.jsonl"
        assert main(["stats", "--results", str(tmp_path), "--aggregate", str(out), "--n-boot", "500",
                     "--jobs", str(jobs)]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert main(["stats", "--results", str(src), "--aggregate", str(tmp_path / "noci.jsonl"),
                 "--no-ci"]) == 0
    first = json.loads((tmp_path / "noci.jsonl").read_text().splitlines()[0])
    assert "ci95_iou_low" not in first["cie76_mean"]


def test_bad_input_is_a_clear_error(tmp_path, capsys):
    with pytest.raises(StatsInputError, match="no such file"):
        load_tables(tmp_path / "nope.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"model": "m", "benchmark": "PaintBench", "task": "x"}\n')
    with pytest.raises(StatsInputError, match=r"bad.jsonl:1: missing idx"):
        load_tables(bad)
    assert main(["stats", "--results", str(bad), "--aggregate", str(tmp_path / "o.jsonl")]) == 2
    assert "missing idx" in capsys.readouterr().err
    assert not (tmp_path / "o.jsonl").exists()


def test_percentiles_skip_nan_resamples_like_numpy():
    from paintkit.stats.bootstrap import percentile_interval

    rng = np.random.default_rng(3)
    boot = rng.random((5, 401))
    boot[1, ::7] = np.nan
    boot[3, :] = np.nan
    low, high = percentile_interval(boot.copy())  # the argument is scratch space
    for k in (0, 1, 2, 4):
        row = boot[k][~np.isnan(boot[k])]
        assert low[k] == pytest.approx(np.percentile(row, 2.5), abs=1e-12)
        assert high[k] == pytest.approx(np.percentile(row, 97.5), abs=1e-12)
    assert np.isnan(low[3]) and np.isnan(high[3])


def test_large_tasks_are_drawn_the_same_without_the_cache(monkeypatch):
    from paintkit.stats import bootstrap

    cached = bootstrap.task_counts(0, "PaintBench", "t", 50, 300)
    monkeypatch.setattr(bootstrap, "_CACHE_MAX_ENTRIES", 10)
    assert np.array_equal(bootstrap.task_counts(0, "PaintBench", "t", 50, 300), cached)
    assert cached.shape == (50, 300) and (cached.sum(axis=0) == 50).all()
