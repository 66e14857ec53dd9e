"""TinyGrafixBench generation throughput: the 600 problems into the SPEC 5 layout.

    python bench/tinygrafix_generate.py [--jobs 2] [--per-cell 30] [--tasks A,B] [--keep DIR]

Times ``paintkit generate tinygrafixbench`` end to end (process pool of ``--jobs`` workers,
start-up, PNG encoding and writing included) and prints problems/s and the time for the
600 problems of the benchmark (target: under 40 s on 2 cores). Then, in one process, it
times rendering each problem's input and answer separately vs :func:`render_pair` (the
answer reuses the input's figure frame) and prints the ratio. Note the machine's load:
the figures are only comparable on an idle machine.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from paintkit.charts import TINYGRAFIX_TASKS, generate_chart_problem
from paintkit.engines import generate
from paintkit.suites.tinygrafix import TinyGrafixSuite


def end_to_end(args) -> None:
    suite = TinyGrafixSuite(tasks=args.tasks, per_cell=args.per_cell)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.keep or tmp)
        start = time.perf_counter()
        summary = generate(suite, out, engine="process", jobs=args.jobs, progress=False, overwrite=True)
        seconds = time.perf_counter() - start
    rate = summary.problems / seconds
    print(f"generate: {summary.problems} problems in {seconds:.1f} s with {args.jobs} workers = "
          f"{rate:.1f} problems/s; 600 problems -> {600 / rate:.1f} s (target < 40 s)")


def render_reuse(args) -> None:
    from paintkit.renderers.charts import render_chart, render_pair

    pairs = [generate_chart_problem(name, slot).metadata for name in TINYGRAFIX_TASKS
             for slot in range(args.reuse_slots)]
    pairs = [(m["input_state"], m["answer_state"]) for m in pairs]
    render_pair(*pairs[0])  # warm up fonts and caches
    start = time.perf_counter()
    for inp, ans in pairs:
        render_chart(inp), render_chart(ans)
    separate = time.perf_counter() - start
    start = time.perf_counter()
    for inp, ans in pairs:
        render_pair(inp, ans)
    paired = time.perf_counter() - start
    n = len(pairs)
    print(f"render {n} problems (1 process): separate {1000 * separate / n:.1f} ms/problem, "
          f"paired {1000 * paired / n:.1f} ms/problem, ratio {separate / paired:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--per-cell", type=int, default=30)
    parser.add_argument("--tasks", type=lambda s: tuple(s.split(",")), default=())
    parser.add_argument("--reuse-slots", type=int, default=2, help="slots per task in the render test")
    parser.add_argument("--keep", default=None, help="write the tree here instead of a temp folder")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    end_to_end(args)
    render_reuse(args)


if __name__ == "__main__":
    main()
