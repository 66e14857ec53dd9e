"""The two flows of docs/code-layout.md ("Two walks, module by module"), walked as they run.

Each flow runs in this process (``--engine inprocess``, ``--jobs 1``) under
``sys.setprofile``; every call into a paintkit module is recorded with the nearest paintkit
module it came from. A walk is the list of paintkit modules in the order they are first
entered, each with its first caller; a *climb* is a call from a module into one its own
part (subpackage) does not import at all, that is, a call back up through a callback or an
object handed down. ``python -m tests.code.flow_walk`` prints both walks.

- ``seed -> PNG``: ``paintkit generate paintbench --tasks translation --per-cell 1`` writes
  one problem (the preservation split off);
- ``chart seed -> PNG``: the same for one TinyGrafixBench problem (``bar_chart_sort_bars``);
- ``output -> report row``: the oracle baseline of that problem is scored by
  ``paintkit eval``, aggregated by ``paintkit stats`` and drawn by ``paintkit report``.

Modules entered only to check arguments or print (``paintkit.io.progress``,
``paintkit.arguments``) are walked too: nothing is left out. Code run while a module is
imported (module bodies, decorators) is not the flow and is not recorded.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tests.code.import_graph import part_of, read_graph, runtime_edges


@dataclass
class Walk:
    """Modules in order of first entry, ``{module: first caller}``, and every
    (caller module, callee module) pair seen."""

    order: list[str] = field(default_factory=list)
    first_caller: dict[str, str | None] = field(default_factory=dict)
    calls: set[tuple[str, str]] = field(default_factory=set)


def _module_of(frame) -> str | None:
    name = frame.f_globals.get("__name__", "")
    return name if name == "paintkit" or name.startswith("paintkit.") else None


def trace(function, *args) -> Walk:
    """Run ``function(*args)`` and record which paintkit modules it enters, in order."""
    walk = Walk()

    def profile(frame, event, arg):
        if event != "call" or frame.f_code.co_name == "<module>":  # a module body
            return
        module = _module_of(frame)
        if module is None:
            return
        caller, back = None, frame.f_back
        while back is not None:
            if "importlib._bootstrap" in back.f_code.co_filename:  # importing: not the flow
                return
            if caller is None:
                caller = _module_of(back)
            back = back.f_back
        if caller is not None and caller != module:
            walk.calls.add((caller, module))
        if module not in walk.first_caller:
            walk.first_caller[module] = caller
            walk.order.append(module)

    sys.setprofile(profile)
    try:
        function(*args)
    finally:
        sys.setprofile(None)
    return walk


def _quiet_main(argv: list[str]) -> None:
    from paintkit.cli.main import main

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    if code not in (None, 0):
        raise RuntimeError(f"paintkit {' '.join(argv)} exited with {code}")


def generate_walk(root: Path) -> Walk:
    """seed -> PNG: one PaintBench problem written into ``root/bench``."""
    return trace(_quiet_main, ["generate", "paintbench", "--tasks", "translation", "--per-cell", "1",
                               "--modes", "amount", "--conditions", "baseline", "--no-preservation",
                               "--engine", "inprocess", "--out", str(root / "bench")])


def chart_walk(root: Path) -> Walk:
    """seed -> PNG for TinyGrafixBench: one chart problem written into ``root/charts``."""
    return trace(_quiet_main, ["generate", "tinygrafixbench", "--tasks", "bar_chart_sort_bars",
                               "--per-cell", "1", "--engine", "inprocess", "--out", str(root / "charts")])


def score_walk(root: Path) -> Walk:
    """output -> report row: the oracle baseline of ``root/bench``, scored, aggregated,
    reported (the baseline is written before the trace starts)."""
    _quiet_main(["baseline", "oracle", "--benchmarks", str(root / "bench"),
                 "--outputs", str(root / "outputs")])

    def flow():
        _quiet_main(["eval", "--benchmarks", str(root / "bench"), "--outputs", str(root / "outputs"),
                     "--results", str(root / "results"), "--jobs", "1"])
        _quiet_main(["stats", "--results", str(root / "results"), "--n-boot", "100"])
        _quiet_main(["report", "--results", str(root / "results"), "--n-boot", "100",
                     "--output", str(root / "report.html")])

    return trace(flow)


def climbs(walk: Walk) -> list[tuple[str, str]]:
    """Calls from a part into a part it does not import (directly or not): a call handed
    back up (a callback, a method of an object passed down)."""
    graph: dict[str, set[str]] = {}
    for edge in runtime_edges(read_graph()):
        graph.setdefault(part_of(edge.source), set()).add(part_of(edge.target))

    def reaches(a: str, b: str) -> bool:
        seen, stack = {a}, [a]
        while stack:
            for nxt in graph.get(stack.pop(), ()):
                if nxt == b:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return a == b

    return sorted((a, b) for a, b in walk.calls if not reaches(part_of(a), part_of(b)))


def parts(walk: Walk) -> list[str]:
    """The parts (subpackages, top-level modules) the walk enters, in order of first entry."""
    return list(dict.fromkeys(part_of(m) for m in walk.order))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        walks = (("seed -> PNG", generate_walk(root)), ("chart seed -> PNG", chart_walk(root)),
                 ("output -> report row", score_walk(root)))
        for title, walk in walks:
            up = climbs(walk)
            print(f"{title}: {len(walk.order)} modules entered in {len(parts(walk))} parts, "
                  f"{len(up)} climbs")
            print("    parts: " + ", ".join(p.removeprefix("paintkit.") for p in parts(walk)))
            for module in walk.order:
                print(f"    {module:45s} <- {walk.first_caller[module]}")
            for a, b in up:
                print(f"    climb: {a} -> {b}")


if __name__ == "__main__":
    main()
