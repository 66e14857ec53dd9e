"""``paintkit explain``: object tags and error segments of model outputs, per problem."""

from __future__ import annotations

import argparse
import sys

from paintkit.cli.flags import count, integer, names, renamed
from paintkit.io.plural import count_of


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "explain",
        help="tag each object of each output (correct, misplaced, missing, ...) as JSONL",
        description="For every (model, problem) in the standard layout, rebuild each element's "
        "pixels from the scenes in the problem metadata and tag it: correct, misplaced "
        "(offset), missing, wrong_colour (ΔE), damaged (share), not_removed; list the "
        "connected error segments (area, box, objects overlapped, spurious changes). "
        "Writes <results>/explanations.jsonl (see docs/explain.md).",
    )
    parser.add_argument("--benchmarks", required=True, metavar="DIR", dest="benchmarks_root",
                        help="folder holding <Benchmark>/ folders (or one benchmark folder)")
    parser.add_argument("--outputs", required=True, metavar="DIR", dest="outputs_root",
                        help="folder holding <model>/<Benchmark>/<task>/NNNN_output.png")
    renamed(parser, "--results", "--out", required=True, metavar="DIR",
            help="results folder: explanations.jsonl goes here")
    renamed(parser, "--models", "--model", type=names, action="extend", dest="models",
            metavar="A,B", help="only these model folders (comma-separated, repeatable)")
    parser.add_argument("--benchmark", type=names, action="extend", dest="benchmarks",
                        metavar="A,B", help="only these benchmarks (folders such as "
                        "PaintBench; comma-separated, repeatable)")
    renamed(parser, "--tasks", "--task", type=names, action="extend", dest="tasks",
            metavar="A,B", help="only these task folders (comma-separated, repeatable)")
    parser.add_argument("--tolerance", type=integer(0, 10), default=5, metavar="T",
                        help="a pixel is right when ΔE(O, A) <= T, 0..10 (default %(default)s)")
    parser.add_argument("--delta-e", default="cie76", choices=("cie76", "cie94", "ciede2000"),
                        help="colour difference (default: the benchmark's %(default)s)")
    parser.add_argument("--jobs", "-j", type=count(4096), default=None, metavar="N",
                        help="worker processes (default: one per CPU core)")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # heavy (numba, the renderers): imported when the command runs, so that 'paintkit --help'
    # starts fast
    from paintkit.explainer.directory import explain_directory
    from paintkit.io.progress import Progress
    from paintkit.parallel import default_jobs

    bars: list[Progress] = []  # the same progress line as generate and eval

    def progress(done: int, total: int) -> None:
        if not bars:
            bars.append(Progress(total, verb="explained"))
        bars[0].update(processed=done - bars[0].done)

    summary = explain_directory(
        args.benchmarks_root, args.outputs_root, args.results, models=args.models,
        benchmarks=args.benchmarks, tasks=args.tasks, tolerance=args.tolerance,
        delta_e=args.delta_e, progress=None if args.quiet else progress,
        jobs=default_jobs() if args.jobs is None else args.jobs)
    for bar in bars:
        bar.close()
    print(f"{count_of(summary.rows, 'row')} ({count_of(summary.missing_outputs, 'missing output')}"
          f", {count_of(summary.failed, 'broken problem')}) -> {summary.path}", file=sys.stderr)
    return 0
