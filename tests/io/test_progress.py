"""One progress display for ``paintkit generate`` and ``paintkit eval`` (issue 16, item 4):
redrawn in place on a terminal, a plain line every few seconds in a pipe or a log."""

import io
import itertools

import pytest

import paintkit.io.progress as progress_module
from paintkit.cli.main import main
from paintkit.eval.synthetic import write_synthetic_tree
from paintkit.io.progress import LOG_INTERVAL, Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def stepped_clock(monkeypatch):
    """Every read of the progress clock moves it 1 s on."""
    ticks = itertools.count(0.0, 1.0)
    monkeypatch.setattr(progress_module, "_now", lambda: next(ticks))


def test_a_pipe_gets_a_plain_line_every_log_interval(stepped_clock):
    stream = io.StringIO()
    bar = Progress(40, verb="scored", stream=stream)
    for _ in range(40):
        bar.update(processed=1)
    bar.close()
    text = stream.getvalue()
    assert "\r" not in text and text.endswith("\n")
    lines = text.splitlines()
    # 40 updates 1 s apart: one line per LOG_INTERVAL seconds, plus the closing one.
    assert len(lines) == 40 // int(LOG_INTERVAL)
    assert lines[-1].startswith("scored [" + "#" * 24 + "] 40/40 100%")
    assert "problems/s" in lines[-1] and "ETA 0:00" in lines[-1]


def test_a_terminal_gets_one_line_redrawn_in_place(stepped_clock):
    stream = Terminal()
    bar = Progress(10, verb="generated", stream=stream)
    for _ in range(10):
        bar.update(processed=1)
    bar.close()
    text = stream.getvalue()
    assert text.count("\n") == 1 and text.endswith("\n")  # only close() ends the line
    assert text.count("\r") == 10  # a clock 1 s apart redraws at every update
    assert text.rstrip().split("\r")[-1].startswith("generated [" + "#" * 24 + "] 10/10 100%")


def test_skipped_problems_count_towards_the_total_not_the_rate(stepped_clock):
    stream = io.StringIO()
    bar = Progress(10, verb="scored", stream=stream)
    bar.update(skipped=6)
    bar.update(processed=4)
    last = stream.getvalue().splitlines()[-1]
    assert "10/10 100%" in last and "(6 already there)" in last
    assert "2.0 problems/s" in last  # 4 processed in 2 clock steps; the 6 skipped are free


def test_quiet_prints_nothing(stepped_clock):
    stream = Terminal()
    bar = Progress(3, enabled=False, stream=stream)
    bar.update(processed=3)
    bar.close()
    assert stream.getvalue() == ""


# Through both commands: the same display, as a terminal or as a pipe sees it.

def _generate(out):
    return ["generate", "paintbench", "--out", str(out), "--tasks", "translation",
            "--conditions", "vertical", "--per-cell", "2", "--modes", "amount",
            "--engine", "inprocess"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return write_synthetic_tree(tmp_path_factory.mktemp("tree"), problems=6, tasks=2,
                                width=16, height=16, models=("exact",), missing_every=0,
                                corrupt_every=0, resized_every=0)


def _eval(tree, out):
    bench, outputs = tree
    return ["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results", str(out),
            "--jobs", "1"]


@pytest.mark.parametrize("command, verb, total", [("generate", "generated", 2),
                                                   ("eval", "scored", 6)])
@pytest.mark.parametrize("stream_kind", ["terminal", "pipe"])
def test_both_commands_show_the_same_display(command, verb, total, stream_kind, tree,
                                             tmp_path, monkeypatch, stepped_clock):
    stream = Terminal() if stream_kind == "terminal" else io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    argv = _generate(tmp_path / "bench") if command == "generate" else \
        _eval(tree, tmp_path / "results")
    assert main(argv) == 0
    text = stream.getvalue()
    bar_lines = [part for part in text.replace("\r", "\n").splitlines()
                 if part.startswith(f"{verb} [")]
    assert bar_lines, text
    assert bar_lines[-1].startswith(f"{verb} [{'#' * 24}] {total}/{total} 100%")
    assert "problems/s" in bar_lines[-1] and "ETA" in bar_lines[-1]
    if stream_kind == "terminal":
        assert f"\r{verb} [" in text
    else:
        assert "\r" not in text


@pytest.mark.parametrize("command", ["generate", "eval"])
def test_both_commands_are_silent_with_quiet(command, tree, tmp_path, monkeypatch):
    stream = Terminal()
    monkeypatch.setattr("sys.stderr", stream)
    argv = _generate(tmp_path / "bench") if command == "generate" else \
        _eval(tree, tmp_path / "results")
    assert main([*argv, "--quiet"]) == 0
    assert "\r" not in stream.getvalue() and " [" + "#" * 24 not in stream.getvalue()
