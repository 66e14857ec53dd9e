"""``paintkit stats``: problem_stats.jsonl -> aggregate_stats.jsonl (+ diagnostics)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from paintkit.io.folder_lock import owned_outputs
from paintkit.layout.results import problem_stats_path
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


def _refuse_overwriting(inputs: Path, outputs: dict[str, str | None]) -> None:
    """``ValueError`` when an output file is the input results file (it would be replaced
    by aggregate rows) or two outputs are the same file."""
    source = problem_stats_path(inputs).resolve()
    seen: dict[Path, str] = {}
    for option, value in outputs.items():
        if value is None:
            continue
        target = Path(value).resolve()
        if target == source:
            raise ValueError(f"{option} {value} is the input results file; refusing to "
                             "overwrite it (choose another file, e.g. aggregate_stats.jsonl)")
        if target in seen:
            raise ValueError(f"{seen[target]} and {option} name the same file ({value})")
        seen[target] = option


def run(args: argparse.Namespace) -> int:
    # numpy, threadpoolctl: imported when the command runs, so that 'paintkit --help' starts fast
    from paintkit.stats.aggregate import aggregate_tables
    from paintkit.stats.bootstrap import check_n_boot
    from paintkit.stats.compare import comparison_rows
    from paintkit.stats.diagnostics import diagnostics_rows
    from paintkit.stats.leaderboard import format_leaderboard, leaderboard_rows
    from paintkit.stats.output import (
        COMPARISONS_NAME,
        default_output,
        write_jsonl,
        write_provenance,
    )
    from paintkit.stats.table import load_tables, name_blocks

    start = time.perf_counter()
    check_n_boot(args.n_boot)
    output = Path(args.output) if args.output else default_output(args.input)
    _refuse_overwriting(Path(args.input), {"--output": str(output),
                                           "--diagnostics": args.diagnostics})
    tables = load_tables(args.input, args.delta_e)
    formula = tables[0].delta_e if tables else "cie76"
    outputs = [str(output)] + ([args.diagnostics] if args.diagnostics else [])
    with owned_outputs(outputs, "paintkit stats"):
        rows = aggregate_tables(tables, n_boot=args.n_boot, seed=args.seed,
                                ci=not args.no_ci, jobs=args.jobs)
        write_jsonl(output, name_blocks(rows, formula))
        write_provenance(output, n_boot=None if args.no_ci else args.n_boot, seed=args.seed,
                         delta_e=formula, command=getattr(args, "command_line", None))
        if not args.no_ci:
            pairs = comparison_rows(tables, n_boot=args.n_boot, seed=args.seed)
            if pairs:
                write_jsonl(output.with_name(COMPARISONS_NAME), pairs)
            for row in pairs:
                if row["kind"] == "cross_benchmark_correlation" and row["pearson_r"] is not None:
                    ci = (f" [95% CI {row['ci95_low']:.2f}, {row['ci95_high']:.2f}]"
                          if row["ci95_low"] is not None else "")
                    print(f"{row['first']} vs {row['second']}: Pearson r = "
                          f"{row['pearson_r']:.2f}{ci} across {len(row['models'])} models",
                          file=sys.stderr)
        if args.diagnostics:
            write_jsonl(args.diagnostics, name_blocks(diagnostics_rows(
                tables, n_boot=args.n_boot, seed=args.seed, ci=not args.no_ci), formula))
    print(f"{len(rows)} aggregate rows for {len(tables)} (model, benchmark) pairs in "
          f"{time.perf_counter() - start:.2f} s -> {output}", file=sys.stderr)
    sys.stdout.write(format_leaderboard(leaderboard_rows(rows, tables), args.format))
    return 0
