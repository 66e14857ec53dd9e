"""Problems generated per second, in memory (no encoding), on one core, for the harder
suites: multi-edit and conversational (2 and 3 steps), visual guidance, and SVG writing.

    python bench/harder_throughput.py [--seconds 2]

Cycles through the 8 visual conditions (and, for guidance, the 5 guided tasks). For
reference it also times the single tasks the chains are built from (translation, recolor)
and prints each suite's rate as a ratio to them. SVG: the extra cost of
``problem_svgs`` per PaintBench problem (translation, the scene-based path, and gradient,
the pixel-patch path). Run with the machine otherwise idle.
"""

from __future__ import annotations

import argparse
import itertools
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from paintkit.conditions import CONDITIONS  # noqa: E402
from paintkit.guidance import GUIDED_TASKS  # noqa: E402
from paintkit.renderers.svg_scene import problem_svgs  # noqa: E402
from paintkit.sources import generate  # noqa: E402


def rate(make, cells, seconds: float) -> float:
    make(cells[0], 0)  # warm up (numba compile, imports)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds or n < len(cells):
        make(cells[n % len(cells)], 1000 + n)
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    conds = list(CONDITIONS)
    s = args.seconds
    single = {t: rate(lambda c, k, t=t: generate(t, k, c, None), conds, s)
              for t in ("translation", "recolor")}
    ref = sum(single.values()) / len(single)
    rows = {f"single {t}": r for t, r in single.items()}
    for kind, steps in itertools.product(("multi_edit", "conversational"), (2, 3)):
        rows[f"{kind} steps{steps}"] = rate(
            lambda c, k, kind=kind, steps=steps: generate(kind, k, c, f"steps{steps}",
                                                          source="compositional"), conds, s)
    cells = list(itertools.product(GUIDED_TASKS, conds))
    rows["guidance"] = rate(lambda c, k: generate(c[0], k, c[1], source="guidance"), cells, s)
    for task in ("translation", "gradient"):
        problems = [generate(task, 0, c, None) for c in conds]
        rows[f"svg {task} (pairs/s)"] = rate(
            lambda p, k: problem_svgs(p.metadata, p.input, p.answer), problems, s)
    for name, r in rows.items():
        print(f"{name:28s} {r:8.1f} problems/s  ({r / ref:5.2f} x single-task mean)", flush=True)


if __name__ == "__main__":
    main()
