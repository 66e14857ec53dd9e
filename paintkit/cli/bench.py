"""``paintkit bench``: the whole benchmark in one command; the steps are
:func:`paintkit.bench` (:mod:`paintkit.full_run.steps`)."""

from __future__ import annotations

import argparse
import sys

from paintkit.cli.flags import count, integer, names, renamed, seed
from paintkit.cli.generate import MAX_PER_CELL
from paintkit.errors import one_line


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="generate -> baselines -> eval -> stats -> report into one folder, resumably",
        description="Runs every step into one folder: OUT/bench (the benchmark), OUT/outputs "
        "(baselines), OUT/results (scores, aggregate, comparisons) and OUT/report.html. "
        "Settings come from a TOML file (keys = the flags' names with '_') and/or flags "
        "(flags win). Run it again: steps whose inputs are unchanged are skipped, an "
        "interrupted step resumes.",
    )
    parser.add_argument("config", nargs="?", metavar="CONFIG.toml", help="settings file")
    parser.add_argument("--out", metavar="DIR", help="the run folder (required here or in "
                        "the config)")
    renamed(parser, "--suites", "--benchmarks", type=names, metavar="A,B", dest="suites",
            help="suites to generate: paintbench and/or tinygrafixbench (default: paintbench)")
    parser.add_argument("--baselines", type=names, metavar="A,B",
                        help="baselines to score (default: oracle,identity,blank,noise; "
                        "'' for none)")
    parser.add_argument("--models", type=names, metavar="A,B",
                        help="models to run with 'paintkit run' first (built-in names, "
                        "diffusers:<repo>, module:function; see docs/run.md)")
    parser.add_argument("--outputs", metavar="DIR",
                        help="your models' outputs (<model>/<Benchmark>/<task>/NNNN_output.png)")
    parser.add_argument("--tasks", type=names, metavar="A,B", help="only these tasks")
    parser.add_argument("--conditions", type=names, metavar="A,B",
                        help="only these visual conditions")
    parser.add_argument("--per-cell", type=count(MAX_PER_CELL), metavar="N", help="problems per cell")
    parser.add_argument("--size", metavar="WxH", help="canvas size")
    parser.add_argument("--jobs", "-j", type=integer(0, 4096), metavar="N",
                        help="worker processes (default: one per CPU core)")
    parser.add_argument("--n-boot", type=int, metavar="B", help="bootstrap resamples (10,000)")
    parser.add_argument("--seed", type=seed(), help="bootstrap seed (0)")
    parser.add_argument("--gallery-per-model", type=integer(0, 1000), metavar="N",
                        help="gallery problems per (task, model) (2)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # numpy and every stage's modules: imported when the command runs
    from paintkit.full_run.steps import Bench, BenchConfig, StepFailed, load_config

    settings = load_config(args.config) if args.config else {}
    for key in ("out", "suites", "baselines", "models", "outputs", "tasks", "conditions", "per_cell",
                "size", "jobs", "n_boot", "seed", "gallery_per_model"):
        value = getattr(args, key)
        if value is not None:
            settings[key] = value
    if not settings.get("out"):
        raise ValueError("give the run folder: --out DIR or out = \"DIR\" in the config")
    try:
        report = Bench(BenchConfig(**settings), command=getattr(args, "command_line", None)).run()
    except StepFailed as exc:
        print(one_line(exc), file=sys.stderr)
        return 1
    print(f"bench: done -> {report}", file=sys.stderr)
    return 0
