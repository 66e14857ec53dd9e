"""``paintkit eval`` on outputs that are code: ``NNNN_output.svg`` (scene problems) and
``NNNN_output.json`` (chart states), rendered before scoring, in one tree with PNG outputs.

The answer's own SVG / state scores mIoU 1.0, the input's as low as the input image; a
chart state's row says which fields differ from the answer state; a file that cannot be
drawn, or two outputs for one problem, is that output's one-line reason.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from paintkit.cli.main import main
from paintkit.eval import evaluate

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture(scope="module")
def trees(tmp_path_factory) -> tuple[Path, Path]:  # noqa: ANN001
    root = tmp_path_factory.mktemp("code")
    bench = root / "bench"
    assert main(["generate", "paintbench", "--out", str(bench / "pb"), "--tasks",
                 "translation,recolor", "--conditions", "baseline", "--per-cell", "1",
                 "--svg"]) == 0
    assert main(["generate", "tinygrafixbench", "--out", str(bench / "tg"), "--tasks",
                 "bar_chart_sort_bars", "--per-cell", "1", "--any-matplotlib"]) == 0
    outputs = root / "outputs"
    pb = bench / "pb" / "PaintBench"
    for model, which in (("answer", "answer"), ("input", "input")):
        for task in ("translation", "recolor"):
            folder = outputs / model / "PaintBench" / task
            folder.mkdir(parents=True)
            shutil.copy(pb / task / f"000_{which}.svg", folder / "0000_output.svg")
    tg = next((bench / "tg").glob("TinyGrafixBench/*/000.json"))
    meta = json.loads(tg.read_text())
    for model, which in (("answer", "answer_state"), ("input", "input_state")):
        folder = outputs / model / "TinyGrafixBench" / tg.parent.name
        folder.mkdir(parents=True)
        (folder / "0000_output.json").write_text(json.dumps(meta[which]))
    return bench, outputs


def _rows(bench: Path, outputs: Path, out: Path) -> dict:
    rows = {}
    for sub in ("pb", "tg"):
        evaluate(bench / sub, outputs, out / sub, jobs=1, progress=False)
        for line in (out / sub / "problem_stats.jsonl").read_text().splitlines():
            row = json.loads(line)
            rows[(row["model"], row["task"])] = row
    return rows


def test_answer_code_scores_one_and_input_code_scores_low(trees, tmp_path) -> None:  # noqa: ANN001
    rows = _rows(*trees, tmp_path)
    chart_task = next(t for (_, t) in rows if t not in ("translation", "recolor"))
    for task in ("translation", "recolor", chart_task):
        assert rows[("answer", task)]["output"]["cie76_mean"]["iou"] == 1.0
        assert rows[("input", task)]["has_output"] is True
        assert rows[("input", task)]["output"]["cie76_mean"]["iou"] <= 0.05
    assert rows[("answer", chart_task)]["state_diff"]["exact"] is True
    diff = rows[("input", chart_task)]["state_diff"]
    assert diff["exact"] is False and diff["fields_differ"] >= 1
    assert "state_diff" not in rows[("answer", "translation")]


def test_undrawable_code_and_two_outputs_are_reasons(trees, tmp_path) -> None:  # noqa: ANN001
    bench, outputs = trees
    hostile = tmp_path / "outputs"
    shutil.copytree(outputs, hostile)
    folder = hostile / "answer" / "PaintBench" / "translation"
    (folder / "0000_output.svg").write_text('<!DOCTYPE svg [<!ENTITY a "b">]><svg/>')
    both = hostile / "answer" / "PaintBench" / "recolor"
    shutil.copy(bench / "pb" / "PaintBench" / "recolor" / "000_answer.png",
                both / "0000_output.png")
    chart = next((hostile / "answer" / "TinyGrafixBench").iterdir())
    state = json.loads((chart / "0000_output.json").read_text())
    state["bars"] = state["bars"] * 1000
    (chart / "0000_output.json").write_text(json.dumps(state))
    rows = _rows(bench, hostile, tmp_path / "res")
    svg_row = rows[("answer", "translation")]
    assert svg_row["has_output"] is False and "DOCTYPE" in svg_row["error"]
    assert "more than one output" in rows[("answer", "recolor")]["error"]
    chart_row = next(r for (m, t), r in rows.items() if m == "answer" and t == chart.name)
    assert chart_row["has_output"] is False and "items" in chart_row["error"]


def test_load_report_and_verify_take_code_outputs(trees, tmp_path) -> None:  # noqa: ANN001
    import numpy as np

    import paintkit
    from paintkit.report.write import write_report
    from paintkit.verify.submission import verify_submission

    bench, outputs = trees
    loaded = paintkit.load(outputs, kind="outputs", benchmarks=bench / "pb")
    answers = {item.key: item for item in loaded if item.model == "answer"}
    assert len(answers) == 2
    for item in answers.values():
        assert np.array_equal(item.output, item.answer)
    unpaired = paintkit.load(outputs, kind="outputs")
    assert any(item.key.endswith("translation/0000") for item in unpaired)
    res = tmp_path / "res"
    assert main(["eval", "--benchmarks", str(bench / "pb"), "--outputs", str(outputs),
                 "--results", str(res), "--jobs", "1"]) == 0
    page = write_report(res, tmp_path / "report.html", benchmarks_root=bench / "pb",
                        outputs_root=outputs, n_boot=200)
    assert "data:image/png;base64" in page.read_text()
    verdict = verify_submission(res, outputs, bench / "pb")
    assert not any("output missing" in line for line in verdict.differs), verdict.differs


def test_the_explanation_names_the_svg_element_drawn_wrong(trees, tmp_path) -> None:  # noqa: ANN001
    import re

    bench, _ = trees
    folder = bench / "pb" / "PaintBench" / "recolor"
    svg = (folder / "000_answer.svg").read_text()
    shapes = re.findall(r'<(?:path|g) id="([^"]+)" data-kind="shape"', svg)
    victim = shapes[0]
    damaged = re.sub(rf'(id="{re.escape(victim)}"[^>]*?fill=")#[0-9A-Fa-f]{{6}}', r"\g<1>#123456",
                     svg, count=1)
    assert damaged != svg
    out = tmp_path / "outputs" / "m" / "PaintBench" / "recolor"
    out.mkdir(parents=True)
    (out / "0000_output.svg").write_text(damaged)
    evaluate(bench / "pb", tmp_path / "outputs", tmp_path / "res", jobs=1, progress=False,
             explain=5)
    row = next(r for r in map(json.loads, (tmp_path / "res" / "problem_stats.jsonl")
                              .read_text().splitlines()) if r["task"] == "recolor")
    wrong = {o["id"]: o["tag"] for o in row["explanation"]["objects"] if o["tag"] != "correct"}
    assert wrong == {victim: "wrong_colour"}


def test_the_gallery_shows_a_code_output(trees) -> None:  # noqa: ANN001
    import numpy as np

    from paintkit.layout.benchmark import discover_problems
    from paintkit.report.gallery import gallery_card

    bench, outputs = trees
    problem = next(p for p in discover_problems(bench / "pb") if p.task == "translation")
    path = outputs / "answer" / "PaintBench" / "translation" / "0000_output.svg"
    card = gallery_card(problem, "answer", path, np.ones((12, 4)), "solved")
    assert dict(card.images)["output"] is not None


def test_the_report_says_what_a_chart_state_got_wrong(trees, tmp_path) -> None:  # noqa: ANN001
    from paintkit.report.state_diffs import state_diff_html
    from paintkit.report.write import write_report

    bench, outputs = trees
    res = tmp_path / "res"
    assert main(["eval", "--benchmarks", str(bench / "tg"), "--outputs", str(outputs),
                 "--results", str(res), "--jobs", "1"]) == 0
    page = write_report(res, tmp_path / "report.html", benchmarks_root=bench / "tg",
                        outputs_root=outputs, n_boot=200, gallery_per_model=4).read_text()
    assert "chart state</b>: equal to the answer state" in page
    assert "field(s) differ from the answer state" in page
    html = state_diff_html({"exact": False, "fields_differ": 2, "values": 1, "labels": 1,
                            "fields": ["<script>", "bars[0].value"]})
    assert "&lt;script&gt;" in html and "1 values, 1 labels" in html
