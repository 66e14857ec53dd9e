"""``paintkit agreement``: how well paintkit scores agree with human or judge ratings."""

from __future__ import annotations

import argparse
import json
import math
import sys

from paintkit.cli.flags import integer, number, renamed, seed
from paintkit.io.atomic import write_text_atomic


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "agreement",
        help="compare paintkit scores with human or model-judge ratings",
        description="Match problem_stats.jsonl rows (--scores) with ratings (--judgments: one "
        "JSON object per line with the problem key, e.g. task and idx, a 'rating' and "
        "optionally a 'rater') and report Spearman, pairwise accuracy, Krippendorff's alpha "
        "and signed bias as leave-one-out fold averages with bootstrap 95% CIs "
        "(see docs/agreement.md).",
    )
    parser.add_argument("--scores", required=True, metavar="JSONL",
                        help="paintkit results (problem_stats.jsonl)")
    parser.add_argument("--judgments", required=True, metavar="JSONL", help="ratings to compare")
    parser.add_argument("--score-field", default=None, metavar="PATH",
                        help="dotted path of the score in each results row (default: the mIoU "
                        "under the rows' colour difference, output.cie76_mean.iou or e.g. "
                        "output.ciede2000_mean.iou for rows of eval --delta-e ciede2000)")
    parser.add_argument("--rating-field", default="rating", metavar="NAME")
    parser.add_argument("--rater-field", default="rater", metavar="NAME")
    parser.add_argument("--epsilon-scores", type=number(0, 1e12), default=0.0, metavar="E",
                        help="score differences up to E count as ties (default 0)")
    parser.add_argument("--epsilon-ratings", type=number(0, 1e12), default=0.0, metavar="E",
                        help="rating differences up to E count as ties (default 0)")
    parser.add_argument("--resamples", type=integer(0, 10**8), default=1000, metavar="B",
                        help="bootstrap resamples for the CIs (0: none; default %(default)s)")
    parser.add_argument("--seed", type=seed(), default=0, help="bootstrap seed (default 0)")
    renamed(parser, "--output", "--out", metavar="FILE",
            help="also write the report here as JSON (atomic)")
    parser.set_defaults(func=run)


def _json_safe(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    return value


def _format(figure: dict) -> str:
    value, low, high = figure["value"], figure["ci95_low"], figure["ci95_high"]
    if math.isnan(value):
        return "n/a"
    ci = "" if math.isnan(low) else f"  [{low:.3f}, {high:.3f}]"
    return f"{value:.3f}{ci}"


def run(args: argparse.Namespace) -> int:
    # numpy: imported when the command runs, so that 'paintkit --help' starts fast
    from paintkit.stats.agreement import MAX_RESAMPLES, agreement_report
    from paintkit.stats.judgments import load_matched

    if not 0 <= args.resamples <= MAX_RESAMPLES:
        raise ValueError(f"--resamples: expected a count from 0 to {MAX_RESAMPLES:,}, got "
                         f"{args.resamples}")
    matched = load_matched(args.scores, args.judgments, score_field=args.score_field,
                           rating_field=args.rating_field, rater_field=args.rater_field)
    report = agreement_report(matched.scores, matched.ratings,
                              epsilon_scores=args.epsilon_scores,
                              epsilon_ratings=args.epsilon_ratings,
                              resamples=args.resamples, seed=args.seed)
    report.update({"score_field": matched.score_field, "key_fields": list(matched.key_fields),
                   "raters": matched.raters, "unmatched": matched.unmatched,
                   "skipped_rows": matched.skipped, "resamples": args.resamples,
                   "seed": args.seed})
    for line in matched.skipped[:10]:
        print(f"skipped {line}", file=sys.stderr)
    if len(matched.skipped) > 10:
        print(f"... and {len(matched.skipped) - 10} more bad rows", file=sys.stderr)
    print(f"{report['n_items']} problems, {report['n_raters']} rater(s) "
          f"({', '.join(matched.raters)}); key: {', '.join(matched.key_fields)}; "
          f"unmatched: {matched.unmatched['scores_only']} scores, "
          f"{matched.unmatched['judgments_only']} judged problems")
    if report.get("scale_warning"):
        print(f"paintkit agreement: warning: {report['scale_warning']}", file=sys.stderr)
    sections = [("paintkit vs raters", report["metric_vs_raters"])]
    if report["rater_vs_rater"] is not None:
        sections.append(("rater vs rater", report["rater_vs_rater"]))
    for title, figures in sections:
        print(f"{title}:")
        for name, figure in figures.items():
            print(f"  {name:<20} {_format(figure)}")
    if args.output:
        write_text_atomic(args.output, json.dumps(_json_safe(report), indent=1) + "\n")
        print(f"wrote {args.output}", file=sys.stderr)
    return 0
