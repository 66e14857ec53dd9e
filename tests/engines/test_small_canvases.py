"""Small canvases fail fast: the cells that cannot be made are named before any work (with
the smallest size that works) and can be skipped without changing the others' bytes; a
problem's search has a time limit, also inside a long attempt; the progress line moves
while a unit works; the first Ctrl-C stops a run whose unit would take minutes."""

import hashlib
import io
import itertools
import signal
import time
from dataclasses import replace

import pytest

import paintkit.attempts as attempts_module
import paintkit.io.progress as progress_module
from paintkit.attempts import AttemptsExhausted, check_time, search_attempts, slot_seconds
from paintkit.cli.main import main
from paintkit.engines import write_suite
from paintkit.engines.feasibility import SkippingSuite, cell_feasibility
from paintkit.errors import RejectedSeed
from paintkit.io.progress import Progress
from tests.support.generate_helpers import small_suite


def _generate(out, *extra):
    return ["generate", "paintbench", "--out", str(out), "--tasks", "comparison", "--per-cell",
            "1", "--size", "512x512", "--engine", "inprocess", "--quiet", *extra]


def test_cells_that_cannot_be_made_are_named_before_any_work(tmp_path, capsys):
    out = tmp_path / "x"
    code = main(_generate(out, "--conditions", "baseline,n_xhigh"))
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert lines[0] == ("paintkit generate: error: 1 cell(s) cannot be made at 512x512 "
                        "(checked before any work):")
    assert lines[1].startswith("  comparison:default x n_xhigh at 512x512: cannot be made (200 "
                               "seeds rejected; last reason: ")
    assert "do not fit the size range" in lines[1]
    assert lines[1].endswith("smallest size that works: --size 544x544")
    assert "--skip-infeasible" in lines[2] and "Traceback" not in err
    assert not out.exists()  # nothing written, not even a lock


def test_the_smallest_size_reported_works_and_the_one_below_does_not():
    suite = small_suite(tasks=("comparison",), conditions=("n_xhigh",), per_cell=1,
                        preservation=False, size=(512, 512))
    found = cell_feasibility(suite, 0)
    assert found is not None and found.smallest == (544, 544)  # the next side on the grid
    assert cell_feasibility(replace(suite, size=(544, 544)), 0) is None
    assert cell_feasibility(replace(suite, size=(1024, 1024)), 0) is None


def _digests(root):
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.suffix in (".png", ".json")
            and p.name != "manifest.json"}


def test_skip_infeasible_makes_the_rest_with_the_same_bytes(tmp_path, capsys):
    assert main(_generate(tmp_path / "skip", "--conditions", "baseline,n_xhigh",
                          "--skip-infeasible")) == 0
    err = capsys.readouterr().err
    assert "--skip-infeasible leaves out 1 cell(s):" in err and "n_xhigh at 512x512" in err
    assert main(_generate(tmp_path / "alone", "--conditions", "baseline")) == 0
    skipped, alone = _digests(tmp_path / "skip"), _digests(tmp_path / "alone")
    assert skipped == alone and len(skipped) == 3  # 000_input.png, 000_answer.png, 000.json


def test_a_skipping_suite_keeps_every_other_spec():
    suite = small_suite(per_cell=2)
    skip = SkippingSuite(suite, [("translation", "horizontal", suite.spec(2).mode)])
    kept = [suite.spec(i) for i in range(len(suite))
            if (suite.spec(i).task, suite.spec(i).condition) != ("translation", "horizontal")
            or suite.spec(i).mode != suite.spec(2).mode]
    assert len(skip) == len(kept) < len(suite)
    assert [(s.problem_id, s.folder, s.idx) for s in skip.specs()] == \
        [(s.problem_id, s.folder, s.idx) for s in kept]
    assert skip.to_dict()["skipped_cells"] == [["translation", "horizontal", suite.spec(2).mode]]


class _Clock:
    """A stand-in for the ``time`` module of :mod:`paintkit.attempts`: ``monotonic()`` reads
    ``now``, which only the test moves (``step`` more on every read when ``step`` is set).
    A loaded machine cannot change what the search sees, so the counts below are exact."""

    def __init__(self, step: float = 0.0):
        self.now, self.step, self.reads = 0.0, step, 0

    def monotonic(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = _Clock()
    monkeypatch.setattr(attempts_module, "time", fake)
    return fake


def test_a_slot_gives_up_after_its_time_limit(clock):
    def reject_slowly(seed):
        clock.now += 1 / 32  # each attempt takes 1/32 s
        raise RejectedSeed(f"seed {seed} is no good")

    # binary fractions: attempt k ends at (k+1)/32 s, past the 1/8 s limit after 5 attempts
    with slot_seconds(1 / 8), pytest.raises(AttemptsExhausted, match=r"demo slot 0: gave up after "
                                            r"5 attempts in 0 s .*last reason: seed 4 is no"):
        search_attempts(lambda a: a, reject_slowly, what="demo slot 0")


def test_the_time_limit_holds_inside_one_long_attempt(clock):
    steps = []

    def one_long_attempt(seed):
        for _ in range(10_000):  # a sampler's restarts: each checks the clock
            clock.now += 1 / 32
            steps.append(seed)
            check_time()
        return "made"  # the limit did not hold: the search returns, the test fails

    with slot_seconds(1 / 8), pytest.raises(AttemptsExhausted, match="gave up after 1 attempts"):
        search_attempts(lambda a: a, one_long_attempt, what="demo")
    assert len(steps) == 5  # the first check past 1/8 s gave up, inside attempt 0
    check_time()  # outside a search: nothing to give up


def test_an_impossible_scene_gives_up_on_the_clock_not_after_200_attempts(monkeypatch):
    suite = small_suite(tasks=("translation",), conditions=("n_xhigh",), per_cell=1,
                        preservation=False, size=(256, 256))
    # The real sampler with a clock that moves 0.1 s at each read: its restarts check the
    # clock (about 20 per attempt), so the 1 s limit ends the search inside attempt 0 on
    # any machine, however loaded; 200 attempts of real work would take minutes.
    monkeypatch.setattr(attempts_module, "time", _Clock(step=0.1))
    start = time.monotonic()
    with slot_seconds(1.0), pytest.raises(AttemptsExhausted, match=r"translation/amount/"
                                          r"n_xhigh@256x256 slot 0: gave up after 1 attempts "
                                          r"in 1 s \(the time limit"):
        suite.make_problem(suite.spec(0))
    assert time.monotonic() - start < 60.0  # a runaway search (the clock ignored) takes minutes


def test_the_progress_line_moves_while_nothing_finishes(monkeypatch):
    ticks = itertools.count(0.0, 10.0)
    monkeypatch.setattr(progress_module, "_now", lambda: next(ticks))
    stream = io.StringIO()
    bar = Progress(100, verb="generated", stream=stream)
    bar.note = "compiling kernels (first run only)"
    bar.tick()
    bar.tick()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2 and lines[0] != lines[1]  # the clock moved
    assert "ETA ? (compiling kernels (first run only))" in lines[-1]
    assert lines[-1].endswith("0:20 elapsed")


def test_the_eta_leaves_out_the_warm_up(monkeypatch):
    clock = iter([0.0, 600.0, 602.0])
    monkeypatch.setattr(progress_module, "_now", lambda: next(clock))
    stream = io.StringIO()
    bar = Progress(1000, verb="generated", stream=stream)  # start: 0 s
    bar.update(processed=4)  # 600 s: the first batch, after compiling
    assert "ETA ?" in bar.line(601.0)
    bar.update(processed=4)  # 602 s: 4 more in 2 s: 2 problems/s
    assert "ETA 8:16" in bar.line(602.0)  # 992 left at 2/s, not at 8 in 603 s (20 hours)


def test_the_first_ctrl_c_stops_a_long_unit_at_once(tmp_path):
    suite = small_suite(tasks=("translation",), conditions=("n_xhigh",), per_cell=1,
                        preservation=False, size=(256, 256))  # one attempt alone takes ~6 s

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 3.0)
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            write_suite(suite, tmp_path, engine="process", jobs=1, progress=False,
                        slot_seconds=None)  # the unit would run for many minutes
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - start < 15.0


def test_slot_seconds_must_be_a_number_of_seconds(tmp_path, capsys):
    assert main(_generate(tmp_path / "x", "--conditions", "baseline", "--slot-seconds",
                          "-1")) == 2
    err = capsys.readouterr().err
    assert "--slot-seconds must be a number of seconds >= 0, got -1.0" in err
    assert not (tmp_path / "x").exists()
