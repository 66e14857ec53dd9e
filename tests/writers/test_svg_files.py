"""``paintkit generate --svg``: NNN_input.svg and NNN_answer.svg beside the PNGs."""

import pytest

from paintkit.cli.main import main
from paintkit.engines import write_suite
from paintkit.layout.benchmark import discover_problems
from paintkit.renderers.svg_scene import problem_svgs
from paintkit.writers import make_writer
from tests.support.generate_helpers import small_suite


@pytest.fixture(scope="module")
def tiny():
    return small_suite(per_cell=1, conditions=("baseline",), size=(128, 128))


def test_svg_files_match_the_problems_and_resume(tiny, tmp_path):
    summary = write_suite(tiny, tmp_path, engine="inprocess", progress=False, svg=True)
    assert summary.files == 5 * len(tiny)
    for spec, problem in zip(tiny.specs(), tiny.problems(), strict=True):
        folder = tmp_path / "PaintBench" / spec.folder
        expected = problem_svgs(problem.metadata, problem.input, problem.answer)
        assert (folder / f"{spec.stem}_input.svg").read_text() == expected[0]
        assert (folder / f"{spec.stem}_answer.svg").read_text() == expected[1]
    assert len(discover_problems(tmp_path)) == len(tiny)  # eval reads the folder as before
    again = write_suite(tiny, tmp_path, engine="inprocess", progress=False, svg=True)
    assert (again.generated, again.skipped) == (0, len(tiny))
    (tmp_path / "PaintBench" / tiny.spec(0).folder / f"{tiny.spec(0).stem}_answer.svg").unlink()
    assert write_suite(tiny, tmp_path, engine="inprocess", progress=False, svg=True).generated == 1


def test_svg_needs_the_directory_format(tiny, tmp_path):
    with pytest.raises(ValueError, match="directory format"):
        make_writer("webdataset", tmp_path, tiny, svg=True)


def test_cli_svg_writes_files_and_refuses_charts(tmp_path, capsys):
    rc = main(["generate", "paintbench", "--out", str(tmp_path / "pb"), "--tasks", "recolor",
               "--conditions", "baseline", "--per-cell", "1", "--size", "128x128",
               "--no-preservation", "--engine", "inprocess", "--quiet", "--svg"])
    assert rc == 0
    assert sorted(p.name for p in (tmp_path / "pb" / "PaintBench" / "recolor").iterdir()) == \
        ["000.json", "000_answer.png", "000_answer.svg", "000_input.png", "000_input.svg"]
    capsys.readouterr()
    assert main(["generate", "tinygrafixbench", "--out", str(tmp_path / "tg"), "--svg"]) != 0
    assert "--svg needs the paintbench suite" in capsys.readouterr().err
    assert not (tmp_path / "tg").exists()
