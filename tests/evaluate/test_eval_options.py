"""``paintkit eval --delta-e / --extra-metrics / --save-images`` segments: row fields, one
formula per results folder, segment JSON beside the diff images."""

from __future__ import annotations

import json

import numpy as np
import pytest
from skimage.metrics import peak_signal_noise_ratio

from paintkit.cli.main import main
from paintkit.eval import LayoutError, evaluate, read_rows
from paintkit.eval.synthetic import write_synthetic_tree
from paintkit.io.images import load_rgb
from paintkit.metrics import score

SPEC5_OUTPUT = {"output_size", "edit_pixels", "preservation_pixels"}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("eval_options")
    return write_synthetic_tree(root, problems=6, tasks=2, width=24, height=20,
                                models=("exact", "noisy"), missing_every=5, corrupt_every=0,
                                resized_every=0)


def _eval(tree, out, *extra):
    bench, outputs = tree
    return main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                 str(out), "--jobs", "1", "--quiet", *extra])


@pytest.mark.parametrize("formula", ["cie76", "ciede2000"])
def test_delta_e_is_recorded_and_names_the_blocks(tree, tmp_path, formula):
    assert _eval(tree, tmp_path, "--delta-e", formula) == 0
    rows = read_rows(tmp_path / "problem_stats.jsonl")
    assert rows and all(r["delta_e"] == formula for r in rows)
    bench, outputs = tree
    for row in rows:
        if not row["has_output"]:
            continue
        assert SPEC5_OUTPUT | {f"{formula}_threshold", f"{formula}_mean"} == set(row["output"])
        folder = bench / row["benchmark"] / row["task"]
        expected = score([outputs / row["model"] / row["benchmark"] / row["task"]
                          / f"{row['idx']:04d}_output.png"],
                         [folder / f"{row['idx']:03d}_answer.png"],
                         [folder / f"{row['idx']:03d}_input.png"], delta_e=formula)[0]
        assert row["output"] == expected.to_schema()


def test_a_results_folder_holds_one_formula(tree, tmp_path):
    bench, outputs = tree
    evaluate(bench, outputs, tmp_path, jobs=1, progress=False)
    with pytest.raises(LayoutError, match="delta_e cie76; this run uses cie94"):
        evaluate(bench, outputs, tmp_path, jobs=1, progress=False, delta_e="cie94")
    summary = evaluate(bench, outputs, tmp_path, jobs=1, progress=False, delta_e="cie94",
                       overwrite=True)
    assert {r["delta_e"] for r in read_rows(summary.results_path)} == {"cie94"}
    assert summary.scored == len(read_rows(summary.results_path))


def test_a_results_folder_holds_one_metric_version(tree, tmp_path):
    """Rows scored by an older metric (no ``metric_version``: version 1) are never mixed
    with this version's: eval refuses, and --overwrite rescores them all."""
    from paintkit.metrics.version import METRIC_VERSION

    bench, outputs = tree
    summary = evaluate(bench, outputs, tmp_path, jobs=1, progress=False)
    rows = read_rows(summary.results_path)
    assert {r["metric_version"] for r in rows} == {METRIC_VERSION}
    old = [{k: v for k, v in r.items() if k != "metric_version"} for r in rows[:3]]
    summary.results_path.write_text("".join(json.dumps(r) + "\n" for r in old))
    with pytest.raises(LayoutError, match=f"metric version 1; this paintkit scores with "
                                          f"version {METRIC_VERSION}"):
        evaluate(bench, outputs, tmp_path, jobs=1, progress=False)
    summary = evaluate(bench, outputs, tmp_path, jobs=1, progress=False, overwrite=True)
    rows = read_rows(summary.results_path)
    assert len(rows) == summary.scored and {r["metric_version"] for r in rows} == {METRIC_VERSION}


def test_extra_metrics_in_each_row(tree, tmp_path):
    assert _eval(tree, tmp_path, "--extra-metrics", "ssim,psnr") == 0
    bench, outputs = tree
    rows = read_rows(tmp_path / "problem_stats.jsonl")
    for row in rows:
        figures = row["extra_metrics"]
        assert set(figures) == {"ssim", "psnr"}
        if not row["has_output"]:
            assert figures == {"ssim": None, "psnr": None}
            continue
        answer = load_rgb(bench / row["benchmark"] / row["task"] / f"{row['idx']:03d}_answer.png")
        output = load_rgb(outputs / row["model"] / row["benchmark"] / row["task"]
                          / f"{row['idx']:04d}_output.png")
        if np.array_equal(answer, output):
            assert figures["psnr"] is None and figures["ssim"] == pytest.approx(1.0)
        else:
            assert figures["psnr"] == pytest.approx(
                peak_signal_noise_ratio(answer, output, data_range=255), rel=1e-9)
            assert -1.0 <= figures["ssim"] < 1.0
    assert any(r["has_output"] and r["model"] == "exact" for r in rows)
    assert "extra_metrics" not in read_rows(_rerun_plain(tree, tmp_path))[0]


def _rerun_plain(tree, tmp_path):
    out = tmp_path / "plain"
    assert _eval(tree, out) == 0
    return out / "problem_stats.jsonl"


def test_unknown_extra_metric_is_refused(tree, tmp_path, capsys):
    with pytest.raises(SystemExit):
        _eval(tree, tmp_path, "--extra-metrics", "ssim,lpips")
    assert "unknown lpips" in capsys.readouterr().err


def test_save_images_writes_segments_beside_the_diffs(tree, tmp_path):
    assert _eval(tree, tmp_path, "--save-images", "--model", "noisy") == 0
    rows = [r for r in read_rows(tmp_path / "problem_stats.jsonl") if r["has_output"]]
    assert rows
    for row in rows:
        folder = tmp_path / "diffs" / "noisy" / row["benchmark"] / row["task"]
        path = folder / f"{row['idx']:04d}_segments.json"
        body = json.loads(path.read_text())
        assert body["delta_e"] == "cie76" and set(body["segments"]) == {"0", "2", "5", "10"}
        # The t = 0 segments cover exactly the wrong pixels of the t = 0 diff image's row.
        t0 = row["output"]["cie76_threshold"]["0"]
        wrong = (row["output"]["edit_pixels"] - t0["edit_correct_pixels"]
                 + row["output"]["preservation_pixels"] - t0["preservation_correct_pixels"])
        assert body["segments"]["0"]["error_pixels"] == wrong
        assert not list(folder.glob("*.tmp*"))  # written atomically: no temporaries left


def test_workers_get_the_options_and_write_the_same_bytes(tree, tmp_path):
    bench, outputs = tree
    files = []
    for jobs in (1, 2):
        out = tmp_path / f"j{jobs}"
        evaluate(bench, outputs, out, jobs=jobs, progress=False, chunk_size=1,
                 delta_e="cie94", extra_metrics=("psnr",))
        files.append((out / "problem_stats.jsonl").read_bytes())
    assert files[0] == files[1]
    rows = [json.loads(line) for line in files[1].decode().splitlines()]
    assert all(r["delta_e"] == "cie94" and set(r["extra_metrics"]) == {"psnr"} for r in rows)
