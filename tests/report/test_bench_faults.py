"""``paintkit bench`` under hostile configs and folders (issue 38, items 12, 16, 17)."""

from __future__ import annotations

import json
import os

import pytest

from paintkit.cli.main import main
from tests.report.test_bench import _steps

SMALL = ["--tasks", "removal", "--conditions", "baseline", "--per-cell", "1", "--size",
         "128x128", "--jobs", "1", "--n-boot", "20", "--gallery-per-model", "0"]


@pytest.mark.parametrize(("line", "key", "wanted"), [
    ('jobs = "x"', "jobs", "an integer >= 0, got 'x' (str)"),
    ("out = 5", "out", "a folder (a string), got 5 (int)"),
    ("suites = 5", "suites", "a list of names or a comma-separated string, got 5"),
    ("baselines = 7", "baselines", "a list of names or a comma-separated string, got 7"),
    ("n_boot = 0", "n_boot", "an integer from 1 to 100000, got 0"),
    ('seed = "1"', "seed", "an integer >= 0, got '1' (str)"),
    ("per_cell = 1.5", "per_cell", "None or an integer >= 1, got 1.5 (float)"),
    ("size = 128", "size", 'a size string ("WxH"), got 128 (int)'),
    ("tasks = [1, 2]", "tasks", "a list of names or a comma-separated string, got [1, 2]"),
])
def test_wrong_types_are_refused_before_the_first_step(line, key, wanted, tmp_path, capsys):
    config = tmp_path / "run.toml"
    out = tmp_path / "run"
    text = f'out = "{out}"\n{line}\n' if not line.startswith("out") else f"{line}\n"
    config.write_text(text)
    assert main(["bench", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"error: {key}: expected {wanted}" in err and "Traceback" not in err
    assert not out.exists() and not (tmp_path / "5").exists()  # no step ran


def test_a_step_reruns_when_the_baselines_change(tmp_path, capsys):
    run = tmp_path / "run"

    def bench(baselines: str) -> dict[str, str]:
        assert main(["bench", "--out", str(run), "--baselines", baselines, *SMALL]) == 0
        return _steps(capsys.readouterr().err)

    def models(name: str) -> set[str]:
        return {json.loads(line)["model"] for line in (run / "results" / name).open()}

    bench("oracle,identity")
    assert models("aggregate_stats.jsonl") == {"oracle", "identity"}
    steps = bench("oracle")  # identity's outputs stay in <out>/outputs
    assert steps["generate"] == steps["baseline oracle"] == "skipped"
    assert steps["stats"] == steps["report"] == "ran"
    assert models("problem_stats.jsonl") == models("aggregate_stats.jsonl") == {"oracle"}
    assert ">identity<" not in (run / "report.html").read_text(encoding="utf-8")
    steps = bench("oracle,identity")
    assert steps["eval"] == "ran"
    assert models("aggregate_stats.jsonl") == {"oracle", "identity"}
    assert set(bench("oracle,identity").values()) == {"skipped"}


def test_your_outputs_with_dangling_and_looping_links(tmp_path, capsys):
    run, yours = tmp_path / "run", tmp_path / "yours"
    folder = yours / "mine" / "PaintBench" / "removal"
    folder.mkdir(parents=True)
    os.symlink(tmp_path / "gone.png", folder / "0000_output.png")
    os.symlink(folder / "0001_output.png", folder / "0001_output.png")  # a loop
    args = ["bench", "--out", str(run), "--baselines", "", "--outputs", str(yours), *SMALL]
    assert main(args) == 0, capsys.readouterr().err
    rows = [json.loads(line) for line in (run / "results" / "problem_stats.jsonl").open()]
    assert rows and {r["model"] for r in rows} == {"mine"}
    assert not any(r["has_output"] for r in rows)  # scored as missing, like eval alone
    capsys.readouterr()
    assert main(args) == 0
    assert set(_steps(capsys.readouterr().err).values()) == {"skipped"}
