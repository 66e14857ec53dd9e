"""``paintkit verify``: a benchmark copy against its manifest, and a submitted results
folder rescored against its outputs (issue 37, item 12)."""

from __future__ import annotations

import json
import shutil

import pytest

from paintkit.cli.main import main


@pytest.fixture(scope="module")
def submission(tmp_path_factory):
    root = tmp_path_factory.mktemp("v")
    bench, outs, res = root / "bench", root / "outs", root / "res"
    assert main(["generate", "paintbench", "--out", str(bench), "--tasks", "translation",
                 "--conditions", "baseline", "--per-cell", "2", "--no-preservation",
                 "--namespace", "t37v", "--engine", "inprocess", "--quiet"]) == 0
    for name in ("oracle", "identity"):
        assert main(["baseline", name, "--benchmarks", str(bench), "--outputs", str(outs),
                     "--quiet"]) == 0
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outs), "--results",
                 str(res), "--quiet", "-j", "1"]) == 0
    return bench, outs, res


def _copy(tmp_path, submission):
    return [shutil.copytree(p, tmp_path / p.name) for p in submission]


def test_an_untouched_copy_matches(submission, capsys):
    bench, _, _ = submission
    capsys.readouterr()
    assert main(["verify", str(bench)]) == 0
    err = capsys.readouterr().err
    assert "all 6 checks match" in err  # 2 problems x input, answer, json
    assert "namespace 't37v': a fresh set of PaintBench problems, not the released" in err


def test_edited_missing_and_added_files_are_named(submission, tmp_path, capsys):
    bench, _, _ = _copy(tmp_path, submission)
    folder = bench / "PaintBench" / "translation"
    with open(folder / "000_input.png", "ab") as fh:
        fh.write(b"\0")
    (folder / "001.json").unlink()
    (folder / "002_input.png").write_bytes(b"x")
    capsys.readouterr()
    assert main(["verify", str(bench)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == ["PaintBench/translation/000: input.png edited",
                   "PaintBench/translation/001: json missing",
                   "PaintBench/translation/002: input.png not in the manifest"]


def test_a_submission_is_rescored_and_confirmed(submission, capsys):
    bench, outs, res = submission
    capsys.readouterr()
    assert main(["verify", str(bench), "--results", str(res), "--outputs", str(outs)]) == 0
    assert "all 8 checks match" in capsys.readouterr().err  # 4 output hashes + 4 rows


def test_a_forged_row_and_a_swapped_output_are_caught(submission, tmp_path, capsys):
    bench, outs, res = _copy(tmp_path, submission)
    stats = res / "problem_stats.jsonl"
    rows = [json.loads(line) for line in stats.read_text().splitlines()]
    forged = next(r for r in rows if r["model"] == "identity" and r["idx"] == 0)
    forged["output"]["cie76_mean"]["iou"] = 0.99
    stats.write_text("".join(json.dumps(r) + "\n" for r in rows))
    swapped = outs / "oracle" / "PaintBench" / "translation" / "0001_output.png"
    shutil.copyfile(outs / "identity" / "PaintBench" / "translation" / "0001_output.png",
                    swapped)
    capsys.readouterr()
    assert main(["verify", "--benchmarks", str(bench), "--results", str(res), "--outputs",
                 str(outs)]) == 1
    out = capsys.readouterr().out
    assert "oracle/PaintBench/translation/0001: output differs from the one scored" in out
    assert "identity/PaintBench/translation/0000: the submitted row differs from the rescore" \
        in out
    assert "oracle/PaintBench/translation/0001: the submitted row differs from the rescore" \
        in out


def test_without_the_benchmark_only_hashes_are_checked(submission, capsys):
    _, outs, res = submission
    capsys.readouterr()
    assert main(["verify", "--results", str(res), "--outputs", str(outs)]) == 0
    assert "rows not rescored" in capsys.readouterr().err


def test_bad_use_is_one_line(tmp_path, capsys):
    assert main(["verify", str(tmp_path)]) == 2
    assert "no manifest.json" in capsys.readouterr().err
    assert main(["verify", "--results", str(tmp_path)]) == 2
    assert "--results and --outputs go together" in capsys.readouterr().err
    assert main(["verify", "--results", str(tmp_path), "--outputs", str(tmp_path)]) == 2
    assert "no results.json" in capsys.readouterr().err
