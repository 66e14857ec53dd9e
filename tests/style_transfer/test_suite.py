"""The style transfer suite and its command: folders, ids, the namespace guard, the flags it
refuses, a written tree and a problem read back from its key."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from tests.style_transfer.style_cases import CHARTS, style_problem


def test_the_suite_is_five_chart_types_of_thirty():
    from paintkit.tinygrafix.style_suite import StyleTransferSuite

    suite = StyleTransferSuite()
    assert len(suite) == 150 and suite.folders() == CHARTS
    spec = suite.spec(31)
    assert (spec.folder, spec.slot, spec.problem_id) == \
        ("scatter_plot", 1, "style_transfer-scatter_plot-default-default-000001")
    assert StyleTransferSuite.from_dict(suite.to_dict()) == suite
    assert suite.to_dict()["suite"] == "style-transfer"


def test_the_suite_refuses_unknown_types_and_slots_past_its_own():
    from paintkit.tinygrafix.style_suite import StyleTransferSuite

    with pytest.raises(ValueError, match="unknown chart type 'pie'"):
        StyleTransferSuite(tasks=("pie",))
    with pytest.raises(ValueError, match="reaches past the style transfer suite"):
        StyleTransferSuite(per_cell=31)
    assert len(StyleTransferSuite(per_cell=31, namespace="train", tasks=("line_chart",))) == 31


def test_a_key_gives_back_the_problem():
    from paintkit.suites.problem_keys import problem_from_key

    problem = problem_from_key("style_transfer-line_chart-default-default-000000")
    mine = style_problem("line_chart", 0)
    assert np.array_equal(problem.answer, mine.answer)
    assert np.array_equal(problem.references[0].image, mine.references[0].image)


def _generate(*flags: str, out) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "paintkit", "generate", "style-transfer",
                           "--out", str(out), "--quiet", "--jobs", "1", *flags],
                          capture_output=True, text=True)


def test_the_command_refuses_flags_of_other_suites(tmp_path):
    done = _generate("--conditions", "baseline", out=tmp_path)
    assert done.returncode != 0
    assert "--conditions does not apply to the style transfer suite" in done.stderr


@pytest.mark.slow
def test_the_command_writes_the_tree(tmp_path):
    done = _generate("--tasks", "line_chart", "--per-cell", "1", out=tmp_path)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "StyleTransfer" / "line_chart"
    assert sorted(p.name for p in folder.iterdir()) == \
        ["000.json", "000_answer.png", "000_input.png", "000_reference_1.png"]
    meta = json.loads((folder / "000.json").read_text())
    assert meta["problem_id"] == "style_transfer-line_chart-default-default-000000"
    assert meta["references"] == [{"role": "style"}]


def test_another_matplotlib_is_refused_before_drawing_unless_asked(monkeypatch):
    import matplotlib

    from paintkit.tinygrafix.environment import MatplotlibVersionError
    from paintkit.tinygrafix.style_source import StyleTransferSource

    monkeypatch.setattr(matplotlib, "__version__", "0.0.1")
    with pytest.raises(MatplotlibVersionError, match="byte-identical only with matplotlib"):
        StyleTransferSource().problem("line_chart", 0)
    problem = StyleTransferSource(any_matplotlib=True).problem("line_chart", 0)
    assert problem.metadata["matplotlib"] == "0.0.1"
    assert np.array_equal(problem.answer, style_problem("line_chart", 0).answer)
