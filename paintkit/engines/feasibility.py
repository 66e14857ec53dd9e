"""Which cells of a custom-size suite cannot be made, said before any work.

A PaintBench suite with another ``--size`` or ``--counts`` has cells (task x condition x
mode) whose scenes or edits may not fit the canvas: 60 shapes of at least 32 px on 256²,
nine distinct bar heights in a short canvas. Generating them would reject seed after seed
until the search gives up. :func:`check_cells` tries each changed cell first: it makes the
cell's first problem (the same call the run makes, so a feasible cell's problems and seeds
are untouched) within :data:`PROBE_SECONDS`, and for a cell that fails it finds the
smallest ``--size`` that works by a bounded trial (bisection over sides on a
:data:`SIDE_STEP` px grid, keeping the requested aspect, up to :data:`MAX_SIDE`). Cells
that keep the benchmark's own canvas and counts are the benchmark's problems and are never
tried. :class:`SkippingSuite` is the suite without the cells that cannot be made
(``--skip-infeasible``); the other problems keep their files' numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from paintkit.attempts import AttemptsExhausted, ImpossibleSlot, slot_seconds
from paintkit.engines.warmup import COMPILING, kernels_cold
from paintkit.errors import one_line
from paintkit.io.progress import Progress
from paintkit.suites.base import SuiteMethods
from paintkit.suites.spec import ProblemSpec

#: Seconds a cell's first problem may take in the check (a problem on a small canvas
#: takes well under a second when the cell is feasible).
PROBE_SECONDS = 10.0
#: The grid and the ceiling of the smallest-size search (canvas sides, px).
SIDE_STEP = 32
MAX_SIDE = 2048


@dataclass(frozen=True)
class Infeasible:
    """A cell that cannot be made at the suite's size: why, and the smallest ``--size``
    (``(W, H)``) that makes its first problem (None: none up to :data:`MAX_SIDE`)."""

    task: str
    condition: str
    mode: str
    canvas: tuple[int, int]
    reason: str
    smallest: tuple[int, int] | None

    def describe(self) -> str:
        where = f"{self.task}:{self.mode} x {self.condition} at {self.canvas[0]}x{self.canvas[1]}"
        fix = (f"smallest size that works: --size {self.smallest[0]}x{self.smallest[1]}"
               if self.smallest else f"no --size up to {MAX_SIDE} px works")
        return f"{where}: cannot be made ({self.reason}); {fix}"


def has_changed_cells(suite) -> bool:
    """Whether ``suite`` changes the benchmark's canvas or counts (so has cells to check)."""
    return getattr(suite, "size", None) is not None or bool(getattr(suite, "counts", ()))


def _cells(suite) -> dict[tuple[str, str, str], int]:
    """The first index of each (task, condition, mode) cell whose seeds differ from the
    benchmark's (a changed canvas or count); empty for any other suite."""
    if not has_changed_cells(suite):
        return {}
    first: dict[tuple[str, str, str], int] = {}
    for index in range(len(suite)):
        spec = suite.spec(index)
        key = (spec.task, spec.condition, spec.mode)
        if key not in first and spec.seed_condition != spec.condition:
            first[key] = index
    return first


def _reason(suite, index: int, seconds: float) -> str | None:
    """None when the problem at ``index`` is made within ``seconds``, else why not."""
    spec = suite.spec(index)
    if spec.seed_condition == spec.condition:  # the benchmark's own cell
        return None
    try:
        with slot_seconds(seconds):
            suite.make_problem(spec)
    except AttemptsExhausted as exc:
        if exc.seconds is not None:
            last = f"; last reason: {one_line(exc.last)}" if exc.last is not None else ""
            return f"no problem within {seconds:.0f} s{last}"
        return f"{exc.attempts} seeds rejected; last reason: {one_line(exc.last)}"
    except ImpossibleSlot as exc:
        return one_line(exc.__cause__ or exc)
    return None


def _size(suite, side: int) -> tuple[int, int]:
    width, height = suite.size or (1024, 1024)
    return side, max(128, round(side * height / width))


def cell_feasibility(suite, index: int, seconds: float = PROBE_SECONDS) -> Infeasible | None:
    """The cell of problem ``index``: None when it can be made, else :class:`Infeasible`
    with the smallest size found by trial (a worker function: module-level, picklable)."""
    reason = _reason(suite, index, seconds)
    if reason is None:
        return None
    spec = suite.spec(index)
    condition = suite.condition(spec.condition)
    canvas = (condition.width, condition.height)
    low = suite.size[0] if suite.size else 1024

    def works(side: int) -> bool:
        return _reason(replace(suite, size=_size(suite, side)), index, seconds) is None

    high = max(1024, -(-(low + 1) // SIDE_STEP) * SIDE_STEP)
    while high <= MAX_SIDE and not works(high):
        low, high = high, high * 2
    if high > MAX_SIDE:
        return Infeasible(spec.task, spec.condition, spec.mode, canvas, reason, None)
    # low fails, high works: bisect on the grid (assumes a larger canvas never fails)
    while high - low > SIDE_STEP:
        middle = (low + high) // 2 // SIDE_STEP * SIDE_STEP
        if middle <= low:
            break
        if works(middle):
            high = middle
        else:
            low = middle
    return Infeasible(spec.task, spec.condition, spec.mode, canvas, reason,
                      _size(suite, high))


def check_cells(suite, engine, *, show: bool = True,
                seconds: float = PROBE_SECONDS) -> list[Infeasible]:
    """Every changed cell of ``suite`` that cannot be made, in suite order, tried on
    ``engine``'s workers (:func:`cell_feasibility` for each); [] for the benchmark's
    own canvas and counts."""
    cells = _cells(suite)
    if not cells:
        return []
    bar = Progress(len(cells), verb="checked cells", enabled=show, unit="cells")
    if show and kernels_cold():  # the check is the first work of a first run
        bar.note = COMPILING
    pending = {engine.call(cell_feasibility, suite, index, seconds): index
               for index in cells.values()}
    found: dict[int, Infeasible] = {}
    try:
        while pending:
            finished, _ = engine.poll(set(pending), 1.0)
            if not finished:
                bar.tick()
            for handle, result in finished:
                index = pending.pop(handle)
                if result is not None:
                    found[index] = result
                bar.update(processed=1)
    finally:
        bar.close()
    return [found[i] for i in sorted(found)]


class SkippingSuite(SuiteMethods):
    """``base`` without the problems of the ``skipped`` cells (``(task, condition, mode)``);
    every other problem keeps its spec (its file number, seeds and bytes), re-indexed in
    order. The manifest records the skipped cells (``to_dict``)."""

    def __init__(self, base: Any, skipped: Sequence[tuple[str, str, str]]):
        self.base, self.skipped = base, tuple(sorted(set(map(tuple, skipped))))
        drop = set(self.skipped)
        self._keep = [i for i in range(len(base))
                      if (lambda s: (s.task, s.condition, s.mode))(base.spec(i)) not in drop]

    @property
    def benchmark(self) -> str:
        return self.base.benchmark

    def __len__(self) -> int:
        return len(self._keep)

    def __getattr__(self, name: str) -> Any:  # tasks, conditions, per_cell, task_modes, ...
        if name in ("base", "skipped", "_keep"):
            raise AttributeError(name)
        return getattr(self.base, name)

    def spec(self, index: int, round: int = 0) -> ProblemSpec:
        if not 0 <= index < len(self._keep):
            raise IndexError(f"problem index {index} outside [0, {len(self._keep)})")
        return replace(self.base.spec(self._keep[index], round), index=index)

    def make_problem(self, spec: ProblemSpec) -> Any:
        return self.base.make_problem(spec)

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.base.to_dict())
        out["skipped_cells"] = [list(cell) for cell in self.skipped]
        return out
