"""``paintkit verify`` on a smaller tree of the release (``--per-cell 2``): its ``NNN`` are
not the release's, so its problems are matched by ``problem_id`` (with the number the
release gives them); the released problems it does not hold are not differences."""

from __future__ import annotations

import pytest
from PIL import Image

from paintkit.cli.main import main
from paintkit.verify import verify_benchmark
from paintkit.verify.release import read_release, release_ids


@pytest.fixture(scope="module")
def part(tmp_path_factory):
    root = tmp_path_factory.mktemp("part") / "bench"
    assert main(["generate", "paintbench", "--out", str(root), "--tasks", "recolor",
                 "--conditions", "baseline,n_med", "--per-cell", "2", "--engine", "inprocess",
                 "--quiet"]) == 0
    return root


def test_release_ids_name_every_released_problem():
    entry = read_release()["benchmarks"]["PaintBench"]
    ids = release_ids("PaintBench", entry["suite"])
    assert sorted(ids.values()) == sorted(entry["problems"])


def test_a_per_cell_tree_matches_the_release_by_problem_id(part):
    verdict = verify_benchmark(part)
    assert verdict.differs == [], verdict.differs[:3]
    assert verdict.checked == 4
    assert any("a part of the release (4 of its 2,016 problems)" in n for n in verdict.notes)


def test_an_edited_problem_of_a_part_is_named_by_its_release_number(part, tmp_path):
    import shutil

    copy = tmp_path / "bench"
    shutil.copytree(part, copy)
    path = copy / "PaintBench" / "recolor" / "002_answer.png"  # n_med, k 0: release problem 060
    image = Image.open(path).convert("RGB")
    image.putpixel((0, 0), tuple(255 - c for c in image.getpixel((0, 0))))
    image.save(path)
    verdict = verify_benchmark(copy)
    assert len(verdict.differs) == 1
    assert verdict.differs[0].startswith("PaintBench/recolor/060: answer differs")
