"""``paintkit report``: one self-contained offline HTML page of a results folder; the work is
:func:`paintkit.write_report` (:mod:`paintkit.report.write`)."""

from __future__ import annotations

import argparse
import sys

from paintkit.cli.flags import integer, renamed, seed


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "report",
        help="write a self-contained HTML report (leaderboard, tables, plots, gallery)",
        description="Reads <results>/problem_stats.jsonl (and aggregate_stats.jsonl when present) "
        "and writes one HTML file that works offline: leaderboard with CIs, the hierarchy as "
        "collapsible tables with tolerance and metric selectors, inline SVG plots, and (with "
        "--benchmarks and --outputs) a gallery of input / answer / output / diff images.",
    )
    renamed(parser, "--results", "--input", required=True, metavar="DIR",
            help="results folder (or its problem_stats.jsonl)")
    parser.add_argument("--output", default="report.html", metavar="FILE",
                        help="HTML file to write (default: %(default)s)")
    parser.add_argument("--benchmarks", metavar="DIR", help="benchmark tree, for the gallery")
    parser.add_argument("--outputs", metavar="DIR", action="append",
                        help="model outputs root, for the gallery (repeatable: each model's "
                        "outputs are taken from the first root that has its folder)")
    parser.add_argument("--n-boot", type=int, default=10_000, metavar="B",
                        help="bootstrap resamples when aggregate_stats.jsonl is absent")
    parser.add_argument("--seed", type=seed(), default=0, help="bootstrap seed (default: 0)")
    parser.add_argument("--gallery-per-model", type=integer(0, 1000), default=2, metavar="N",
                        help="problems per (task, model) in the gallery (default: %(default)s)")
    parser.add_argument("--thumb", type=integer(16, 4096), default=160, metavar="PX",
                        help="longest side of gallery images (default: %(default)s)")
    parser.add_argument("--subset", metavar="FILE", default=None,
                        help="report only the rows of this subset.json's problems (written "
                        "by 'paintkit subset'; docs/subsets.md)")
    parser.add_argument("--explanations", metavar="FILE",
                        help="explanations.jsonl of 'paintkit explain': object tags on the "
                        "gallery cards (default: the one in the results folder, if any)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # heavy (numba, the report's modules): imported when the command runs, so that
    # 'paintkit --help' starts fast
    import warnings

    # matplotlib, numpy: the report loads only when a page is written
    from paintkit.report.data import ReportNote
    from paintkit.report.write import write_report

    with warnings.catch_warnings(record=True) as notes:
        warnings.simplefilter("always", ReportNote)
        path = write_report(args.results, args.output, benchmarks_root=args.benchmarks,
                            outputs_root=args.outputs, n_boot=args.n_boot, seed=args.seed,
                            gallery_per_model=args.gallery_per_model, thumb=args.thumb,
                            explanations=args.explanations,
                            command=getattr(args, "command_line", None),
                            subset=getattr(args, "subset", None))
    for note in notes:
        if issubclass(note.category, ReportNote):
            print(f"report: {note.message}", file=sys.stderr)
        else:
            warnings.warn_explicit(note.message, note.category, note.filename, note.lineno)
    print(f"report: {path.stat().st_size / 1e6:.2f} MB -> {args.output}", file=sys.stderr)
    return 0
