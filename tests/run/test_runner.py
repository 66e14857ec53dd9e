"""paintkit run with the callable interface: layout, text, manifest, resume, failures, lock,
filters, seeds, and the outputs scored by paintkit eval."""

from __future__ import annotations

import json
import subprocess
import sys

import editors
import numpy as np
import pytest
from PIL import Image, ImageOps

from paintkit.cli.main import main
from paintkit.eval import discover_problems, evaluate, read_rows
from paintkit.io.folder_lock import FolderBusyError, FolderLock
from paintkit.io.images import load_rgb
from paintkit.layout.outputs import RUN_LOCK_NAME as LOCK_NAME
from paintkit.run.records import read_log, read_manifest
from paintkit.run.registry import build_model
from paintkit.run.runner import folder_name, run_model


def _outputs(root, folder):
    return sorted(p.relative_to(root / folder).as_posix()
                  for p in (root / folder).rglob("*") if p.is_file())


def test_cli_writes_the_layout_eval_reads(bench, tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["run", "--model", "editors:invert", "--benchmarks", str(bench), "--outputs",
                 str(out), "--batch-size", "3", "--seed", "5", "--quiet"])
    assert code == 0
    model_dir = out / "editors.invert"
    problems = discover_problems(bench)
    for problem in problems:
        path = problem.output_path(out, "editors.invert")
        expected = np.asarray(ImageOps.invert(Image.open(problem.input_path).convert("RGB")))
        np.testing.assert_array_equal(load_rgb(path), expected)
        text = path.with_name(f"{problem.idx:04d}_reasoning.txt").read_text()
        assert text.startswith("synthetic edit | seed ")
    # every name is an output, its reasoning, a run file or the (released) lock file
    names = _outputs(out, "editors.invert")
    assert len(names) == 2 * len(problems) + 3
    assert "run_manifest.json" in names and "run_log.jsonl" in names and LOCK_NAME in names
    FolderLock(model_dir, LOCK_NAME, "paintkit run").release()  # not held any more
    (entry,) = read_manifest(model_dir)["runs"]
    assert entry["seed"] == 5 and entry["batch_size"] == 3 and entry["written"] == 12
    assert entry["model"]["name"] == "editors:invert" and entry["ended"]
    assert "paintkit" in entry["packages"] and entry["latency_s"]["mean"] >= 0
    log = read_log(model_dir)
    assert sorted(r["key"] for r in log) == sorted(
        f"PaintBench/{p.task}/{p.idx:04d}" for p in problems)
    assert {r["batch"] for r in log} == {3}
    assert "12 outputs written" in capsys.readouterr().err
    # paintkit eval reads it: a row per problem, none missing, reasoning files not "ignored"
    summary = evaluate(bench, out, tmp_path / "res", progress=False)
    assert summary.scored == 12 and summary.missing == 0 and summary.ignored == []


def test_seeds_do_not_depend_on_batching(bench, tmp_path):
    texts = {}
    for batch in (1, 5):
        out = tmp_path / f"b{batch}"
        run_model(build_model("editors:invert", batch_size=batch), bench, out, seed=3,
                  progress=False)
        texts[batch] = {p.relative_to(out).as_posix(): p.read_text()
                        for p in out.rglob("*_reasoning.txt")}
    assert texts[1] == texts[5]
    other = tmp_path / "seed4"
    run_model(build_model("editors:invert"), bench, other, seed=4, progress=False)
    assert {p.relative_to(other).as_posix(): p.read_text()
            for p in other.rglob("*_reasoning.txt")} != texts[1]


def test_resume_keeps_decoding_outputs_and_redoes_broken_ones(bench, tmp_path):
    out = tmp_path / "out"
    model = build_model("editors:identity_array")
    first = run_model(model, bench, out, progress=False)
    assert first.written == 12
    problems = discover_problems(bench)
    broken = problems[4].output_path(out, first.model_dir.name)
    broken.write_bytes(broken.read_bytes()[:20])  # truncated: does not decode
    gone = problems[7].output_path(out, first.model_dir.name)
    gone.unlink()
    kept = problems[0].output_path(out, first.model_dir.name)
    before = kept.stat().st_mtime_ns
    (broken.parent / ".0001_output.png.abc123.tmp").write_bytes(b"partial")  # a killed run's
    second = run_model(model, bench, out, progress=False)
    assert (second.written, second.skipped) == (2, 10)
    assert kept.stat().st_mtime_ns == before
    load_rgb(broken)
    load_rgb(gone)
    assert not list(out.rglob("*.tmp"))
    assert len(read_manifest(first.model_dir)["runs"]) == 2
    third = run_model(model, bench, out, overwrite=True, progress=False)
    assert third.written == 12


def test_failures_are_recorded_and_retried(bench, tmp_path, capsys):
    out, flag = tmp_path / "out", tmp_path / "fail"
    flag.write_text("")
    args = ["run", "--model", "editors:flaky", "--name", "flaky", "--benchmarks", str(bench),
            "--outputs", str(out), "--option", f"fail_file={flag}", "--quiet"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "failed" in err and "run the same command again" in err
    entry = read_manifest(out / "flaky")["runs"][-1]
    assert entry["failed"] > 0
    assert set(entry["failures"].values()) == {"RuntimeError: model refused"}
    for key in entry["failures"]:
        benchmark, task, idx = key.split("/")
        assert not (out / "flaky" / benchmark / task / f"{idx}_output.png").exists()
    failed = entry["failed"]
    flag.unlink()
    assert main(args) == 0
    entry = read_manifest(out / "flaky")["runs"][-1]
    assert (entry["written"], entry["skipped"], entry["failed"]) == (failed, 12 - failed, 0)
    assert [r["status"] for r in read_log(out / "flaky")].count("failed") == failed


def test_a_crashing_model_or_bad_images_fail_the_problems_not_the_run(bench, tmp_path):
    for name, reason in (("editors:crash", "RuntimeError: out of memory"),
                         ("editors:broken_bytes", "output: cannot identify image")):
        summary = run_model(build_model(name, batch_size=4), bench, tmp_path / "out",
                            progress=False)
        assert summary.written == 0 and len(summary.failures) == 12
        assert all(reason in r for r in summary.failures.values())
        assert not list((tmp_path / "out").rglob("*.png"))


def test_filters_limit_factory_and_list(bench, tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["run", "--model", "editors:factory()", "--option", "scale=9", "--benchmarks",
                 str(bench), "--outputs", str(out), "--tasks", "task_0,task_2", "--limit", "2",
                 "--quiet"])
    assert code == 0
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.png"))
    assert files == [f"editors.factory/PaintBench/{t}/{i:04d}_output.png"
                     for t in ("task_0", "task_2") for i in (0, 1)]
    assert load_rgb(out / files[0])[0, 0].tolist() == [9, 0, 0]
    capsys.readouterr()
    assert main(["run", "--list"]) == 0
    listing = capsys.readouterr().out
    for name in ("instruct-pix2pix", "flux.1-kontext-dev", "qwen-image-edit-2511",
                 "nano-banana-2", "gpt-image-2", "bagel", "module:function"):
        assert name in listing
    assert "num_inference_steps=100, guidance_scale=7.5, image_guidance_scale=1.5" in listing
    assert main(["run", "--model", "nope", "--benchmarks", str(bench), "--outputs",
                 str(out)]) == 2
    assert "unknown" in capsys.readouterr().err
    assert main(["run", "--model", "bagel", "--benchmarks", str(bench), "--outputs",
                 str(out)]) == 2
    assert "docs/run.md" in capsys.readouterr().err
    assert main(["run", "--model", "editors:invert"]) == 2
    assert main(["run", "--model", "editors:nothing", "--benchmarks", str(bench),
                 "--outputs", str(out)]) == 2


def test_a_second_run_into_the_same_folder_is_refused(bench, tmp_path):
    out = tmp_path / "out"
    with FolderLock(out / "editors.invert", LOCK_NAME, "paintkit run"), \
            pytest.raises(FolderBusyError, match="another 'paintkit run'"):
        run_model(build_model("editors:invert"), bench, out, progress=False)
    assert not list(out.rglob("*.png"))


def test_eval_scores_outputs_as_they_land(bench, tmp_path):
    out, res = tmp_path / "out", tmp_path / "res"
    flag = tmp_path / "fail"
    flag.write_text("")
    model = build_model("editors:flaky", options={"fail_file": str(flag)})
    first = run_model(model, bench, out, folder="m", eval_out=res, progress=False)
    rows = read_rows(res / "problem_stats.jsonl")
    assert len(rows) == 12 and first.scored == 12
    assert sum(not r["has_output"] for r in rows) == len(first.failures) > 0
    flag.unlink()
    second = run_model(model, bench, out, folder="m", eval_out=res, progress=False)
    assert second.scored == len(first.failures)
    rows = read_rows(res / "problem_stats.jsonl")
    assert len(rows) == 12 and all(r["has_output"] for r in rows)
    # the same rows paintkit eval writes: a later eval finds nothing to do
    again = evaluate(bench, out, res, progress=False)
    assert (again.scored, again.skipped) == (0, 12)


def test_the_callable_sees_pil_images_and_the_instruction(bench, tmp_path):
    seen = []

    class Recorder:
        name, batch_size, concurrency = "rec", 2, 1

        def edit_batch(self, requests):
            from paintkit.run.interface import EditResult

            seen.extend(requests)
            return [EditResult(image=r.image) for r in requests]

        def describe(self):
            return {"name": "rec"}

        def usage_summary(self):
            return {}

    run_model(Recorder(), bench, tmp_path, tasks=["task_1"], progress=False)
    assert len(seen) == 4
    assert all(isinstance(r.image, Image.Image) and r.image.mode == "RGB" for r in seen)
    assert {r.instruction for r in seen} == {"synthetic edit"}
    assert json.loads((tmp_path / "rec" / "run_manifest.json").read_text())["runs"][0]["todo"] == 4


def test_importing_paintkit_imports_no_model_library():
    code = ("import sys, paintkit, paintkit.run, paintkit.cli.main; "
            "paintkit.cli.main.build_parser(); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'diffusers', 'transformers', 'accelerate', 'openai', 'google', 'ray'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_folder_names():
    assert folder_name("instruct-pix2pix") == "instruct-pix2pix"
    assert folder_name("diffusers:/models/my-ip2p/") == "my-ip2p"
    assert folder_name("diffusers:org/Model-X") == "Model-X"
    assert folder_name("pkg.mod:edit") == "pkg.mod.edit"
    assert folder_name("pkg.mod:load()") == "pkg.mod.load"
    assert editors.CALLS is not None


def test_the_documented_example_runs(bench, tmp_path, monkeypatch):
    examples = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "examples")
    monkeypatch.syspath_prepend(examples)
    assert main(["run", "--model", "run_my_model:load_editor()", "--benchmarks", str(bench),
                 "--outputs", str(tmp_path), "--batch-size", "4", "--limit", "2",
                 "--quiet"]) == 0
    outputs = sorted((tmp_path / "run_my_model.load_editor").rglob("*_output.png"))
    assert len(outputs) == 6
    assert "input kept" in outputs[0].with_name("0000_reasoning.txt").read_text()


def test_progress_line(bench, tmp_path, capsys):
    run_model(build_model("editors:invert"), bench, tmp_path, tasks=["task_0"], progress=True)
    err = capsys.readouterr().err
    assert "edited [" in err and "4/4 100%" in err and "problems/s" in err
    run_model(build_model("editors:invert"), bench, tmp_path, progress=True)
    assert "(4 already there)" in capsys.readouterr().err


def test_option_values():
    from paintkit.run.registry import parse_value

    assert parse_value("3") == 3 and parse_value("2.5") == 2.5
    assert parse_value("TRUE") is True and parse_value("none") is None
    assert parse_value("[9, 18, 27]") == [9, 18, 27] and parse_value("{\"a\": 1}") == {"a": 1}
    assert parse_value("[not json") == "[not json" and parse_value("high") == "high"


def test_eval_scores_outputs_already_there(bench, tmp_path):
    out, res = tmp_path / "out", tmp_path / "res"
    run_model(build_model("editors:invert"), bench, out, folder="m", progress=False)
    again = run_model(build_model("editors:invert"), bench, out, folder="m", eval_out=res,
                      progress=False)
    assert (again.written, again.skipped, again.scored) == (0, 12, 12)
    rows = read_rows(res / "problem_stats.jsonl")
    assert len(rows) == 12 and all(r["has_output"] for r in rows)
    third = run_model(build_model("editors:invert"), bench, out, folder="m", eval_out=res,
                      progress=False)
    assert third.scored == 0  # rows up to date: nothing rescored
