"""``paintkit generate references --svg``: each reference image's ``NNN_reference_<n>.svg``
beside its PNG, written after the reference PNGs and before the JSON, listed in the
manifest, drawn back to the reference's pixels, resumed and verified like the other files."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from PIL import Image

from paintkit.cli.main import main
from paintkit.engines import write_suite
from paintkit.layout.benchmark import discover_problems
from paintkit.layout.problem_files import parse_problem_file, problem_suffixes
from paintkit.renderers.svg_scene import problem_svgs
from paintkit.sources import generate
from paintkit.suites.references import ReferenceSuite
from paintkit.svg import render_svg
from paintkit.verify import verify_benchmark
from tests.support.stored_references import mixed_reference_suite

TASKS = ("reference_move_recolor", "reference_copy")  # two references, one
CONDITION = "n_med"
#: Every file of problem 000 of each task, in the order written (an oracle spelled out).
WRITTEN = {
    "reference_move_recolor": ["000_input.png", "000_answer.png", "000_input.svg",
                               "000_answer.svg", "000_reference_1.png", "000_reference_2.png",
                               "000_reference_1.svg", "000_reference_2.svg", "000.json"],
    "reference_copy": ["000_input.png", "000_answer.png", "000_input.svg", "000_answer.svg",
                       "000_reference_1.png", "000_reference_1.svg", "000.json"],
}


def _suite() -> ReferenceSuite:
    return ReferenceSuite(tasks=TASKS, conditions=(CONDITION,), per_cell=1)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    out = tmp_path_factory.mktemp("refsvg") / "bench"
    assert main(["generate", "references", "--out", str(out), "--tasks", ",".join(TASKS),
                 "--conditions", CONDITION, "--per-cell", "1", "--engine", "inprocess",
                 "--quiet", "--svg"]) == 0
    return out


@pytest.fixture
def copy(tree, tmp_path):
    shutil.copytree(tree, tmp_path / "bench")
    return tmp_path / "bench"


def _pixels(path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


def test_each_reference_svg_is_written_before_the_json_and_listed_in_order(tree):
    manifest = json.loads((tree / "manifest.json").read_text())
    for task, names in WRITTEN.items():
        folder = tree / "References" / task
        assert sorted(p.name for p in folder.iterdir()) == sorted(names)
        listed = [n.split("/")[-1] for n in manifest["files"] if n.startswith(f"References/{task}/")]
        assert listed == names
        meta = json.loads((folder / "000.json").read_text())
        assert len(meta["reference_scenes"]) == len(meta["references"]) == \
            sum(name.endswith(".svg") and "_reference_" in name for name in names)
    assert len(discover_problems(tree)) == len(TASKS)  # eval reads the folder as before


@pytest.mark.parametrize("task", TASKS)
def test_reference_svgs_render_to_the_reference_pixels(tree, task):
    folder = tree / "References" / task
    problem = generate(task, 0, CONDITION, source="references")  # made again, independently
    assert problem.references
    for n, ref in enumerate(problem.references, 1):
        png = _pixels(folder / f"000_reference_{n}.png")
        assert np.array_equal(png, ref.image)
        h, w = png.shape[:2]
        drawn = render_svg((folder / f"000_reference_{n}.svg").read_text(), width=w, height=h)
        assert np.array_equal(drawn, png), f"reference {n}"
    # the input and answer SVGs are the ones a one-image problem would get
    input_svg, answer_svg = problem_svgs(problem.metadata, problem.input, problem.answer)
    assert (folder / "000_input.svg").read_text() == input_svg
    assert (folder / "000_answer.svg").read_text() == answer_svg


def test_problem_file_names_of_reference_svgs():
    assert parse_problem_file("007_reference_2.svg") == ("007", "_reference_2.svg")
    assert parse_problem_file("007_reference_0.svg") is None
    assert parse_problem_file("007_reference_1.svgz") is None
    assert problem_suffixes(1, svg=True) == ("_input.png", "_answer.png", "_input.svg",
                                             "_answer.svg", "_reference_1.png",
                                             "_reference_1.svg", ".json")
    assert problem_suffixes(1) == ("_input.png", "_answer.png", "_reference_1.png", ".json")
    assert problem_suffixes(0, svg=True) == ("_input.png", "_answer.png", "_input.svg",
                                             "_answer.svg", ".json")


def _stamps(folder, stem):
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.name.startswith(stem)}


@pytest.mark.parametrize("harm", ["delete", "damage"])
def test_resume_rewrites_only_the_problem_whose_reference_svg_is_gone(copy, harm):
    manifest = (copy / "manifest.json").read_text()
    hit = copy / "References" / "reference_move_recolor" / "000_reference_2.svg"
    other = copy / "References" / "reference_copy"
    original = hit.read_bytes()
    before = _stamps(other, "000")
    if harm == "delete":
        hit.unlink()
    else:
        hit.write_bytes(original.replace(b"#", b"#0", 1)[:len(original)])
    summary = write_suite(_suite(), copy, engine="inprocess", progress=False, svg=True)
    assert (summary.generated, summary.skipped) == (1, 1)
    if harm == "damage":
        assert [path for path, _ in summary.damaged] == \
            ["References/reference_move_recolor/000_reference_2.svg"]
    assert hit.read_bytes() == original
    assert _stamps(other, "000") == before  # the other problem was not touched
    assert json.loads((copy / "manifest.json").read_text())["files"] == \
        json.loads(manifest)["files"]
    again = write_suite(_suite(), copy, engine="inprocess", progress=False, svg=True)
    assert (again.generated, again.skipped) == (0, 2)


def test_verify_passes_and_names_a_tampered_or_missing_reference_svg(tree, copy, capsys):
    verdict = verify_benchmark(tree)
    assert verdict.ok and verdict.checked == sum(len(n) for n in WRITTEN.values()), \
        verdict.differs
    tampered = copy / "References" / "reference_move_recolor" / "000_reference_1.svg"
    tampered.write_text(tampered.read_text().replace("</svg>", "<path d=\"M0 0h1v1h-1z\"/></svg>"))
    (copy / "References" / "reference_copy" / "000_reference_1.svg").unlink()
    verdict = verify_benchmark(copy)
    assert sorted(verdict.differs) == [
        "References/reference_copy/000: reference_1.svg missing",
        "References/reference_move_recolor/000: reference_1.svg edited since it was generated"]
    capsys.readouterr()
    assert main(["verify", str(copy)]) != 0
    assert "reference_1.svg edited since it was generated" in capsys.readouterr().out


def test_references_that_are_not_scenes_are_refused(tmp_path):
    with pytest.raises(ValueError, match="no reference_scenes in its metadata"):
        write_suite(mixed_reference_suite(), tmp_path, engine="inprocess", progress=False,
                    svg=True)


def test_chart_style_transfer_with_svg_is_still_refused(tmp_path, capsys):
    assert main(["generate", "style-transfer", "--out", str(tmp_path / "st"), "--svg"]) != 0
    assert "--svg needs the paintbench suite: style-transfer problems include charts" in \
        capsys.readouterr().err
    assert not (tmp_path / "st").exists()
