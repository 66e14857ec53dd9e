"""What opting in to explanations or the extra metrics costs a scoring run: ``paintkit
eval`` vs ``paintkit eval --explain`` and ``--extra-metrics ssim,psnr`` (and the standalone
``paintkit explain``) on the same tree.

    python bench/explain_in_eval.py [--per-cell 1] [--conditions baseline,n_med]
                                    [--jobs 2] [--rounds 3] [--keep DIR]

Generates a PaintBench subset (every task, ``--per-cell`` problems per condition, 1024x1024,
the benchmark's seeds) and four models' outputs: ``oracle`` (the answer), ``identity`` (the
input: every edit left undone, so each edited object gets the full analysis), ``noisy``
(the answer with +-3 per channel: every pixel a new colour, like a generative model's
output) and ``sloppy`` (the answer with +-12 noise: most pixels wrong). Then times each
command over the whole tree, start-up included, ``--rounds`` times in turn (so a burst of
load hits them alike), and prints the best wall time per (model, problem) row and what
each option adds, as a ratio to the plain eval: the cost of attribution (or of SSIM and
PSNR) per problem against the base metric's, on files as users score them.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from paintkit.io.images import load_rgb, write_png

MODELS = ("oracle", "identity", "noisy", "sloppy")


def build(root: Path, per_cell: int, conditions: str, jobs: int) -> int:
    bench, outputs = root / "bench", root / "outputs"
    if not bench.is_dir():
        subprocess.run([sys.executable, "-m", "paintkit", "generate", "paintbench", "--out",
                        str(bench), "--per-cell", str(per_cell), "--conditions", conditions,
                        "--jobs", str(jobs), "--quiet"], check=True)
    rng = np.random.default_rng(0)
    answers = sorted(bench.glob("*/*/*_answer.png"))
    for path in answers:
        answer, inputs = load_rgb(path), load_rgb(path.with_name(path.name.replace(
            "_answer", "_input")))
        idx = int(path.name.split("_")[0])
        rel = Path(path.parent.parent.name) / path.parent.name / f"{idx:04d}_output.png"
        for model, image in (("oracle", answer), ("identity", inputs),
                             ("noisy", _noisy(rng, answer, 3)),
                             ("sloppy", _noisy(rng, answer, 12))):
            target = outputs / model / rel
            if not target.exists():
                write_png(target, image)
    return len(answers)


def _noisy(rng, image: np.ndarray, amount: int) -> np.ndarray:
    noise = rng.integers(-amount, amount + 1, image.shape)
    return np.clip(image.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-cell", type=int, default=1)
    parser.add_argument("--conditions", default="baseline,n_med")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="keep the tree here (reused next time)")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="explain_in_eval_"))
    try:
        problems = build(root, args.per_cell, args.conditions, args.jobs)
        rows = problems * len(MODELS)
        base = [sys.executable, "-m", "paintkit"]
        tree = ["--benchmarks", str(root / "bench"), "--outputs", str(root / "outputs"),
                "--jobs", str(args.jobs), "--quiet"]
        commands = {
            "eval": base + ["eval", *tree, "--overwrite", "--out", str(root / "ev")],
            "eval --explain": base + ["eval", *tree, "--overwrite", "--explain", "--out",
                                      str(root / "ev_explain")],
            "eval --extra-metrics ssim,psnr": base + [
                "eval", *tree, "--overwrite", "--extra-metrics", "ssim,psnr", "--out",
                str(root / "ev_extra")],
            "explain": base + ["explain", *tree, "--out", str(root / "ex")],
        }
        best = dict.fromkeys(commands, float("inf"))
        for _ in range(args.rounds):
            for name, command in commands.items():
                best[name] = min(best[name], timed(command))
        print(f"{problems} problems x {len(MODELS)} models = {rows} rows, 1024x1024, "
              f"--jobs {args.jobs}, best of {args.rounds} rounds (start-up included)")
        for name, seconds in best.items():
            print(f"  {name:30s} {seconds:6.2f} s  {1000 * seconds / rows:6.1f} ms per row")
        for name, what in (("eval --explain", "explanations"),
                           ("eval --extra-metrics ssim,psnr", "SSIM and PSNR")):
            added = best[name] - best["eval"]
            print(f"{what} add {1000 * added / rows:.1f} ms per row: "
                  f"{added / best['eval']:.2f}x the plain eval's time")
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
