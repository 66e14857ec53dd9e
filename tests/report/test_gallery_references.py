"""The report's gallery shows every image a model got: the input, each reference image
(``reference <n>: <role>``, between input and answer), the answer and the output."""

import re

import numpy as np
import pytest

from paintkit.cli.main import main
from paintkit.engines import write_suite
from paintkit.layout.benchmark import discover_problems
from paintkit.report.gallery import gallery_card
from tests.support.stored_references import mixed_reference_suite


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("gallery-refs")
    write_suite(mixed_reference_suite(), root, engine="inprocess", progress=False)
    return root


def _card(problem):
    return gallery_card(problem, "oracle", problem.answer_path, np.zeros((12, 4)), "none")


def test_a_card_shows_each_reference_between_input_and_answer(tree):
    problems = {(p.task, p.idx): p for p in discover_problems(tree)}
    labels = [label for label, _ in _card(problems["recolor", 0]).images]
    assert labels[:4] == ["input", "reference 1: style", "reference 2: layout", "answer"]
    html = _card(problems["recolor", 0]).html()
    assert len(re.findall(r'<img class="zoom" src="data:image/[a-z]+;base64,', html)) == \
        len(labels)
    assert [label for label, _ in _card(problems["recolor", 2]).images][:2] == \
        ["input", "answer"]  # a one-image problem: the card it always had


def test_a_missing_reference_file_is_shown_as_missing(tree, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(tree, copy)
    (copy / "PaintBench" / "recolor" / "001_reference_1.png").unlink()
    problem = next(p for p in discover_problems(copy) if (p.task, p.idx) == ("recolor", 1))
    card = _card(problem)
    assert ("reference 1: style", None) in card.images
    assert '<div class="noimg">missing</div><figcaption>reference 1: style' in card.html()


@pytest.mark.slow  # baseline, eval and report: about 5 s
def test_the_report_page_holds_the_reference_images(tree, tmp_path):
    outputs, results, page = tmp_path / "outputs", tmp_path / "results", tmp_path / "r.html"
    assert main(["baseline", "oracle", "--benchmarks", str(tree), "--outputs", str(outputs)]) == 0
    assert main(["eval", "--benchmarks", str(tree), "--outputs", str(outputs), "--results",
                 str(results), "--jobs", "1", "--quiet"]) == 0
    assert main(["report", "--results", str(results), "--benchmarks", str(tree), "--outputs",
                 str(outputs), "--output", str(page), "--n-boot", "100"]) == 0
    html = page.read_text()
    assert "reference 1: style" in html and "reference 2: layout" in html
