"""paintkit run with a diffusers pipeline: problems/s at batch size 1 vs 8 (CPU by default).

    python -m bench.run_diffusers_batching [--problems 16] [--size 64] [--steps 4]

Builds the tiny random-weight InstructPix2Pix pipeline of the tests
(tests/support/tiny_pipelines.py; no download) and runs the same problems at each batch size.
On a tiny model the per-call overhead (text encoding, scheduler, VAE calls) is what
batching saves; on a real model on a GPU the gain comes from filling the device.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from paintkit.eval.synthetic import write_synthetic_tree
from paintkit.run.registry import build_model
from paintkit.run.runner import run_model
from tests.support.tiny_pipelines import tiny_instruct_pix2pix


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=16)
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--batches", default="1,8")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bench, _ = write_synthetic_tree(tmp, problems=args.problems, tasks=2, width=args.size,
                                        height=args.size, models=())
        weights = tiny_instruct_pix2pix(Path(tmp))
        print(f"tiny InstructPix2Pix, {args.problems} problems of {args.size}x{args.size}, "
              f"{args.steps} steps, {args.device}")
        print(f"{'batch':>5s} {'problems/s':>10s} {'seconds':>8s}")
        for batch in (int(b) for b in args.batches.split(",")):
            model = build_model("instruct-pix2pix", weights=str(weights), device=args.device,
                                steps=args.steps, batch_size=batch)
            start = time.perf_counter()
            summary = run_model(model, bench, Path(tmp) / f"out{batch}", progress=False)
            seconds = time.perf_counter() - start
            assert summary.written == args.problems, summary.failures
            print(f"{batch:>5d} {args.problems / seconds:>10.2f} {seconds:>8.2f}")


if __name__ == "__main__":
    main()
