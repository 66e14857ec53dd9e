"""``paintkit eval`` over PNG files vs a per-problem loop of the NumPy oracle.

    python bench/eval_side_by_side.py [--problems 1000] [--size 1024] [--jobs 2]
                                      [--oracle-problems 60] [--keep DIR]

Synthesises a SPEC 5 tree (palette inputs/answers; one model whose outputs are mostly
flat palette images, every 4th a noisy one, plus missing, corrupt and resized files),
times ``evaluate`` (all problems, ``--jobs`` processes, start-up included), then the oracle
decoding the same files with Pillow on the first ``--oracle-problems`` problems (one
process), and prints problems/s and the ratio. A breakdown times decode vs counting.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "metrics"))
import numpy as np  # noqa: E402
import oracle  # noqa: E402

from paintkit.evaluate import discover_problems, evaluate  # noqa: E402
from paintkit.evaluate.synthetic import model_output, synthetic_problem  # noqa: E402
from paintkit.io.images import encode_png, load_rgb, write_png  # noqa: E402


def synthesise(root: Path, problems: int, size: int) -> tuple[Path, Path]:
    rng = np.random.default_rng(0)
    bench, outs = root / "benchmarks" / "PaintBench", root / "outputs" / "model" / "PaintBench"
    for n in range(problems):
        task, idx = f"task_{n % 20:02d}", n // 20
        inp, ans = synthetic_problem(rng, size, size, n_shapes=10)
        folder = bench / task
        write_png(folder / f"{idx:03d}_input.png", inp)
        write_png(folder / f"{idx:03d}_answer.png", ans)
        meta = {"task": task, "mode": "default", "visual_condition": "baseline",
                "bg_colors": []}
        (folder / f"{idx:03d}.json").write_text(json.dumps(meta))
        path = outs / task / f"{idx:04d}_output.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        if n % 50 == 49:
            continue  # missing
        style = "noisy" if n % 4 == 3 else ("resized" if n % 25 == 24 else "partial")
        data = encode_png(model_output(rng, ans, inp, style))
        path.write_bytes(data[: len(data) // 2] if n % 70 == 69 else data)
    return root / "benchmarks", root / "outputs"


def oracle_loop(problems, outputs_root: Path) -> float:
    start = time.perf_counter()
    for p in problems:
        out = p.output_path(outputs_root, "model")
        try:
            output = oracle.decode(out)
        except (OSError, ValueError, SyntaxError):
            output = None
        oracle.problem_stats(output, oracle.decode(p.answer_path), oracle.decode(p.input_path))
    return len(problems) / (time.perf_counter() - start)


def breakdown(problems, outputs_root: Path) -> None:
    import torch

    from paintkit.metrics import tolerance_statistics
    from paintkit.metrics.reference import Reference

    torch.set_num_threads(1)  # as in eval's workers: no torch/Numba OpenMP spin contention
    decode = count = 0.0
    for p in problems:
        t0 = time.perf_counter()
        a, i = load_rgb(p.answer_path), load_rgb(p.input_path)
        try:
            o = load_rgb(p.output_path(outputs_root, "model"))
        except ValueError:
            o = None
        t1 = time.perf_counter()
        tolerance_statistics([o], Reference(a[None], i[None]), backend="numba").scores()
        decode += t1 - t0
        count += time.perf_counter() - t1
    n = len(problems)
    print(f"breakdown, 1 process: decode 3 PNGs {decode / n * 1e3:.1f} ms, normalise + Lab + "
          f"count + stats {count / n * 1e3:.1f} ms per problem")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--problems", type=int, default=1000)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--oracle-problems", type=int, default=60)
    parser.add_argument("--keep", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        start = time.perf_counter()
        bench, outputs = synthesise(root, args.problems, args.size)
        print(f"synthesised {args.problems} problems ({args.size}x{args.size}) in "
              f"{time.perf_counter() - start:.0f} s")
        summary = evaluate(bench, outputs, root / "results", jobs=args.jobs, progress=False)
        rate = summary.problems_per_second
        print(f"paintkit eval --jobs {args.jobs}: {summary.scored} problems in "
              f"{summary.seconds:.1f} s = {rate:.1f} problems/s ({summary.missing} missing)")
        problems = discover_problems(bench)
        breakdown(problems[:40], outputs)
        o_rate = oracle_loop(problems[: args.oracle_problems], outputs)
        print(f"oracle loop (Pillow decode + float32 NumPy), 1 process: {o_rate:.2f} problems/s")
        print(f"ratio eval / oracle: {rate / o_rate:.1f}x")


if __name__ == "__main__":
    main()
