"""TinyGrafixBench generation throughput: the 600 problems into the standard layout (docs/file-layout.md).

    python bench/tinygrafix_generate.py [--jobs 2] [--per-cell 30] [--tasks A,B] [--keep DIR]

Times ``paintkit generate tinygrafixbench`` end to end (process pool of ``--jobs`` workers,
start-up, PNG encoding and writing included) and prints problems/s and the time for the
600 problems of the benchmark (target: under 40 s on 2 cores). Then, in one process, it
times rendering each problem's input and answer separately vs :func:`render_pair` (the
answer reuses the input's rasterised frame) and prints the ratio. Wall and CPU times both
print: on a busy machine the CPU figure is the better estimate of an idle one. Note the machine's load:
the figures are only comparable on an idle machine.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from paintkit.engines import write_suite
from paintkit.sources import generate
from paintkit.tinygrafix import TINYGRAFIX_TASKS
from paintkit.tinygrafix.suite import TinyGrafixSuite


def end_to_end(args) -> None:
    suite = TinyGrafixSuite(tasks=args.tasks, per_cell=args.per_cell)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.keep or tmp)
        start = time.perf_counter()
        summary = write_suite(suite, out, engine="process", jobs=args.jobs, progress=False, overwrite=True)
        seconds = time.perf_counter() - start
    rate = summary.problems / seconds
    print(f"generate: {summary.problems} problems in {seconds:.1f} s wall with {args.jobs} workers = "
          f"{rate:.1f} problems/s; 600 problems -> {600 / rate:.1f} s (target < 40 s)")


def worker_cpu(args) -> None:
    """CPU time of the workers' own job (generate + encode, ``run_unit``) in this process on
    a sample: what 2 idle cores need at best; a busy machine inflates it far less than wall."""
    from paintkit.engines.work import WorkOptions, run_unit

    suite = TinyGrafixSuite(tasks=args.tasks, per_cell=args.cpu_slots)
    run_unit(suite, 0, 1, WorkOptions())  # warm up (imports, font cache)
    cpu = time.process_time()
    run_unit(suite, 0, len(suite), WorkOptions())
    per = (time.process_time() - cpu) / len(suite)
    print(f"worker CPU (1 process, {len(suite)} problems, PNG encoding included): "
          f"{1000 * per:.0f} ms/problem; 600 problems on {args.jobs} idle cores -> "
          f"{600 * per / args.jobs:.1f} s + start-up")


def render_reuse(args) -> None:
    from paintkit.tinygrafix.render import render_chart, render_pair

    pairs = [generate(name, slot, source="tinygrafixbench").metadata for name in TINYGRAFIX_TASKS
             for slot in range(args.reuse_slots)]
    pairs = [(m["input_state"], m["answer_state"]) for m in pairs]
    render_pair(*pairs[0])  # warm up fonts and caches
    n = len(pairs)
    figures = {}
    for label, run in (("separate", lambda i, a: (render_chart(i), render_chart(a))),
                       ("paired", render_pair)):
        wall, cpu = time.perf_counter(), time.process_time()
        for inp, ans in pairs:
            run(inp, ans)
        figures[label] = (time.perf_counter() - wall, time.process_time() - cpu)
    (sw, sc), (pw, pc) = figures["separate"], figures["paired"]
    print(f"render {n} problems (1 process): separate {1000 * sw / n:.0f} ms wall / {1000 * sc / n:.0f} ms "
          f"CPU per problem, paired {1000 * pw / n:.0f} / {1000 * pc / n:.0f} ms; ratio {sc / pc:.2f}x (CPU)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--per-cell", type=int, default=30)
    parser.add_argument("--tasks", type=lambda s: tuple(s.split(",")), default=())
    parser.add_argument("--cpu-slots", type=int, default=3, help="slots per task in the CPU sample")
    parser.add_argument("--reuse-slots", type=int, default=2, help="slots per task in the render test")
    parser.add_argument("--keep", default=None, help="write the tree here instead of a temp folder")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    end_to_end(args)
    worker_cpu(args)
    render_reuse(args)


if __name__ == "__main__":
    main()
