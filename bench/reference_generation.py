"""Generation throughput of the reference-image families beside PaintBench's, on the same run.

    python -m bench.reference_generation [--problems 48] [--sections paintbench,references]

Each section makes ``--problems`` problems spread evenly over its suite (so the task and
condition mix is the suite's), in memory, in this one process, and prints the CPU seconds
per problem (process time: what a busy machine distorts least), the wall seconds per problem
and the problems per CPU second; PaintBench's row is the yardstick the other rows are read
against. Sections: ``paintbench`` (the 2,016-problem benchmark's 20 tasks x 8 conditions),
``references`` (the scene reference suite, docs/references.md), ``style-transfer`` (the
chart style transfer suite, docs/references.md; its charts are drawn by matplotlib) and
``tinygrafixbench`` (the 600 chart problems it builds on, drawn by the same renderer).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from bench.generate_common import spread  # noqa: E402
from paintkit.suites import Suite  # noqa: E402
from paintkit.suites.references import ReferenceSuite  # noqa: E402
from paintkit.tinygrafix.style_suite import StyleTransferSuite  # noqa: E402
from paintkit.tinygrafix.suite import TinyGrafixSuite  # noqa: E402

#: Section name -> the suite it times (the whole suite; ``--problems`` of it are made).
SECTIONS: dict[str, Callable[[], object]] = {
    "paintbench": lambda: Suite(preservation=False),
    "references": ReferenceSuite,
    "style-transfer": StyleTransferSuite,
    "tinygrafixbench": TinyGrafixSuite,
}


def time_suite(suite, problems: int) -> dict[str, float]:
    """CPU and wall seconds per problem over ``problems`` problems spread over ``suite``
    (one warm-up problem first, not timed: imports, Numba compilation)."""
    indices = spread(len(suite), problems)
    suite.make_problem(suite.spec(indices[-1]))
    images = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for i in indices:
        problem = suite.make_problem(suite.spec(i))
        images += 2 + len(problem.references)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    n = len(indices)
    return {"problems": n, "cpu_s": cpu / n, "wall_s": wall / n, "per_cpu_s": n / cpu,
            "images": images / n}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=48, help="problems per section")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"comma-separated, of: {', '.join(SECTIONS)}")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.sections.split(",") if n.strip()]
    unknown = [n for n in names if n not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; allowed: {', '.join(SECTIONS)}")
    print(f"{'section':16s} {'problems':>8s} {'CPU ms/problem':>15s} {'wall ms/problem':>16s} "
          f"{'problems/CPU s':>15s} {'images/problem':>15s}")
    base = None
    for name in names:
        row = time_suite(SECTIONS[name](), args.problems)
        base = row["cpu_s"] if name == "paintbench" else base
        ratio = f"  ({row['cpu_s'] / base:.2f}x PaintBench's CPU)" if base and name != "paintbench" else ""
        print(f"{name:16s} {row['problems']:8d} {1000 * row['cpu_s']:15.1f} "
              f"{1000 * row['wall_s']:16.1f} {row['per_cpu_s']:15.2f} {row['images']:15.1f}{ratio}",
              flush=True)


if __name__ == "__main__":
    main()
