"""``paintkit generate references`` writes the scene reference suite's layout: each problem's
references beside its input and answer, in the References folder and namespace."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

from paintkit.cli.main import main
from paintkit.sources import generate


def test_generate_writes_the_references_beside_input_and_answer(tmp_path):
    assert main(["generate", "references", "--out", str(tmp_path), "--tasks",
                 "reference_move_recolor", "--conditions", "n_med", "--per-cell", "1",
                 "--engine", "inprocess", "--quiet"]) == 0
    folder = tmp_path / "References" / "reference_move_recolor"
    assert sorted(p.name for p in folder.iterdir()) == [
        "000.json", "000_answer.png", "000_input.png", "000_reference_1.png",
        "000_reference_2.png"]
    meta = json.loads((folder / "000.json").read_text())
    assert meta["problem_id"] == "references-reference_move_recolor-n_med-default-000000"
    assert meta["references"] == [{"role": "layout"}, {"role": "palette"}]
    problem = generate("reference_move_recolor", 0, "n_med", source="references")
    for n, ref in enumerate(problem.references, 1):
        assert np.array_equal(np.asarray(Image.open(folder / f"000_reference_{n}.png")), ref.image)
    assert json.loads((tmp_path / "manifest.json").read_text())["suite"]["suite"] == "references"


@pytest.mark.parametrize("flag", [["--steps", "2"], ["--size", "512x512"], ["--modes", "default"]])
def test_flags_of_other_suites_are_refused(tmp_path, flag, capsys):
    assert main(["generate", "references", "--out", str(tmp_path), *flag, "--quiet"]) != 0
    assert f"{flag[0]} does not apply to the scene reference suite" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
