"""``paintkit bench``: every step into one folder; rerun skips what is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paintkit.cli.main import main


def _steps(err: str) -> dict[str, str]:
    """``{step: "ran" | "skipped"}`` from the ``bench: <step> ...`` and
    ``bench: <step>: unchanged, skipped`` lines."""
    out = {}
    for line in err.splitlines():
        if line.endswith(": unchanged, skipped"):
            out[line[len("bench: "):-len(": unchanged, skipped")]] = "skipped"
        elif line.startswith("bench: ") and line.endswith(" ..."):
            out[line[len("bench: "):-len(" ...")]] = "ran"
    return out


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    root = tmp_path_factory.mktemp("bench")
    path = root / "run.toml"
    path.write_text(f'out = "{root / "run"}"\ntasks = ["removal"]\nconditions = "baseline"\n'
                    'per_cell = 1\nsize = "128x128"\nbaselines = ["oracle", "blank"]\njobs = 1\n'
                    "n_boot = 50\ngallery_per_model = 1\n")
    return path, root / "run"


def test_runs_everything_then_skips(config, capsys):
    path, run = config
    assert main(["bench", str(path)]) == 0
    steps = _steps(capsys.readouterr().err)
    assert steps == {k: "ran" for k in ("generate", "baseline oracle", "baseline blank", "eval",
                                        "stats", "report")}
    report = run / "report.html"
    text = report.read_text(encoding="utf-8")
    assert 'id="board-PaintBench"' in text and 'class="card"' in text
    rows = [json.loads(line) for line in (run / "results" / "problem_stats.jsonl").open()]
    assert {r["model"] for r in rows} == {"oracle", "blank"}
    summary = json.loads((run / "results" / "results.json").read_text())  # as eval writes it
    assert summary["config"]["n_boot"] == 50 and summary["models"]["oracle"]["PaintBench"][
        "score"] == 1.0 and summary["benchmarks"]["PaintBench"]["manifest_sha256"]
    assert set(summary["models"]["blank"]["PaintBench"]["outputs_sha256"]) == {
        "removal/0000", "preservation/0000"}
    stamp = report.stat().st_mtime_ns
    assert main(["bench", str(path)]) == 0
    assert set(_steps(capsys.readouterr().err).values()) == {"skipped"}
    assert report.stat().st_mtime_ns == stamp
    # a lost output: its baseline writes it again, eval and what follows run again
    next((run / "outputs" / "blank").rglob("*_output.png")).unlink()
    assert main(["bench", str(path)]) == 0
    steps = _steps(capsys.readouterr().err)
    assert steps["generate"] == steps["baseline oracle"] == "skipped"
    assert steps["baseline blank"] == steps["eval"] == "ran"


def test_flags_and_bad_configs(config, tmp_path, capsys):
    path, _ = config
    bad = tmp_path / "bad.toml"
    bad.write_text('out = "x"\nper_cel = 3\n')
    assert main(["bench", str(bad)]) == 2
    assert "unknown key per_cel" in capsys.readouterr().err
    assert main(["bench", "--benchmarks", "paintbench"]) == 2
    assert "--out DIR" in capsys.readouterr().err
    assert main(["bench", "--out", str(tmp_path / "r"), "--benchmarks", "nope"]) == 2
    assert "expected some of paintbench, tinygrafixbench" in capsys.readouterr().err


def test_runs_a_model_with_paintkit_run(tmp_path, capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parent))  # echo_model, for paintkit run
    run = tmp_path / "run"
    args = ["bench", "--out", str(run), "--tasks", "removal", "--conditions", "baseline",
            "--per-cell", "1", "--size", "128x128", "--baselines", "", "--models",
            "echo_model:echo", "--jobs", "1", "--n-boot", "20", "--gallery-per-model", "0"]
    assert main(args) == 0
    steps = _steps(capsys.readouterr().err)
    assert steps["run echo_model:echo"] == "ran" and "baseline oracle" not in steps
    rows = [json.loads(line) for line in (run / "results" / "problem_stats.jsonl").open()]
    assert rows and all(r["has_output"] for r in rows)
    assert main(args) == 0
    assert set(_steps(capsys.readouterr().err).values()) == {"skipped"}
