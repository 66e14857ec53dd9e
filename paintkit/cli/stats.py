"""``paintkit stats``: problem_stats.jsonl -> aggregate_stats.jsonl (+ diagnostics); the work is
:func:`paintkit.aggregate` (:mod:`paintkit.stats.aggregate_folder`)."""

from __future__ import annotations

import argparse
import sys

from paintkit.stats.leaderboard import FORMATS


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "stats",
        help="aggregate problem_stats.jsonl into the benchmark hierarchy with bootstrap CIs",
        description="Reads a problem_stats.jsonl (docs/file-layout.md; from 'paintkit eval' or any tool "
        "with the same schema) and writes the aggregation hierarchy (mode, task, category, "
        "visual_condition, benchmark) with 95% percentile bootstrap CIs, one JSON row each, into "
        "the results folder, and prints the leaderboard (--format md, csv or latex for papers).",
    )
    parser.add_argument("--input", required=True, metavar="PATH",
                        help="a problem_stats.jsonl, or a results folder holding one")
    parser.add_argument("--output", default=None, metavar="FILE",
                        help="where the aggregate rows go (default: aggregate_stats.jsonl in "
                        "the results folder, where 'paintkit report' reads it)")
    parser.add_argument("--format", default="text", choices=FORMATS,
                        help="the leaderboard printed on stdout: an aligned table (text), "
                        "Markdown, CSV or a LaTeX tabular (default: %(default)s)")
    parser.add_argument("--n-boot", type=int, default=10_000, metavar="B",
                        help="bootstrap resamples (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: 0)")
    parser.add_argument("--no-ci", action="store_true", help="skip the bootstrap (no ci95_* keys)")
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                        help="worker processes, one (model, benchmark) each (default: 1)")
    parser.add_argument("--diagnostics", metavar="FILE",
                        help="also write diagnostics rows (pass rates, condition deltas, "
                        "edit-size buckets, failure modes) to FILE")
    parser.add_argument("--delta-e", choices=("cie76", "cie94", "ciede2000"), default=None,
                        help="read the rows scored with this colour difference (default: the "
                        "rows' one formula); blocks are named after it (ciede2000_mean ...)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # numpy, threadpoolctl: imported when the command runs, so that 'paintkit --help' starts fast
    from paintkit.stats.aggregate_folder import aggregate

    result = aggregate(args.input, output=args.output, n_boot=args.n_boot, seed=args.seed,
                       ci=not args.no_ci, jobs=args.jobs, delta_e=args.delta_e,
                       diagnostics=args.diagnostics,
                       command=getattr(args, "command_line", None))
    for row in result.comparisons:
        if row["kind"] == "cross_benchmark_correlation" and row["pearson_r"] is not None:
            ci = (f" [95% CI {row['ci95_low']:.2f}, {row['ci95_high']:.2f}]"
                  if row["ci95_low"] is not None else "")
            print(f"{row['first']} vs {row['second']}: Pearson r = {row['pearson_r']:.2f}{ci} "
                  f"across {len(row['models'])} models", file=sys.stderr)
    print(f"{len(result.rows)} aggregate rows for {len(result.tables)} (model, benchmark) pairs "
          f"in {result.seconds:.2f} s -> {result.path}", file=sys.stderr)
    sys.stdout.write(result.leaderboard(args.format))
    return 0
