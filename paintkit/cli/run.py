"""``paintkit run``: run an image-editing model over a benchmark, writing the outputs tree."""

from __future__ import annotations

import argparse
import sys
from functools import partial

from paintkit.cli.flags import count, integer, names, number, renamed, seed
from paintkit.errors import one_line
from paintkit.io.folder_lock import FolderNotWritableError
from paintkit.io.plural import count_of

#: Sanity bounds of --rpm (one request per 1,000 minutes) and --timeout (one day).
MIN_RPM = 0.001
MAX_TIMEOUT = 86_400


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    return key.strip(), value


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run an image-editing model over benchmarks (writes NNNN_output.png)",
        description="Runs a model on every problem under --benchmarks and writes "
        "<outputs>/<model>/<Benchmark>/<task>/NNNN_output.png (the layout 'paintkit eval' "
        "reads), NNNN_reasoning.txt where the model returns text, run_manifest.json and "
        "run_log.jsonl. Resumable: outputs that decode are kept, failed problems are retried "
        "on the next run. See docs/run.md.",
    )
    parser.add_argument("--list", action="store_true", help="list the built-in models and exit")
    parser.add_argument("--model", metavar="NAME",
                        help="a built-in name (--list), diffusers:<repo or path>, or "
                        "module:function / module:factory()")
    parser.add_argument("--benchmarks", metavar="DIR", dest="benchmarks_root",
                        help="folder holding <Benchmark>/ folders (or one benchmark folder)")
    parser.add_argument("--outputs", metavar="DIR", dest="outputs_root",
                        help="outputs root; files go under DIR/<model>/")
    parser.add_argument("--name", metavar="FOLDER",
                        help="model folder name under --outputs (default: from --model)")
    parser.add_argument("--benchmark", type=names, action="extend", dest="benchmarks",
                        metavar="A,B", help="only these benchmarks (folders such as "
                        "PaintBench; comma-separated, repeatable)")
    parser.add_argument("--tasks", type=names, action="extend", metavar="A,B",
                        help="only these task folders (comma-separated, repeatable)")
    parser.add_argument("--subset", metavar="FILE", default=None,
                        help="only the problems of this subset.json (written by 'paintkit "
                        "subset'; docs/subsets.md)")
    parser.add_argument("--limit", type=count(), metavar="N",
                        help="only the first N problems of each task folder")
    parser.add_argument("--seed", type=seed(), default=0,
                        help="run seed; each problem's seed derives from it (default 0)")
    parser.add_argument("--overwrite", action="store_true", help="redo outputs that exist")
    renamed(parser, "--results", "--eval", metavar="DIR", dest="eval_out",
            help="results folder: score outputs as they land into DIR/problem_stats.jsonl")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    local = parser.add_argument_group("local models (diffusers)")
    local.add_argument("--batch-size", type=count(4096), metavar="B",
                       help="problems per forward pass (default 1)")
    local.add_argument("--device", help="cuda, cuda:1, cpu, mps (default: the best available)")
    local.add_argument("--dtype", choices=("float32", "float16", "bfloat16"),
                       help="weights dtype (default: the model's; float32 on CPU)")
    local.add_argument("--offload", choices=("model", "sequential"),
                       help="CPU offload for GPUs with less memory than the model needs")
    local.add_argument("--weights", metavar="PATH_OR_REPO",
                       help="load the pipeline from here instead of the model's repo")
    local.add_argument("--revision", help="hub revision (branch, tag or commit)")
    local.add_argument("--steps", type=count(10_000), help="inference steps (default: the paper's)")
    local.add_argument("--guidance", type=number(0, 1000),
                       help="text guidance scale (default: the paper's)")
    local.add_argument("--option", type=_option, action="append", default=[],
                       metavar="KEY=VALUE",
                       help="extra argument for the pipeline call, the API request or the "
                       "callable (repeatable; numbers and true/false are converted)")
    api = parser.add_argument_group("API models")
    api.add_argument("--concurrency", type=count(1024), metavar="C",
                     help="requests (or batches) in flight (default: 8 for APIs, 1 locally)")
    api.add_argument("--rpm", type=number(MIN_RPM, 1e6),
                     help=f"at most this many requests per minute ({MIN_RPM:g} to 1e6)")
    api.add_argument("--retries", type=integer(0, 100), default=5,
                     help="retries on 429/5xx/timeouts before a problem fails (default 5)")
    api.add_argument("--retry-delay", type=number(0, 3600), default=1.0, metavar="SECONDS",
                     help="first back-off delay; doubles per retry, with jitter (default 1)")
    api.add_argument("--timeout", type=number(0, MAX_TIMEOUT, above=True), default=300.0,
                     help=f"seconds per request, at most {MAX_TIMEOUT:,} (default 300)")
    api.add_argument("--api-model", help="the provider's model id (default: the built-in's)")
    api.add_argument("--api-base", metavar="URL", help="API base URL (compatible servers)")
    api.add_argument("--planner", metavar="MODEL",
                     help="ask this OpenAI-compatible chat model for a step-by-step plan and "
                     "give it to the editor with the instruction (saved as NNNN_plan.txt)")
    api.add_argument("--planner-base", metavar="URL", help="the planner's API base URL")
    scale = parser.add_argument_group("scale")
    scale.add_argument("--engine", choices=("local", "ray"), default="local",
                       help="local (this process) or ray (one worker per GPU of the cluster)")
    scale.add_argument("--workers", type=count(4096), metavar="N",
                       help="ray workers (default: one per GPU of the cluster, 1 without GPUs)")
    scale.add_argument("--address", metavar="HOST:PORT",
                       help="Ray cluster to join ('auto': the one this machine belongs to; "
                       "default: a local Ray instance for this run)")
    parser.set_defaults(func=run)


def _print_list() -> None:
    # heavy (the model registry loads numba and Skia, about 1.4 s): only for --list
    from paintkit.run.registry import builtin_rows

    rows = builtin_rows()
    width = max(len(r[0]) for r in rows)
    kind = max(len(r[1]) for r in rows)
    for name, what, text in rows:
        print(f"{name:<{width}}  {what:<{kind}}  {text}")


def run(args: argparse.Namespace) -> int:
    if args.list:
        _print_list()
        return 0
    missing = [flag for flag, value in (("--model", args.model),
                                        ("--benchmarks", args.benchmarks_root),
                                        ("--outputs", args.outputs_root)) if not value]
    if missing:
        raise ValueError(f"{', '.join(missing)} required (or --list)")
    # heavy (the model registry, numba): imported when the command runs
    from paintkit.run.planner import Planner
    from paintkit.run.registry import build_model, parse_value
    from paintkit.run.runner import run_model

    options = {key: parse_value(value) for key, value in args.option}
    model_args = dict(weights=args.weights, revision=args.revision, dtype=args.dtype,
                      device=args.device, offload=args.offload, batch_size=args.batch_size,
                      concurrency=args.concurrency, steps=args.steps, guidance=args.guidance,
                      api_model=args.api_model, api_base=args.api_base, rpm=args.rpm,
                      retries=args.retries, retry_delay=args.retry_delay, timeout=args.timeout,
                      options=options)
    settings = {"model": args.model, **{k: v for k, v in model_args.items() if v is not None}}
    planner = None
    if args.planner:
        planner = Planner(args.planner, base_url=args.planner_base or args.api_base,
                          rpm=args.rpm, retries=args.retries, timeout=args.timeout)
    if args.engine == "ray":
        model = partial(build_model, args.model, **model_args)
    else:
        model = build_model(args.model, **model_args)
    try:
        summary = run_model(
            model, args.benchmarks_root, args.outputs_root, folder=args.name,
            benchmarks=args.benchmarks, tasks=args.tasks, limit=args.limit,
            batch_size=args.batch_size, concurrency=args.concurrency, seed=args.seed,
            overwrite=args.overwrite, progress=not args.quiet, planner=planner,
            eval_out=args.eval_out, engine=args.engine, workers=args.workers,
            address=args.address, subset=getattr(args, "subset", None),
            settings=settings)
    except (FolderNotWritableError, PermissionError) as exc:
        print(f"paintkit run: error: {one_line(exc)}", file=sys.stderr)
        return 1
    finally:
        if args.engine != "ray":
            model.close()
    usage = ""
    if summary.usage:
        usage = " usage: " + ", ".join(f"{k}={v}" for k, v in sorted(summary.usage.items()))
    print(f"{count_of(summary.written, 'output')} written, {summary.skipped:,} already there, "
          f"{len(summary.failures):,} failed, {summary.problems_per_second:.2f} problems/s "
          f"-> {summary.model_dir}{usage}", file=sys.stderr)
    if summary.scored:
        print(f"{count_of(summary.scored, 'row')} scored -> {args.eval_out}/problem_stats.jsonl",
              file=sys.stderr)
    for key, reason in list(summary.failures.items())[:10]:
        print(f"paintkit run: failed {key}: {one_line(reason)}", file=sys.stderr)
    if summary.failures:
        print(f"paintkit run: {len(summary.failures)} problem(s) failed (reasons in "
              f"{summary.model_dir}/run_manifest.json); run the same command again to retry "
              "them", file=sys.stderr)
        return 1
    return 0
