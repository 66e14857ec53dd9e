"""Memory over a long corpus run: resident memory of the driver and its workers over time.

    python -m bench.generate_memory [--problems 20000] [--tasks translation] [--jobs 2]
                                    [--format webdataset] [--size WxH]

Generates a corpus of about ``--problems`` problems (namespace ``membench``, all 8
conditions, the tasks' modes split evenly) into a temporary folder and samples the
resident set size (VmRSS, Linux ``/proc``) of the driver and of every worker once a
second. Prints RSS at each tenth of the run: flat columns mean memory does not grow with
the suite size. Side by side: the first and last tenth, and their ratio.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import threading
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from bench.generate_common import bench_suite
from paintkit.engines import write_suite


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _descendants(pid: int) -> list[int]:
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    parents[int(name)] = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    out, frontier = [], [pid]
    while frontier:
        children = [p for p, parent in parents.items() if parent in frontier]
        out += children
        frontier = children
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=20000)
    parser.add_argument("--tasks", default="translation")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--format", default="webdataset")
    parser.add_argument("--size", default=None)
    args = parser.parse_args()
    probe = bench_suite(args.tasks, args.size, per_cell=1, preservation=False)
    per_cell = max(1, round(args.problems / len(probe)))
    suite = bench_suite(args.tasks, args.size, per_cell=per_cell, namespace="membench",
                        preservation=False)
    print(f"{len(suite):,} problems ({', '.join(suite.tasks)}), {args.format}, {args.jobs} workers, "
          f"load avg {os.getloadavg()[0]:.1f}")
    samples: list[tuple[float, float, float]] = []
    stop = threading.Event()
    me = os.getpid()

    def sample() -> None:
        while not stop.wait(1.0):
            workers = [_rss_mb(p) for p in _descendants(me)]
            samples.append((time.perf_counter(), _rss_mb(me), max(workers, default=0.0)))

    root = tempfile.mkdtemp(prefix="pk-membench-")
    thread = threading.Thread(target=sample, daemon=True)
    start = time.perf_counter()
    thread.start()
    try:
        summary = write_suite(suite, root, format=args.format, jobs=args.jobs, progress=False)
    finally:
        stop.set()
        thread.join()
        shutil.rmtree(root, ignore_errors=True)
    total = time.perf_counter() - start
    print(summary.describe())
    print(f"{'progress':>9s} {'driver MB':>10s} {'worker MB (max)':>16s}")
    for tenth in range(1, 11):
        upto = [s for s in samples if s[0] - start <= total * tenth / 10]
        if upto:
            _, driver, worker = upto[-1]
            print(f"{tenth * 10:8d}% {driver:10.1f} {worker:16.1f}")
    if len(samples) >= 10:
        first, last = samples[len(samples) // 10], samples[-1]
        print(f"last / first tenth: driver {last[1] / first[1]:.3f}x, worker {last[2] / first[2]:.3f}x")


if __name__ == "__main__":
    main()
