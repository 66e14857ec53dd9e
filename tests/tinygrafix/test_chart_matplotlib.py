"""No exact matplotlib pin on users: generating charts checks the version, scoring and the
report do not need it (issue 26, item 5).

Another matplotlib is simulated by changing the version string matplotlib reports; the
pixels are still those of the installed release, which is what ``--any-matplotlib`` records.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib
import pytest
from chart_hashing import TABLE, problem_hashes

from paintkit.cli.main import main
from paintkit.sources import generate, get_source
from paintkit.tinygrafix.environment import CHART_MATPLOTLIB, MatplotlibVersionError, check_matplotlib

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
OTHER = "3.9.4"


@pytest.fixture
def other_matplotlib(monkeypatch):
    monkeypatch.setattr(matplotlib, "__version__", OTHER)


def test_users_get_a_range_and_charts_extra_pins_the_bytes_release():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    core = [d for d in project["dependencies"] if d.startswith("matplotlib")]
    assert core and all("==" not in d for d in core), core  # installs next to any recent matplotlib
    assert project["optional-dependencies"]["charts"] == [f"matplotlib=={CHART_MATPLOTLIB}"]
    assert f"matplotlib=={CHART_MATPLOTLIB}" in project["optional-dependencies"]["dev"]


def test_the_pinned_hashes_are_made_with_the_checked_release():
    assert matplotlib.__version__ == CHART_MATPLOTLIB == check_matplotlib()


def test_another_matplotlib_is_refused_with_one_clear_line(other_matplotlib):
    with pytest.raises(MatplotlibVersionError) as info:
        generate("bar_chart_add_bar", 0, source="tinygrafixbench")
    message = str(info.value)
    assert "\n" not in message
    assert f"matplotlib {CHART_MATPLOTLIB}" in message and f"found {OTHER}" in message
    assert "paintkit[charts]" in message and "--any-matplotlib" in message


def test_the_command_line_refuses_before_generating(other_matplotlib, tmp_path, capsys):
    out = tmp_path / "tgb"
    code = main(["generate", "tinygrafixbench", "--out", str(out), "--tasks", "bar_chart_add_bar",
                 "--per-cell", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    expected = rf"error: TinyGrafixBench .* matplotlib {re.escape(CHART_MATPLOTLIB)}, found {OTHER}"
    assert re.search(expected, err)
    assert not out.exists() or not any(out.iterdir())


def test_any_matplotlib_draws_and_records_the_version(other_matplotlib, tmp_path):
    problem = get_source("tinygrafixbench", any_matplotlib=True).problem("bar_chart_add_bar", 0)
    assert problem.metadata["matplotlib"] == OTHER
    pinned = json.loads(TABLE.read_text())["bar_chart_add_bar/0"]
    got = problem_hashes(problem)
    assert (got["input"], got["answer"]) == (pinned["input"], pinned["answer"])  # same renderer
    assert got["metadata"] != pinned["metadata"]  # but never mistaken for the benchmark's

    out = tmp_path / "tgb"
    assert main(["generate", "tinygrafixbench", "--out", str(out), "--tasks", "bar_chart_add_bar",
                 "--per-cell", "1", "--quiet", "--engine", "inprocess", "--any-matplotlib"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["suite"]["matplotlib"] == OTHER and manifest["suite"]["any_matplotlib"] is True
    meta = json.loads((out / "TinyGrafixBench" / "bar_chart_add_bar" / "000.json").read_text())
    assert meta["matplotlib"] == OTHER


def test_the_benchmark_release_records_nothing_extra(tmp_path):
    problem = generate("bar_chart_add_bar", 0, source="tinygrafixbench")
    assert "matplotlib" not in problem.metadata
    from paintkit.tinygrafix.suite import TinyGrafixSuite

    assert "matplotlib" not in TinyGrafixSuite().to_dict()
    assert TinyGrafixSuite.from_dict(TinyGrafixSuite(any_matplotlib=True).to_dict()).any_matplotlib


def test_report_plots_draw_under_another_matplotlib(other_matplotlib):
    # a user who only scores and reports: the report's plots never ask for the chart release
    from paintkit.report.plots import iou_vs_tolerance

    row = {"level": "benchmark", "benchmark": "TinyGrafixBench", "model": "m",
           **{f"cie76_{t}": {"mean_iou": t / 10} for t in range(11)}}
    svg = iou_vs_tolerance([row], "TinyGrafixBench", ["m"])
    assert svg.lstrip().startswith("<svg") or "<svg" in svg[:400]
