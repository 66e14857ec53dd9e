"""``paintkit eval``: score model outputs in the standard layout into problem_stats.jsonl."""

from __future__ import annotations

import argparse
import sys

from paintkit.cli.flags import integer, names, renamed
from paintkit.io.plural import count_of
from paintkit.layout.outputs import TURN_OUTPUT


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="score model outputs against a benchmark (writes problem_stats.jsonl)",
        description="Score every (model, benchmark, task, problem): reads "
        "<benchmarks>/<Benchmark>/<task>/NNN_{input,answer}.png + NNN.json and "
        "<outputs>/<model>/<Benchmark>/<task>/NNNN_output.png, writes "
        "<results>/problem_stats.jsonl (docs/file-layout.md). Resumable: scored problems are skipped.",
    )
    parser.add_argument("--benchmarks", required=True, metavar="DIR", dest="benchmarks_root",
                        help="folder holding <Benchmark>/ folders (or one benchmark folder); "
                        "with --engine ray also a Parquet / WebDataset shard set of paintkit "
                        "generate (folder or URL, e.g. s3://bucket/corpus): the same rows, in "
                        "the same order, as its directory layout gets")
    parser.add_argument("--outputs", required=True, metavar="DIR", dest="outputs_root",
                        help="folder holding <model>/<Benchmark>/<task>/NNNN_output.png")
    renamed(parser, "--results", "--out", default="eval_results", metavar="DIR",
            help="results folder: problem_stats.jsonl (and diffs/) go here (default: "
            "%(default)s)")
    renamed(parser, "--models", "--model", type=names, action="extend", dest="models",
            metavar="A,B", help="score only these model folders (comma-separated, repeatable)")
    parser.add_argument("--benchmark", type=names, action="extend", dest="benchmarks",
                        metavar="A,B", help="score only these benchmarks (folders such as "
                        "PaintBench; comma-separated, repeatable)")
    renamed(parser, "--tasks", "--task", type=names, action="extend", dest="tasks",
            metavar="A,B", help="score only these task folders (comma-separated, repeatable)")
    parser.add_argument("--subset", metavar="FILE", default=None,
                        help="score only the problems of this subset.json (written by "
                        "'paintkit subset'; docs/subsets.md)")
    parser.add_argument("--jobs", "-j", type=integer(0, 4096), default=0, metavar="N",
                        help="worker processes (default: one per CPU core)")
    parser.add_argument("--engine", choices=("process", "ray"), default="process",
                        help="process pool (default) or ray: Ray Data actors on a cluster "
                        "(every node sees the folders at the same paths; docs/metrics.md)")
    parser.add_argument("--address", default=None,
                        help="Ray cluster address (auto, HOST:PORT); default: a local Ray instance")
    parser.add_argument("--num-gpus", type=_gpus, default=0, metavar="N",
                        help="ray: GPUs per scoring actor (0.25 shares one GPU between four); "
                        "actors with a GPU score on it (default 0: CPU)")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto",
                        help="ray: where each actor scores: auto (its GPU if Ray gave it one, "
                        "the default), cpu, or cuda")
    parser.add_argument("--save-images", action="store_true",
                        help="also write diff PNGs at tolerances 0, 2, 5, 10")
    parser.add_argument("--overwrite", action="store_true",
                        help="rescore problems already in problem_stats.jsonl")
    parser.add_argument("--delta-e", default="cie76", choices=("cie76", "cie94", "ciede2000"),
                        help="colour difference (default cie76, the benchmark's); recorded in "
                             "every row, one formula per results folder")
    parser.add_argument("--extra-metrics", default="", type=_extra_metrics, metavar="LIST",
                        help="comma-separated pixel-similarity figures to add to each row "
                             "(ssim,psnr)")
    parser.add_argument("--explain", nargs="?", type=integer(0, 10), const=5, default=None,
                        metavar="T",
                        help="also tag each object of each output and list its error "
                        "segments at tolerance T (default 5) into each row's 'explanation' "
                        "(see docs/explain.md)")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.add_argument("--turns", action="store_true",
                        help="also score every turn of conversational problems "
                        "(NNNN_turn<k>_output.png) into turn_stats.jsonl; see docs/compositional.md")
    parser.set_defaults(func=run)


def _gpus(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of GPUs >= 0, got {text!r}")
    return value


def _extra_metrics(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    allowed = ("ssim", "psnr")  # paintkit.metrics.similarity.EXTRA_METRICS (kept light here)
    unknown = [n for n in names if n not in allowed]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown {', '.join(unknown)}; expected a "
                                         f"comma-separated subset of {','.join(allowed)}")
    return tuple(dict.fromkeys(names))


def print_leaderboard(results_path, args: argparse.Namespace | None = None,
                      summary=None) -> None:
    """A quick summary of the rows on stdout (model, score, coverage; no confidence
    intervals: the bootstrap is the job of 'paintkit stats'), and ``results.json`` beside
    the rows (:mod:`paintkit.stats.results_file`)."""
    # heavy (numpy): imported when the summary is printed
    from paintkit.stats.aggregate_folder import aggregate
    from paintkit.stats.results_file import write_results_file

    try:
        result = aggregate(results_path, ci=False, write=False)
    except (ValueError, OSError) as exc:  # the scores are written; only the summary is missing
        print(f"paintkit eval: no leaderboard ({exc})", file=sys.stderr)
        return
    if args is not None:
        timings = {} if summary is None else {
            "eval_seconds": round(summary.seconds, 3),
            "problems_per_second": round(summary.problems_per_second, 3)}
        written = write_results_file(
            results_path, result, benchmarks_root=args.benchmarks_root,
            outputs_root=args.outputs_root, n_boot=None, seed=None,
            config={"command": getattr(args, "command_line", None),
                    "extra_metrics": list(args.extra_metrics),
                    "explain": args.explain}, timings=timings,
            subset=None if summary is None else summary.subset)
        result.subset = None if summary is None else summary.subset
        print(f"paintkit eval: summary -> {written}", file=sys.stderr)
    sys.stdout.write(result.leaderboard())
    print("(no confidence intervals here: 'paintkit stats' adds the 95% bootstrap CIs and "
          "writes the full aggregate)", file=sys.stderr)


#: Ignored output files named one by one before "... and N more".
SHOW_IGNORED = 10


def run(args: argparse.Namespace) -> int:
    # heavy (numba, the explainer): imported when the command runs, so that 'paintkit --help'
    # starts fast
    from paintkit.eval.runner import evaluate
    from paintkit.io.folder_lock import FolderNotWritableError
    from paintkit.parallel import default_jobs

    try:
        summary = evaluate(
            args.benchmarks_root, args.outputs_root, args.results,
            models=args.models, benchmarks=args.benchmarks, tasks=args.tasks,
            jobs=args.jobs or default_jobs(), save_images=args.save_images,
            overwrite=args.overwrite, progress=not args.quiet,
            delta_e=args.delta_e, extra_metrics=args.extra_metrics, explain=args.explain,
            engine=getattr(args, "engine", "process"), address=getattr(args, "address", None),
            num_gpus=getattr(args, "num_gpus", 0), device=getattr(args, "device", "auto"),
            subset=getattr(args, "subset", None),
        )
    except (FolderNotWritableError, PermissionError) as exc:
        print(f"paintkit eval: error: {exc}", file=sys.stderr)
        return 1
    if getattr(args, "turns", False):  # turn outputs are read by --turns, not ignored
        summary.ignored = [p for p in summary.ignored if not TURN_OUTPUT.match(p.name)]
    for note in summary.notes:
        print(f"paintkit eval: {note}", file=sys.stderr)
    if summary.ignored:
        shown = ", ".join(str(p) for p in summary.ignored[:SHOW_IGNORED])
        more = len(summary.ignored) - SHOW_IGNORED
        print(f"paintkit eval: ignored {count_of(len(summary.ignored), 'file')} that are not "
              f"<model>/<Benchmark>/<task>/NNNN_output.png of a problem: {shown}"
              + (f" ... and {more} more" if more > 0 else ""), file=sys.stderr)
    rescored = f", {summary.rescored} rescored" if summary.rescored else ""
    print(
        f"{count_of(summary.scored, 'row')} written ({summary.missing:,} missing "
        f"{'output' if summary.missing == 1 else 'outputs'}{rescored}), "
        f"{summary.skipped:,} already scored, {summary.problems_per_second:.1f} problems/s "
        f"-> {summary.results_path}",
        file=sys.stderr,
    )
    if summary.scored == 0 and summary.skipped and not args.overwrite:
        adds = [flag for flag, on in (("--explain", args.explain is not None),
                                      ("--extra-metrics", bool(args.extra_metrics))) if on]
        what = f"to add {' and '.join(adds)} to them" if adds else "to score them again"
        print(f"paintkit eval: every problem was already scored; rerun with --overwrite {what}",
              file=sys.stderr)
    print_leaderboard(summary.results_path, args, summary)
    if getattr(args, "turns", False):
        # heavy (Skia, numba: the compositional suite's renderer): only with --turns
        from paintkit.eval.turns import describe, missing_turns, score_turns

        path, rows = score_turns(args.benchmarks_root, args.outputs_root, args.results,
                                 models=args.models, benchmarks=args.benchmarks, tasks=args.tasks,
                                 delta_e=args.delta_e)
        print(f"{len(rows):,} turn rows ({describe(rows)}) -> {path}", file=sys.stderr)
        for line in missing_turns(rows):
            print(f"paintkit eval: --turns: {line}", file=sys.stderr)
    return 0
