"""``paintkit generate paintbench`` to files, side by side: directory, WebDataset, Parquet.

    python -m bench.generate_files [--jobs 2] [--formats directory,webdataset,parquet]
                                   [--tasks a,b] [--per-cell 12] [--keep DIR]

Times the whole run as a user sees it (worker start-up included) for each format, into a
fresh temporary folder, next to the in-memory ceiling (the same pool generating and
encoding PNGs but writing nothing). With all 20 tasks the suite is the 2,016-problem
benchmark; with fewer, the last column extrapolates to 2,016 problems at the measured rate
(labelled "extrapolated"). CPU ms per problem counts every process (driver and workers,
start-up included): on a shared machine it is the steadier figure; run it a few times. The
stages inside those milliseconds and their floors: ``bench/stage_breakdown.py generate``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from bench.generate_common import bench_suite, tree_cpu_seconds
from paintkit.engines import ProcessPoolEngine, WorkOptions, write_suite
from paintkit.tasks import TASKS

PAINTBENCH_PROBLEMS = 2016


def encode_only(suite, jobs: int) -> tuple[float, float]:
    """(seconds, problems/s): the pool generates and encodes everything, nothing is written."""
    start = time.perf_counter()
    options = WorkOptions(encode=True)
    with ProcessPoolEngine(jobs) as engine:
        pending, queue, done = set(), list(range(0, len(suite), 4)), 0
        while queue or pending:
            while queue and len(pending) < 2 * jobs:
                a = queue.pop(0)
                pending.add(engine.submit(suite, a, min(a + 4, len(suite)), options))
            finished, pending = engine.wait(pending)
            done += sum(len(r) for _, r in finished)
    seconds = time.perf_counter() - start
    return seconds, done / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--formats", default="directory,webdataset,parquet")
    parser.add_argument("--tasks", default=None)
    parser.add_argument("--per-cell", type=int, default=12)
    parser.add_argument("--shard-size", type=int, default=500)
    parser.add_argument("--keep", default=None, help="write into DIR/<format> and keep it")
    args = parser.parse_args()
    suite = bench_suite(args.tasks, per_cell=args.per_cell)
    full = len(suite.tasks) == len(TASKS) and args.per_cell == 12
    print(f"suite: {len(suite.tasks)} tasks, {len(suite)} problems; {args.jobs} workers; "
          f"cores: {os.cpu_count()}, load avg {os.getloadavg()[0]:.1f}")
    label = "s for 2,016" if full else "s for 2,016 (extrapolated)"
    cpu_start = tree_cpu_seconds()
    seconds, rate = encode_only(suite, args.jobs)
    cpu = (tree_cpu_seconds() - cpu_start) * 1000 / len(suite)
    print(f"{'pool, encode, no writes':26s} {seconds:7.1f} s {rate:8.1f} problems/s   1.00x "
          f"{PAINTBENCH_PROBLEMS / rate:6.1f} {label}  {cpu:5.1f} CPU ms/problem")
    for format in args.formats.split(","):
        root = os.path.join(args.keep, format) if args.keep else tempfile.mkdtemp(prefix="pk-bench-")
        shutil.rmtree(root, ignore_errors=True)
        cpu_start = tree_cpu_seconds()
        summary = write_suite(suite, root, format=format, jobs=args.jobs, progress=False,
                           shard_size=args.shard_size)
        ratio = summary.problems_per_second / rate
        print(f"{'generate --format ' + format:26s} {summary.seconds:7.1f} s "
              f"{summary.problems_per_second:8.1f} problems/s {ratio:6.2f}x "
              f"{PAINTBENCH_PROBLEMS / summary.problems_per_second:6.1f} {label}  "
              f"{(tree_cpu_seconds() - cpu_start) * 1000 / len(suite):5.1f} CPU ms/problem  "
              f"{summary.files:,} files, {summary.nbytes / 1e6:,.0f} MB")
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
