"""``paintkit show``'s files of a problem with reference images: ``reference_<n>.png`` in
order beside ``input.png`` and ``answer.png``, their roles in ``problem.json``."""

import json

import numpy as np

from paintkit.cli.show import write_problem
from paintkit.io.images import load_rgb
from paintkit.suites import build_problem
from tests.support.stored_references import mixed_reference_suite


def test_show_writes_every_reference_image(tmp_path):
    suite = mixed_reference_suite()
    problem = build_problem(suite, suite.spec(0))  # two references
    written = write_problem(tmp_path, problem)
    assert written == ("input.png, answer.png, reference_1.png, reference_2.png, "
                       "instruction.txt, problem.json")
    for n, ref in enumerate(problem.references, 1):
        assert np.array_equal(load_rgb(tmp_path / f"reference_{n}.png"), ref.image)
    meta = json.loads((tmp_path / "problem.json").read_text())
    assert meta["references"] == [{"role": "style"}, {"role": "layout"}]


def test_a_one_image_problem_writes_what_it_always_did(tmp_path):
    suite = mixed_reference_suite()
    problem = build_problem(suite, suite.spec(2))  # none
    assert write_problem(tmp_path, problem) == \
        "input.png, answer.png, instruction.txt, problem.json"
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        ["answer.png", "input.png", "instruction.txt", "problem.json"]


def test_show_a_scene_reference_task_by_its_slot(tmp_path, capsys):
    from paintkit.cli.main import main
    from paintkit.sources import generate

    assert main(["show", "reference_move_recolor", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "source='references'" in out and "reference_2.png" in out
    problem = generate("reference_move_recolor", 0, source="references")
    for n, ref in enumerate(problem.references, 1):
        assert np.array_equal(load_rgb(tmp_path / f"reference_{n}.png"), ref.image)
    assert main(["show", "reference_copy", "--seed", "3", "--out", str(tmp_path)]) == 2
    assert "addressed by --slot" in capsys.readouterr().err
