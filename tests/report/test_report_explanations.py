"""``paintkit report --explanations``: object tags of ``paintkit explain`` on gallery cards."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from paintkit.cli.main import main
from paintkit.report.explanations import explanation_html, load_explanations


@pytest.fixture(scope="module")
def explained(pipeline, tmp_path_factory):
    out = tmp_path_factory.mktemp("explained")
    assert main(["explain", "--benchmarks", str(pipeline["bench"]), "--outputs",
                 str(pipeline["outputs"]), "--results", str(out)]) == 0
    return out / "explanations.jsonl"


def _report(pipeline, results, out, *extra):
    assert main(["report", "--results", str(results), "--output", str(out), "--benchmarks",
                 str(pipeline["bench"]), "--outputs", str(pipeline["outputs"]), "--n-boot",
                 "100", *extra]) == 0
    return out.read_text(encoding="utf-8")


def test_cards_show_object_tags(pipeline, explained, tmp_path):
    text = _report(pipeline, pipeline["results"], tmp_path / "r.html", "--explanations",
                   str(explained))
    cards = text.count('<div class="card"')
    assert cards > 0 and text.count('<div class="explain">') == cards
    assert re.search(r"<b>objects</b> \(t=5\): \d+ (correct|missing|damaged|misplaced)", text)
    # the blank baseline erases everything: some object is listed as not correct
    assert re.search(r"<li>[^<]+: (missing|damaged|wrong colour)", text)
    # the ids listed are outlined and labelled on the answer and output images
    listed = set(re.findall(r"<li>([^<:]+): ", text)) - {"spurious changes", "note"}
    drawn = set(re.findall(r'paint-order="stroke">([^<]+)</text>', text))
    assert listed and listed <= drawn
    plain = _report(pipeline, pipeline["results"], tmp_path / "plain.html")
    assert 'class="explain"' not in plain  # opt-in: nothing without explanations


def test_explanations_in_the_results_folder_are_found(pipeline, explained, tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    for name in ("problem_stats.jsonl", "aggregate_stats.jsonl"):
        shutil.copy(pipeline["results"] / name, results)
    shutil.copy(explained, results)
    assert 'class="explain"' in _report(pipeline, results, tmp_path / "auto.html")


def test_explanation_block_and_bad_files(tmp_path):
    row = {"has_output": True, "tolerance": 5, "tags": {"correct": 1, "misplaced": 1},
           "objects": [{"id": "e0", "tag": "correct"},
                       {"id": "e1", "tag": "misplaced", "offset": [3, -2]}],
           "spurious": {"segments": 2, "pixels": 40}}
    block = explanation_html(row)
    assert "1 correct, 1 misplaced" in block and "e1: misplaced by (+3, -2) px" in block
    assert "e0" not in block and "2 segment(s), 40 px" in block
    assert "no output" in explanation_html({"has_output": False})
    assert "&lt;broken&gt;" in explanation_html({"error": "<broken>"})
    bad = tmp_path / "explanations.jsonl"
    bad.write_text(json.dumps({"model": "m"}) + "\n")
    with pytest.raises(ValueError, match=r"explanations.jsonl:1: expected a JSON object"):
        load_explanations(bad)
    with pytest.raises(ValueError, match="no such file"):
        load_explanations(tmp_path / "none.jsonl")


def test_results_of_another_formula_are_refused(tmp_path, capsys):
    from paintkit.eval import evaluate
    from paintkit.eval.synthetic import write_synthetic_tree

    bench, outputs = write_synthetic_tree(tmp_path, problems=4, tasks=2, width=16, height=16,
                                          models=("exact",))
    evaluate(bench, outputs, tmp_path / "res", jobs=1, progress=False, delta_e="ciede2000")
    assert main(["report", "--results", str(tmp_path / "res"), "--output",
                 str(tmp_path / "r.html"), "--n-boot", "50"]) == 2
    assert "the report shows CIE76 results" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()
