"""``paintkit stats``: problem_stats.jsonl -> aggregate_stats.jsonl (+ diagnostics)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "stats",
        help="aggregate problem_stats.jsonl into the benchmark hierarchy with bootstrap CIs",
        description="Reads a problem_stats.jsonl (docs/file-layout.md; from 'paintkit eval' or any tool "
        "with the same schema) and writes the aggregation hierarchy (mode, task, category, "
        "visual_condition, benchmark) with 95%% percentile bootstrap CIs, one JSON row each.",
    )
    parser.add_argument("--input", required=True, metavar="PATH",
                        help="a problem_stats.jsonl, or a results folder holding one")
    parser.add_argument("--output", default="aggregate_stats.jsonl", metavar="FILE",
                        help="where the aggregate rows go (default: %(default)s)")
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
    from paintkit.stats.table import RESULTS_NAME

    source = (inputs / RESULTS_NAME if inputs.is_dir() else inputs).resolve()
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
    import time

    from paintkit.io.folder_lock import owned_outputs
    from paintkit.stats.aggregate import aggregate_tables
    from paintkit.stats.bootstrap import check_n_boot
    from paintkit.stats.output import write_jsonl
    from paintkit.stats.table import load_tables, name_blocks

    start = time.perf_counter()
    check_n_boot(args.n_boot)
    _refuse_overwriting(Path(args.input), {"--output": args.output,
                                           "--diagnostics": args.diagnostics})
    tables = load_tables(args.input, args.delta_e)
    formula = tables[0].delta_e if tables else "cie76"
    outputs = [args.output] + ([args.diagnostics] if args.diagnostics else [])
    with owned_outputs(outputs, "paintkit stats"):
        rows = aggregate_tables(tables, n_boot=args.n_boot, seed=args.seed,
                                ci=not args.no_ci, jobs=args.jobs)
        write_jsonl(args.output, name_blocks(rows, formula))
        if args.diagnostics:
            from paintkit.stats.diagnostics import diagnostics_rows

            write_jsonl(args.diagnostics, name_blocks(diagnostics_rows(
                tables, n_boot=args.n_boot, seed=args.seed, ci=not args.no_ci), formula))
    print(f"{len(rows)} aggregate rows for {len(tables)} (model, benchmark) pairs in "
          f"{time.perf_counter() - start:.2f} s -> {args.output}", file=sys.stderr)
    return 0
