"""``paintkit explain`` over a tiny standard-layout tree: one row per (model, problem), missing
outputs and broken problems recorded, the run finishes."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from paintkit.cli.main import main
from paintkit.io.images import write_png
from paintkit.renderers import render
from paintkit.scene import Background, BBox, Canvas, Scene, Shape


def _problem(folder, stem, scene, answer_scene, extra=None):
    folder.mkdir(parents=True, exist_ok=True)
    write_png(folder / f"{stem}_input.png", render(scene))
    write_png(folder / f"{stem}_answer.png", render(answer_scene))
    meta = {"task": "translation", "mode": "amount", "visual_condition": "baseline",
            "scene": scene.to_dict(), "answer_scene": answer_scene.to_dict(), **(extra or {})}
    (folder / f"{stem}.json").write_text(json.dumps(meta))


def _tree(tmp_path, broken=True):
    scene = Scene(Canvas(120, 90), Background((255, 255, 255)), (
        Shape("a", "rectangle", BBox(10, 10, 30, 20), (255, 0, 0)),
        Shape("b", "circle", BBox(70, 40, 30, 30), (0, 0, 255)),
    ))
    moved = scene.replace_element("a", replace(scene.element("a"), bbox=BBox(40, 50, 30, 20)))
    task = tmp_path / "bench" / "PaintBench" / "translation"
    _problem(task, "000", scene, moved)
    _problem(task, "001", scene, moved)
    if broken:
        (task / "002_input.png").write_bytes(b"not a png")  # a broken benchmark problem
        (task / "002_answer.png").write_bytes(b"not a png")
        (task / "002.json").write_text("{}")
    else:  # a problem whose metadata scene does not parse: scored, not explained
        _problem(task, "002", scene, moved)
        meta = json.loads((task / "002.json").read_text())
        meta["scene"]["elements"][0]["kind"] = "blob"
        (task / "002.json").write_text(json.dumps(meta))
    outputs = tmp_path / "outputs" / "m" / "PaintBench" / "translation"
    outputs.mkdir(parents=True)
    write_png(outputs / "0000_output.png", render(scene))  # did nothing: 'a' misplaced


def test_explain_cli_writes_rows_and_survives_bad_problems(tmp_path, capsys):
    _tree(tmp_path)
    code = main(["explain", "--benchmarks", str(tmp_path / "bench"), "--outputs",
                 str(tmp_path / "outputs"), "--results", str(tmp_path / "out"), "--quiet",
                 "--jobs", "1"])
    assert code == 0
    rows = [json.loads(line) for line in (tmp_path / "out" / "explanations.jsonl").open()]
    assert [r["idx"] for r in rows] == [0, 1, 2]
    first = rows[0]
    assert first["model"] == "m" and first["explained"] == "full"
    assert {o["id"]: o["tag"] for o in first["objects"]} == {"a": "misplaced", "b": "correct"}
    assert rows[1]["has_output"] is False and "no output file" in rows[1]["error"]
    assert "error" in rows[2] and "has_output" not in rows[2]
    assert "3 rows (1 missing output, 1 broken problem)" in capsys.readouterr().err


def test_explain_cli_refuses_a_bad_tolerance(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:  # refused when parsed
        main(["explain", "--benchmarks", str(tmp_path), "--outputs", str(tmp_path),
              "--results", str(tmp_path / "o"), "--tolerance", "12"])
    assert stop.value.code == 2 and "--tolerance: expected an integer from 0 to 10" in \
        capsys.readouterr().err


def test_explain_cli_workers_write_the_same_bytes(tmp_path):
    """--jobs 2 (worker processes, chunks of one problem) writes the file --jobs 1 writes."""
    from paintkit.explainer.directory import explain_directory

    _tree(tmp_path)
    paths = [explain_directory(tmp_path / "bench", tmp_path / "outputs", tmp_path / f"out{j}",
                               jobs=j, chunk_size=1).path for j in (1, 2)]
    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert paths[0].read_bytes().count(b"\n") == 3


def test_explain_cli_refuses_bad_jobs(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:  # refused when parsed
        main(["explain", "--benchmarks", str(tmp_path), "--outputs", str(tmp_path),
              "--results", str(tmp_path / "o"), "--jobs", "0"])
    assert stop.value.code == 2 and "--jobs: expected an integer from 1" in capsys.readouterr().err


KEY = ("model", "benchmark", "task", "mode", "visual_condition", "idx")


def test_eval_explain_adds_the_explanation_to_each_row(tmp_path):
    """eval --explain: each row's explanation is what 'paintkit explain' writes for it
    (from the scorer's bins, scenes prepared once per problem); any --jobs, same bytes; a
    problem whose scene does not parse keeps its scores and says why; the report shows it."""
    from paintkit.explainer.directory import explain_directory
    from paintkit.report.explanations import explanations_in_results

    _tree(tmp_path, broken=False)
    bench, outputs = tmp_path / "bench", tmp_path / "outputs"
    for jobs in ("1", "2"):
        assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                     str(tmp_path / f"ev{jobs}"), "--explain", "--jobs", jobs, "--quiet"]) == 0
    data = (tmp_path / "ev1" / "problem_stats.jsonl").read_bytes()
    assert data == (tmp_path / "ev2" / "problem_stats.jsonl").read_bytes()
    rows = [json.loads(line) for line in data.splitlines()]
    assert [r["idx"] for r in rows] == [0, 1, 2]
    standalone = explain_directory(bench, outputs, tmp_path / "ex").path
    expected = [json.loads(line) for line in standalone.open()]
    for row, want in zip(rows[:2], expected[:2], strict=True):
        # (the missing output's reason is the row's own "error")
        assert row["explanation"] == {k: v for k, v in want.items()
                                      if k not in KEY and k != "error"}
    assert rows[0]["explanation"]["tags"] == {"correct": 1, "misplaced": 1}
    assert rows[1]["explanation"] == {"has_output": False, "tolerance": 5, "delta_e": "cie76"}
    assert "blob" in rows[2]["explanation"]["error"] and "output" in rows[2]
    found = explanations_in_results(tmp_path / "ev1")
    assert found[("m", "PaintBench", "translation", 0)] == rows[0]["explanation"]
    assert explanations_in_results(tmp_path / "ex") is None


def test_eval_explain_refuses_a_bad_tolerance(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:  # refused when parsed
        main(["eval", "--benchmarks", str(tmp_path), "--outputs", str(tmp_path),
              "--results", str(tmp_path / "o"), "--explain", "11"])
    assert stop.value.code == 2 and "--explain: expected an integer from 0 to 10" in \
        capsys.readouterr().err
