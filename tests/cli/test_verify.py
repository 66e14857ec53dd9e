"""``paintkit verify``: a benchmark copy against the release's content hashes (why each
problem differs), and a submitted results folder rescored against its outputs (issue 37,
item 12)."""

from __future__ import annotations

import io
import json
import shutil
import tarfile

import pytest

from paintkit.cli.main import main
from paintkit.verify import read_release, verify_benchmark


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


@pytest.fixture(scope="module")
def release_copy(tmp_path_factory):
    """PaintBench's first 12 translation problems (its baseline cell), as released, and the
    shipped list narrowed to them."""
    bench = tmp_path_factory.mktemp("r") / "bench"
    assert main(["generate", "paintbench", "--out", str(bench), "--tasks", "translation",
                 "--conditions", "baseline", "--no-preservation", "--engine", "inprocess",
                 "--quiet"]) == 0
    shipped = read_release()
    entry = shipped["benchmarks"]["PaintBench"]
    keys = [f"translation/{k:03d}" for k in range(12)]
    narrowed = {**shipped, "benchmarks": {"PaintBench": {
        "suite": entry["suite"], "problems": {k: entry["problems"][k] for k in keys}}}}
    return bench, narrowed


def test_an_untouched_copy_matches_the_release(release_copy, capsys):
    bench, release = release_copy
    verdict = verify_benchmark(bench, release=release, jobs=2)
    assert verdict.ok and verdict.checked == 12, verdict
    assert verify_benchmark(bench / "PaintBench", release=release).ok  # one benchmark folder
    whole = verify_benchmark(bench)  # the shipped list: 19 tasks and 84 problems more
    assert "PaintBench/blending: not in this copy (96 released problems)" in whole.differs
    assert "PaintBench/translation: 84 released problems missing (012-095)" in whole.differs
    assert not any("differ" in line for line in whole.differs), whole.differs
    assert len(whole.differs) == 20 + 1  # the other folders (preservation too), translation
    capsys.readouterr()
    assert main(["verify", str(bench)]) == 1
    assert "PaintBench/blending: not in this copy" in capsys.readouterr().out


def test_edits_are_named_with_why(release_copy, tmp_path):
    from paintkit.io.images import load_rgb, write_png

    bench = shutil.copytree(release_copy[0], tmp_path / "bench")
    folder = bench / "PaintBench" / "translation"
    with open(folder / "000_input.png", "ab") as fh:  # bytes after IEND: same pixels
        fh.write(b"\0")
    pixels = load_rgb(folder / "001_answer.png").copy()
    pixels[0, 0] ^= 1
    write_png(folder / "001_answer.png", pixels)
    (folder / "002.json").unlink()
    (folder / "012_input.png").write_bytes(b"x")
    verdict = verify_benchmark(bench, release=release_copy[1])
    assert verdict.differs == [
        "PaintBench/translation/001: answer differs from the release (answer.png edited "
        "since it was generated)",
        "PaintBench/translation/002: json missing",
        "PaintBench/translation/012: not in the release (input.png not in manifest.json)"]
    assert any("1 problem(s) have files whose bytes differ from manifest.json but whose "
               "content is the release's" in note for note in verdict.notes), verdict.notes


def test_another_namespace_version_or_no_manifest_is_why(submission, tmp_path):
    bench = shutil.copytree(submission[0], tmp_path / "bench")
    verdict = verify_benchmark(bench)
    assert "PaintBench/translation/000: input, answer, metadata differ from the release " \
        "(namespace 't37v', not the release's 'paintbench': a fresh set of problems)" \
        in verdict.differs
    manifest = json.loads((bench / "manifest.json").read_text())
    manifest["paintkit_version"] = "0.2.0"
    (bench / "manifest.json").write_text(json.dumps(manifest))
    assert any(line.endswith("(made by paintkit 0.2.0, the release list is of "
                             f"{read_release()['paintkit_version']}: tasks changed between "
                             "them (CHANGELOG.md))") for line in verify_benchmark(bench).differs)
    (bench / "manifest.json").unlink()
    verdict = verify_benchmark(bench)
    assert any("no manifest.json says how the copy was made" in line
               for line in verdict.differs)
    assert any("checked against the release alone" in note for note in verdict.notes)


def test_a_benchmark_that_is_not_released_is_checked_against_its_manifest(tmp_path, capsys):
    bench = tmp_path / "bench"
    assert main(["generate", "paintbench", "--out", str(bench), "--tasks", "recolor",
                 "--conditions", "baseline", "--per-cell", "1", "--no-preservation",
                 "--benchmark", "MyBench", "--engine", "inprocess", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["verify", str(bench)]) == 0
    assert "MyBench: not a released benchmark (PaintBench, TinyGrafixBench): checked " \
        "against manifest.json only" in capsys.readouterr().err
    (bench / "MyBench" / "recolor" / "000.json").write_text("{}")
    assert main(["verify", str(bench)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "MyBench/recolor/000: json edited since it was generated"]


def test_a_submission_is_rescored_and_confirmed(submission, capsys):
    bench, outs, res = submission
    capsys.readouterr()
    assert main(["verify", str(bench), "--results", str(res), "--outputs", str(outs)]) == 0
    err = capsys.readouterr().err  # says what it counted, not "all 8 checks match"
    assert f"{res}: 4 output hashes and 4 rows rescored checked, all match" in err


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
    assert "holds no <Benchmark>/<task>/ folders" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "nope")]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert main(["verify", "--results", str(tmp_path)]) == 2
    assert "--results and --outputs go together" in capsys.readouterr().err
    assert main(["verify", "--results", str(tmp_path), "--outputs", str(tmp_path)]) == 2
    assert "no results.json" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["webdataset", "parquet"])
def test_a_shard_set_is_checked_against_the_release_too(release_copy, tmp_path, fmt):
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    shards = tmp_path / fmt
    assert main(["generate", "paintbench", "--out", str(shards), "--tasks", "translation",
                 "--conditions", "baseline", "--no-preservation", "--format", fmt,
                 "--shard-size", "6", "--engine", "inprocess", "--quiet"]) == 0
    verdict = verify_benchmark(shards, release=release_copy[1])
    assert verdict.ok and verdict.checked == 12, verdict
    if fmt != "webdataset":
        return
    first = sorted(shards.glob("shard-*.tar"))[0]  # one instruction reworded inside a shard
    with tarfile.open(first) as tar:
        members = [(m, tar.extractfile(m).read()) for m in tar.getmembers()]
    with tarfile.open(first, "w") as tar:
        for k, (member, data) in enumerate(members):
            if member.name.endswith(".json") and k < 3:
                meta = json.loads(data)
                meta["instruction"] += " Please."
                data = json.dumps(meta).encode()
                member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    verdict = verify_benchmark(shards, release=release_copy[1])
    assert len(verdict.differs) == 1 and verdict.differs[0].endswith(
        ": metadata differs from the release (in shard-000000.tar, edited since generated)")
    assert any("shard-000000.tar: missing or edited" in note for note in verdict.notes)


def test_a_smaller_shard_set_is_matched_by_problem_id(release_copy, tmp_path):
    """``--per-cell 2`` numbers its problems 000, 001; they are released problems under
    other numbers, matched by their problem_id (as a smaller tree's are)."""
    pytest.importorskip("pyarrow")
    shards = tmp_path / "part"
    assert main(["generate", "paintbench", "--out", str(shards), "--tasks", "translation",
                 "--conditions", "baseline", "--no-preservation", "--per-cell", "2",
                 "--format", "parquet", "--engine", "inprocess", "--quiet"]) == 0
    verdict = verify_benchmark(shards, release=release_copy[1])
    assert verdict.ok and verdict.checked == 2, verdict
    assert any("a part of the release (2 of its 12 problems), each matched by its problem_id"
               in note for note in verdict.notes), verdict.notes
