"""Problems generated per second per task, in memory (no encoding), on one core.

    python bench/task_throughput.py [--seconds 2] [--tasks translation rotation ...]

Cycles through the 8 visual conditions and the task's modes (PaintBench's mix) and prints
problems/s per task, plus the mean over tasks. Run with the machine otherwise idle.
"""

from __future__ import annotations

import argparse
import itertools
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from paintkit.conditions import CONDITIONS  # noqa: E402
from paintkit.sources import generate  # noqa: E402
from paintkit.tasks import TASKS, task_spec  # noqa: E402


def throughput(task: str, seconds: float) -> float:
    modes = task_spec(task).modes
    cells = list(itertools.product(CONDITIONS, modes))
    generate(task, 0, cells[0][0], cells[0][1])  # warm up (numba compile, imports)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds or n < len(cells):
        condition, mode = cells[n % len(cells)]
        generate(task, 1000 + n, condition, mode)
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--tasks", nargs="*", default=None)
    args = parser.parse_args()
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass
    rates = {}
    for task in args.tasks or TASKS:
        rates[task] = throughput(task, args.seconds)
        print(f"{task:18s} {rates[task]:8.1f} problems/s", flush=True)
    print(f"{'mean':18s} {sum(rates.values()) / len(rates):8.1f} problems/s")


if __name__ == "__main__":
    main()
