"""``paintkit baseline``: reference outputs (identity, oracle, blank, noise) in the standard layout."""

from __future__ import annotations

import argparse
import sys

from paintkit.cli.flags import names, renamed
from paintkit.io.plural import count_of

BASELINE_NAMES = ("identity", "oracle", "blank", "noise")  # paintkit.baselines.BASELINES


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "baseline",
        help="write baseline model outputs (identity, oracle, blank, noise)",
        description="Writes <outputs>/<model>/<Benchmark>/<task>/NNNN_output.png for every "
        "problem under --benchmarks: identity = the input, oracle = the answer, blank = the "
        "background colour, noise = seeded random pixels. Then run 'paintkit eval'.",
    )
    parser.add_argument("name", choices=BASELINE_NAMES, help="which baseline")
    parser.add_argument("--benchmarks", required=True, metavar="DIR", dest="benchmarks_root",
                        help="folder holding <Benchmark>/ folders (or one benchmark folder)")
    renamed(parser, "--outputs", "--out", required=True, metavar="DIR", dest="outputs_root",
            help="model-outputs tree; files go under DIR/<model>/")
    renamed(parser, "--name", "--model", metavar="FOLDER", dest="model",
            help="model folder name under --outputs (default: the baseline's)")
    parser.add_argument("--benchmark", type=names, action="extend", dest="benchmarks",
                        metavar="A,B", help="only these benchmarks (folders such as "
                        "PaintBench; comma-separated, repeatable)")
    renamed(parser, "--tasks", "--task", type=names, action="extend", dest="tasks",
            metavar="A,B", help="only these task folders (comma-separated, repeatable)")
    parser.add_argument("--overwrite", action="store_true", help="rewrite existing outputs")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # heavy (PIL, numpy): imported when the command runs, so that 'paintkit --help' starts fast
    from paintkit.baselines import write_baseline

    summary = write_baseline(args.name, args.benchmarks_root, args.outputs_root, folder=args.model,
                             benchmarks=args.benchmarks, tasks=args.tasks,
                             overwrite=args.overwrite, progress=not args.quiet)
    print(f"{count_of(summary.written, 'output')} written, {summary.skipped:,} already there -> "
          f"{summary.out_dir}", file=sys.stderr)
    return 0
