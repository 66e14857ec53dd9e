"""``paintkit scene``: sample and render one scene of a visual condition."""

from __future__ import annotations

import argparse
from pathlib import Path

from paintkit.cli.flags import integer, renamed, seed
from paintkit.conditions import CONDITIONS
from paintkit.io.atomic import write_text_atomic


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "scene",
        help="render one random scene of a visual condition to PNG",
        description="Sample a rule-abiding scene for a visual condition and seed, render it "
        "exactly (no anti-aliasing) and write a PNG (and optionally the scene as JSON).",
    )
    p.add_argument("--condition", choices=CONDITIONS, default="baseline")
    p.add_argument("--seed", type=seed(), default=0, help="integer seed (default 0)")
    p.add_argument("--count", type=integer(0, 10_000), default=None,
                   help="number of shapes (default: the condition's count)")
    renamed(p, "--output", "--out", type=Path, required=True, metavar="FILE",
            help="PNG file to write")
    p.add_argument("--json", type=Path, default=None, help="also write the scene as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Deferred (heavy): the renderer (Skia), the PNG encoders and the shape sampler load only
    # when a scene is drawn; `paintkit --help` stays fast.
    from paintkit.io.images import write_png
    from paintkit.renderers import render
    from paintkit.sampling.condition import condition_scene
    from paintkit.seeds import python_rng

    if args.seed < 0:
        raise ValueError(f"--seed must be a non-negative int, got {args.seed}")
    sampled = condition_scene(python_rng(args.seed), args.condition, count_range=args.count)
    write_png(args.output, render(sampled.scene))
    if args.json is not None:
        write_text_atomic(args.json, sampled.scene.to_json(indent=1))
    print(f"wrote {args.output} ({args.condition}, seed {args.seed}, "
          f"{len(sampled.scene.shapes)} shapes)")
    return 0
