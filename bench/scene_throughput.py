"""Scenes sampled and rendered per second at the conditions' sizes, on one core.

    python bench/scene_throughput.py [--seconds 3]

Prints, per visual condition, scenes/s for sampling alone, rendering alone and both, so the
split between Python placement and Skia drawing is visible. Run on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from paintkit.conditions import CONDITIONS  # noqa: E402
from paintkit.errors import RejectedSeed  # noqa: E402
from paintkit.renderers import render  # noqa: E402
from paintkit.sampling.condition import condition_scene  # noqa: E402
from paintkit.seeds import python_rng, seed_from_key  # noqa: E402


def sample(condition: str, i: int):
    for attempt in range(100):
        try:
            return condition_scene(python_rng(seed_from_key("bench", condition, i, attempt)),
                                   condition).scene
        except RejectedSeed:
            continue
    raise RuntimeError("no scene")


def rate(fn, seconds: float) -> float:
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn(n)
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--conditions", nargs="*", default=list(CONDITIONS))
    args = parser.parse_args()
    render(sample("baseline", 0))  # warm up numba and skia
    print(f"{'condition':12s} {'sample/s':>10s} {'render/s':>10s} {'both/s':>10s}")
    for condition in args.conditions:
        scenes = [sample(condition, i) for i in range(50)]
        s = rate(lambda i, c=condition: sample(c, i), args.seconds)
        r = rate(lambda i, sc=scenes: render(sc[i % len(sc)]), args.seconds)
        b = rate(lambda i, c=condition: render(sample(c, i)), args.seconds)
        print(f"{condition:12s} {s:10.1f} {r:10.1f} {b:10.1f}", flush=True)


if __name__ == "__main__":
    main()
