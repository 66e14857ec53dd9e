"""``paintkit eval`` over PNG files vs the plain NumPy scorer run as a user with two
cores would run it: one process per model, side by side.

    python -m bench.eval_side_by_side [--problems 1000] [--size 1024] [--jobs 2]
                                      [--oracle-problems 60] [--keep DIR]
                                      [--benchmark-encoder auto|imagecodecs]

``--keep DIR`` keeps the synthesised tree there and reuses it on the next run.

Inputs and answers are written as ``paintkit generate`` writes them (``encode_png`` with the
``auto`` encoder: one IDAT, rows unfiltered, which eval decodes with its own fast path);
``--benchmark-encoder imagecodecs`` writes them with libpng instead, as this script did
before (every file then takes libpng's decoder). Model outputs are always written with
libpng, as a model's own PNG writer would.

Synthesises a standard tree (docs/file-layout.md; palette inputs/answers; two models whose outputs are mostly
flat palette images, every 4th a noisy one, plus missing, corrupt and resized files),
times ``evaluate`` over both models (``--jobs`` processes, start-up included; a problem
is one (model, problem) row), then the NumPy oracle (Pillow decode + float32 NumPy) as two
processes at once, one per model, each on the first ``--oracle-problems`` problems, and
prints problems/s of both and the ratio. Run both back to back on the same load; on a
shared machine repeat and compare ratios. A breakdown times decode vs counting.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import tempfile
import time
from pathlib import Path

import numpy as np

from paintkit.eval import discover_problems, evaluate
from paintkit.eval.synthetic import model_output, synthetic_problem
from paintkit.io.images import load_rgb
from paintkit.io.png_encode import encode_png
from tests.support import metric_oracle as oracle

MODELS = ("model_a", "model_b")


def synthesise(root: Path, problems: int, size: int, encoder: str = "auto") -> tuple[Path, Path]:
    rng = np.random.default_rng(0)
    bench = root / "benchmarks" / "PaintBench"
    for n in range(problems):
        task, idx = f"task_{n % 20:02d}", n // 20
        inp, ans = synthetic_problem(rng, size, size, n_shapes=10)
        folder = bench / task
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{idx:03d}_input.png").write_bytes(encode_png(inp, encoder))
        (folder / f"{idx:03d}_answer.png").write_bytes(encode_png(ans, encoder))
        meta = {"task": task, "mode": "default", "visual_condition": "baseline",
                "bg_colors": []}
        (folder / f"{idx:03d}.json").write_text(json.dumps(meta))
        for m, model in enumerate(MODELS):
            path = root / "outputs" / model / "PaintBench" / task / f"{idx:04d}_output.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            k = n + 11 * m
            if k % 50 == 49:
                continue  # missing
            style = "noisy" if k % 4 == 3 else ("resized" if k % 25 == 24 else "partial")
            data = encode_png(model_output(rng, ans, inp, style), "imagecodecs")
            path.write_bytes(data[: len(data) // 2] if k % 70 == 69 else data)
    return root / "benchmarks", root / "outputs"


def oracle_loop(args) -> float:
    """One NumPy-scorer process: one model over ``problems``; returns seconds."""
    problems, outputs_root, model = args
    start = time.perf_counter()
    for p in problems:
        out = p.output_path(outputs_root, model)
        try:
            output = oracle.decode(out)
        except (OSError, ValueError, SyntaxError):
            output = None
        oracle.problem_stats(output, oracle.decode(p.answer_path), oracle.decode(p.input_path))
    return time.perf_counter() - start


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (user + system)."""
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


def oracle_side_by_side(problems, outputs_root: Path) -> tuple[float, float]:
    """Rows per second of two oracle processes at once, one per model: (wall, CPU)."""
    pool = multiprocessing.get_context("spawn").Pool(len(MODELS))
    cpu = cpu_seconds()
    start = time.perf_counter()
    pool.map(oracle_loop, [(problems, outputs_root, m) for m in MODELS])
    wall = time.perf_counter() - start
    pool.close()
    pool.join()
    rows = len(MODELS) * len(problems)
    return rows / wall, rows / ((cpu_seconds() - cpu) / len(MODELS))


def breakdown(problems, outputs_root: Path) -> None:
    import numba

    from paintkit.eval.problem import load_output, score_output

    numba.set_num_threads(1)  # as in eval's workers
    a = load_rgb(problems[0].answer_path)
    score_output(a, a, load_rgb(problems[0].input_path))  # load the compiled kernels first
    decode = count = 0.0
    for p in problems:
        t0 = time.perf_counter()
        a, i = load_rgb(p.answer_path), load_rgb(p.input_path)
        o = load_output(p.output_path(outputs_root, MODELS[0]))
        t1 = time.perf_counter()
        score_output(o, a, i)[0].to_schema()
        decode += t1 - t0
        count += time.perf_counter() - t1
    n = len(problems)
    print(f"breakdown, 1 process, 1 model: decode 3 PNGs {decode / n * 1e3:.1f} ms, normalise + "
          f"Lab + count + figures {count / n * 1e3:.1f} ms per problem")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--problems", type=int, default=1000)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--oracle-problems", type=int, default=60)
    parser.add_argument("--keep", type=Path, default=None)
    parser.add_argument("--benchmark-encoder", choices=("auto", "imagecodecs"), default="auto",
                        help="how inputs and answers are written (auto: as paintkit generate)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        start = time.perf_counter()
        if args.keep and (root / "outputs" / MODELS[-1]).is_dir():
            bench, outputs = root / "benchmarks", root / "outputs"  # reuse a kept tree
        else:
            bench, outputs = synthesise(root, args.problems, args.size, args.benchmark_encoder)
            print(f"synthesised {args.problems} problems ({args.size}x{args.size}) in "
                  f"{time.perf_counter() - start:.0f} s")
        cpu = cpu_seconds()
        summary = evaluate(bench, outputs, root / "results", jobs=args.jobs, progress=False,
                           overwrite=True)
        cpu = cpu_seconds() - cpu
        rate = summary.problems_per_second
        cpu_rate = summary.scored / (cpu / args.jobs)
        print(f"paintkit eval --jobs {args.jobs}, {len(MODELS)} models: {summary.scored} "
              f"problems in {summary.seconds:.1f} s = {rate:.1f} problems/s "
              f"({summary.missing} missing; start-up included); {cpu:.1f} CPU s = "
              f"{cpu_rate:.1f} problems/s on {args.jobs} otherwise idle cores")
        problems = discover_problems(bench)
        o_rate, o_cpu_rate = oracle_side_by_side(problems[: args.oracle_problems], outputs)
        print(f"NumPy scorer (Pillow decode + float32 NumPy), {len(MODELS)} processes side by "
              f"side (one per model): {o_rate:.2f} problems/s; {o_cpu_rate:.2f} problems/s "
              "by CPU time")
        print(f"ratio eval / NumPy side by side: {rate / o_rate:.1f}x wall clock, "
              f"{cpu_rate / o_cpu_rate:.1f}x by CPU time")
        breakdown(problems[:40], outputs)


if __name__ == "__main__":
    main()
