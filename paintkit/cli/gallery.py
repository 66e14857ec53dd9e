"""``paintkit gallery``: render a sample of scenes, some for every visual condition."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from paintkit.cli.flags import count
from paintkit.conditions import CONDITIONS
from paintkit.io.atomic import write_text_atomic


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "gallery",
        help="render sample scenes for every visual condition into a folder",
        description="Render --per-condition scenes for each visual condition into "
        "OUT/<condition>/<NNN>.png with the scene description beside it as <NNN>.json. "
        "Existing files are kept (the run resumes).",
    )
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder to write into")
    p.add_argument("--per-condition", type=count(100_000), default=4, help="scenes per condition (default 4)")
    p.add_argument("--conditions", nargs="+", type=_names, default=[list(CONDITIONS)],
                   metavar="A,B", help="visual conditions, comma- or space-separated, as in "
                   "'paintkit generate' (default: all 8)")
    p.set_defaults(func=run)


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in CONDITIONS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown condition {', '.join(unknown)}; expected "
                                         f"some of {','.join(CONDITIONS)}")
    return names


def run(args: argparse.Namespace) -> int:
    # Deferred (heavy): Skia (the renderer), the PNG encoders and the shape sampler load
    # only when scenes are drawn, so `paintkit --help` starts fast.
    from paintkit.attempts import SCENE_ATTEMPTS, search_attempts
    from paintkit.io.images import write_png
    from paintkit.renderers import render
    from paintkit.sampling.condition import condition_scene
    from paintkit.seeds import python_rng, seed_from_key

    if args.per_condition < 1:
        raise ValueError(f"--per-condition must be >= 1, got {args.per_condition}")
    start, written = time.perf_counter(), 0
    conditions = list(dict.fromkeys(c for group in args.conditions for c in group))
    for condition in conditions:
        for i in range(args.per_condition):
            png = args.out / condition / f"{i:03d}.png"
            if png.exists():
                continue
            sampled = search_attempts(
                lambda attempt, c=condition, k=i: seed_from_key("gallery", c, k, attempt),
                lambda seed, c=condition: condition_scene(python_rng(seed), c),
                max_attempts=SCENE_ATTEMPTS, what=f"gallery scene {condition} #{i}").value
            write_text_atomic(png.with_suffix(".json"), sampled.scene.to_json(indent=1))
            write_png(png, render(sampled.scene))
            written += 1
        print(f"{condition}: {args.per_condition} scene{'' if args.per_condition == 1 else 's'} "
              f"in {args.out / condition}")
    print(f"wrote {written} scenes in {time.perf_counter() - start:.1f} s")
    return 0
