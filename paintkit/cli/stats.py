"""``paintkit stats``: problem_stats.jsonl -> aggregate_stats.jsonl (+ diagnostics); the work is
:func:`paintkit.aggregate` (:mod:`paintkit.stats.aggregate_folder`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paintkit.cli.flags import OLD_SPELLINGS_UNTIL, count, renamed, seed
from paintkit.io.plural import count_of
from paintkit.stats.leaderboard import FORMATS
from paintkit.subsets import describe_scope


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "stats",
        help="aggregate problem_stats.jsonl into the benchmark hierarchy with bootstrap CIs",
        description="Reads a problem_stats.jsonl (docs/file-layout.md; from 'paintkit eval' or any tool "
        "with the same schema) and writes the aggregation hierarchy (mode, task, category, "
        "visual_condition, benchmark) with 95% percentile bootstrap CIs, one JSON row each, into "
        "the results folder, and prints the leaderboard (--format md, csv or latex for papers).",
    )
    renamed(parser, "--results", "--input", required=True, metavar="DIR",
            help="results folder holding problem_stats.jsonl (or that file itself)")
    parser.add_argument("--output", default=None, metavar="FILE",
                        help="write the leaderboard here instead of stdout, in --format "
                        "(default: from the suffix, .tex latex, .md, .csv, .json, else text)")
    parser.add_argument("--format", default=None, choices=FORMATS,
                        help="the leaderboard: an aligned table (text), Markdown, CSV, a LaTeX "
                        "tabular or JSON for scripts (default: text)")
    parser.add_argument("--aggregate", default=None, metavar="FILE",
                        help="where the aggregate rows go (default: aggregate_stats.jsonl in "
                        "the results folder, where 'paintkit report' reads it)")
    parser.add_argument("--n-boot", type=int, default=10_000, metavar="B",
                        help="bootstrap resamples (default: %(default)s)")
    parser.add_argument("--seed", type=seed(), default=0, help="bootstrap seed (default: 0)")
    parser.add_argument("--no-ci", action="store_true", help="skip the bootstrap (no ci95_* keys)")
    parser.add_argument("--subset", metavar="FILE", default=None,
                        help="aggregate only the rows of this subset.json's problems (written "
                        "by 'paintkit subset'; docs/subsets.md)")
    parser.add_argument("--jobs", "-j", type=count(4096), default=1, metavar="N",
                        help="worker processes, one (model, benchmark) each (default: 1)")
    parser.add_argument("--diagnostics", metavar="FILE",
                        help="also write diagnostics rows (pass rates, condition deltas, "
                        "edit-size buckets, failure modes) to FILE")
    parser.add_argument("--delta-e", choices=("cie76", "cie94", "ciede2000"), default=None,
                        help="read the rows scored with this colour difference (default: the "
                        "rows' one formula); blocks are named after it (ciede2000_mean ...)")
    parser.set_defaults(func=run)


#: The leaderboard format a --output suffix asks for.
SUFFIX_FORMATS = {".tex": "latex", ".md": "md", ".csv": "csv", ".json": "json", ".txt": "text"}


def leaderboard_target(args: argparse.Namespace) -> tuple[str | None, str | None, str]:
    """``(aggregate file, leaderboard file, format)`` of the flags. Before 0.4.0 ``--output``
    named the aggregate rows: a ``.jsonl`` still does, with a note, until 0.5.0."""
    aggregate, table = args.aggregate, args.output
    if table is not None and Path(table).suffix == ".jsonl" and aggregate is None:
        print(f"paintkit stats: note: --output {table} now writes the leaderboard; the "
              f"aggregate rows go with --aggregate FILE (read so until {OLD_SPELLINGS_UNTIL})",
              file=sys.stderr)
        aggregate, table = table, None
    fmt = args.format or (SUFFIX_FORMATS.get(Path(table).suffix.lower(), "text")
                          if table is not None else "text")
    return aggregate, table, fmt


def run(args: argparse.Namespace) -> int:
    # numpy, threadpoolctl: imported when the command runs, so that 'paintkit --help' starts fast
    from paintkit.io.atomic import write_text_atomic
    from paintkit.stats.aggregate_folder import aggregate

    aggregate_file, table, fmt = leaderboard_target(args)
    result = aggregate(args.results, output=aggregate_file, n_boot=args.n_boot, seed=args.seed,
                       ci=not args.no_ci, jobs=args.jobs, delta_e=args.delta_e,
                       diagnostics=args.diagnostics, leaderboard=table,
                       command=getattr(args, "command_line", None),
                       subset=getattr(args, "subset", None))
    for row in result.comparisons:
        if row["kind"] == "cross_benchmark_correlation" and row["pearson_r"] is not None:
            ci = (f" [95% CI {row['ci95_low']:.2f}, {row['ci95_high']:.2f}]"
                  if row["ci95_low"] is not None else "")
            print(f"{row['first']} vs {row['second']}: Pearson r = {row['pearson_r']:.2f}{ci} "
                  f"across {len(row['models'])} models", file=sys.stderr)
    if result.subset is not None:

        print(f"paintkit stats: the scores are of a {describe_scope(result.subset)}",
              file=sys.stderr)
    print(f"{count_of(len(result.rows), 'aggregate row')} for "
          f"{count_of(len(result.tables), '(model, benchmark) pair')} in {result.seconds:.2f} s "
          f"-> {result.path}", file=sys.stderr)
    board = result.leaderboard(fmt)
    if table is None:
        sys.stdout.write(board)
    else:
        write_text_atomic(table, board)
        print(f"leaderboard ({fmt}) -> {table}", file=sys.stderr)
    return 0
