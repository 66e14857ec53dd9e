"""``paintkit generate``: write PaintBench, custom suites or sharded corpora to disk."""

from __future__ import annotations

import argparse
import sys

from paintkit.cli.flags import count, integer
from paintkit.cli.generate_compositional import (
    build_compositional_suite,
    build_guidance_suite,
    build_reference_suite,
)
from paintkit.cli.generate_style_transfer import build_style_transfer_suite
from paintkit.cli.generate_tinygrafix import build_chart_suite
from paintkit.cli.namespaces import choose_namespace
from paintkit.cli.signals import Terminated, exit_status
from paintkit.errors import one_line

SUITES = ("paintbench", "tinygrafixbench", "all", "compositional", "guidance", "references",
          "style-transfer")
FORMATS = ("directory", "webdataset", "parquet", "verl-omni", "pix2pix", "flow-grpo",
           "flow-factory")
ENGINES = ("process", "inprocess", "ray")
#: Sanity bounds of --per-cell and --start-slot (slots are recorded with 6+ digits).
MAX_PER_CELL = 1_000_000
MAX_START_SLOT = 10**12


def _names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:  # '' would otherwise mean "everything"
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of names, got {text!r}")
    return names


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "generate",
        help="generate PaintBench (or a custom suite) into a folder",
        description="Generate a suite: 'paintbench' alone is the full benchmark (20 tasks x 8 "
        "conditions x 12 problems + 96 preservation problems) in the standard layout (docs/file-layout.md) "
        "<out>/PaintBench/<task>/NNN_{input,answer}.png + NNN.json. Options below change it "
        "into a custom suite. Interrupted runs resume; see docs/generate.md.",
    )
    p.add_argument("suite", choices=SUITES, help="the suite to start from")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="output folder, or a URL: file:///path, s3://bucket/prefix, gs://... "
                   "(fsspec; workers write there with --engine ray, docs/generate.md)")
    g = p.add_argument_group("custom suites")
    g.add_argument("--steps", type=int, choices=(2, 3), default=None,
                   help="compositional: edits per problem (default 2; docs/compositional.md)")
    g.add_argument("--tasks", type=_names, metavar="A,B", help="tasks (default: all 20)")
    g.add_argument("--modes", type=_names, metavar="M,T:M",
                   help="modes to keep, as MODE or TASK:MODE (default: all)")
    g.add_argument("--conditions", type=_names, metavar="A,B", help="visual conditions (default: all 8)")
    g.add_argument("--per-cell", type=count(MAX_PER_CELL), default=None, metavar="N",
                   help="problems per (task, condition) (default: 12; tinygrafixbench: 30 per task)")
    g.add_argument("--size", metavar="WxH", help="canvas of the square conditions (default 1024x1024; "
                   "horizontal/vertical keep their aspect)")
    g.add_argument("--counts", action="append", metavar="[TABLE=]B,M,H,X",
                   help="object counts at the baseline/n_med/n_high/n_xhigh levels for the "
                   "'default' count table or TABLE (repeatable)")
    g.add_argument("--namespace", default=None,
                   help="seed namespace; another name gives fresh problems (default: the "
                   "benchmark's own, paintbench or tinygrafixbench, within the benchmark's problems "
                   "per cell; 'train' for anything beyond them)")
    g.add_argument("--beyond-benchmark", action="store_true",
                   help="allow more problems per cell than the benchmark has in its own namespace "
                   "(a corpus that contains every benchmark problem)")
    g.add_argument("--any-matplotlib", action="store_true",
                   help="TinyGrafixBench: draw the charts with the installed matplotlib even when it "
                   "is not the release the benchmark's bytes are made with (recorded in the manifest)")
    g.add_argument("--start-slot", type=integer(0, MAX_START_SLOT), default=0, metavar="N",
                   help="first problem of each cell (continue a --per-cell N corpus with N)")
    g.add_argument("--no-preservation", action="store_true",
                   help="leave out the preservation split (built from removal)")
    g.add_argument("--benchmark", default=None,
                   help="benchmark folder name (directory format; default PaintBench / TinyGrafixBench)")
    o = p.add_argument_group("output and engines")
    o.add_argument("--format", choices=FORMATS, default="directory",
                   help="directory (the standard layout, default), webdataset (tar shards), parquet "
                   "shards, or a trainer's own format: verl-omni (its image-editing parquet rows), "
                   "pix2pix (diffusers' train_instruct_pix2pix columns as a HF dataset), flow-grpo, "
                   "flow-factory (their JSONL editing datasets)")
    o.add_argument("--svg", action="store_true",
                   help="also write NNN_input.svg and NNN_answer.svg (and NNN_reference_N.svg "
                   "for each reference scene) beside the PNGs (directory format; one SVG "
                   "element per scene element, see docs/svg.md)")
    o.add_argument("--shard-size", type=count(), default=1000, metavar="N", help="problems per shard")
    o.add_argument("--world-size", type=count(), default=None, metavar="W",
                   help="shard formats: the fewest shards, a multiple of W in number (training "
                   "ranks), of at most --shard-size problems; split evenly (sizes differ by at "
                   "most one) when no single shard size gives that count")
    o.add_argument("--held-out", type=float, default=None, metavar="FRACTION",
                   help="parquet, webdataset: the fraction of problems written to the test "
                   "split, chosen by a hash of each problem_id (default 0.1; 0: train only)")
    o.add_argument("--engine", choices=ENGINES, default="process",
                   help="process pool (default), inprocess, or ray")
    o.add_argument("--jobs", "-j", type=integer(0, 4096), default=None, metavar="N",
                   help="worker processes (default: one per core); ray: CPUs of a local instance")
    o.add_argument("--address", default=None, help="Ray cluster address (auto, HOST:PORT, ray://HOST:PORT)")
    o.add_argument("--overwrite", action="store_true",
                   help="replace another suite's files in --out instead of refusing")
    o.add_argument("--quiet", action="store_true", help="no progress bar")
    o.add_argument("--skip-infeasible", action="store_true",
                   help="with --size or --counts: leave out the task x condition x mode cells "
                   "that cannot be made at that size (each is named, with the smallest size "
                   "that works) instead of stopping before any work")
    o.add_argument("--slot-seconds", type=float, default=None, metavar="S",
                   help="a problem still rejecting seeds after S seconds gives up with an "
                   "error naming it (default 120; 0: no limit)")
    p.set_defaults(func=run)


def build_suite(args: argparse.Namespace):
    if args.suite == "compositional":
        return build_compositional_suite(args)
    if args.suite == "guidance":
        return build_guidance_suite(args)
    if args.suite == "references":
        return build_reference_suite(args)
    if args.suite == "style-transfer":
        return build_style_transfer_suite(args)
    if getattr(args, "steps", None):
        raise ValueError("--steps applies to the compositional suite only")
    if args.suite != "paintbench":
        return build_chart_suite(args, build_paintbench_suite)
    return build_paintbench_suite(args)


def build_paintbench_suite(args: argparse.Namespace):
    # Deferred (heavy): the suites import the tasks and their Numba kernels; `paintkit --help`
    # stays fast.
    from paintkit.suites import Suite, parse_counts, parse_size

    per_cell = 12 if args.per_cell is None else args.per_cell
    kwargs = {
        "per_cell": per_cell, "start_slot": args.start_slot,
        "namespace": choose_namespace(args, per_cell),
        "preservation": not args.no_preservation, "benchmark": args.benchmark or "PaintBench",
        "beyond_benchmark": bool(getattr(args, "beyond_benchmark", False)),
    }
    for name in ("tasks", "conditions", "modes"):
        if getattr(args, name):
            kwargs[name] = tuple(getattr(args, name))
    if args.size:
        kwargs["size"] = parse_size(args.size)
    if args.counts:
        kwargs["counts"] = parse_counts(args.counts)
    return Suite(**kwargs)


def dropped_modes(suite) -> str | None:
    """One line naming the modes that ``suite.per_cell`` problems per cell never reach (cell
    position ``p`` gets ``modes[p % len(modes)]``), or None when every mode appears."""
    if not hasattr(suite, "task_modes"):
        return None
    never, most = [], 1
    for task in suite.tasks:
        modes = suite.task_modes(task)
        if suite.per_cell < len(modes):
            never += [f"{task}:{mode}" for mode in modes[suite.per_cell:]]
            most = max(most, len(modes))
    if not never:
        return None
    return (f"--per-cell {suite.per_cell} is fewer than some tasks' modes: {', '.join(never)} "
            f"never appear; use --per-cell {most} or more to cover every mode, or --modes "
            "to choose")


class InfeasibleCells(ValueError):
    """Cells of a custom-size suite that cannot be made (``cells``: their
    :class:`~paintkit.engines.feasibility.Infeasible` records)."""

    def __init__(self, message: str, cells: tuple = ()):
        super().__init__(message)
        self.cells = cells

    def __reduce__(self):
        return type(self), (str(self), self.cells), self.__dict__


def feasible_engine(suite, args: argparse.Namespace):
    """Check a custom-size suite's cells before any work (:mod:`paintkit.engines.feasibility`):
    None when nothing was checked (the benchmark's own canvas and counts), else the suite
    to write (without the cells that cannot be made, with ``--skip-infeasible``) and the
    started engine to write it with (the check ran on its workers).

    Raises:
        InfeasibleCells: some cells cannot be made and ``--skip-infeasible`` is not given.
    """
    # numba, skia: the engines and the suites load only when a command generates
    from paintkit.engines.driver import make_engine
    from paintkit.engines.feasibility import SkippingSuite, check_cells, has_changed_cells
    from paintkit.engines.local import ProcessPoolEngine

    if not has_changed_cells(suite):
        return None
    engine = make_engine(args.engine, args.jobs, args.address)
    checker = ProcessPoolEngine(args.jobs) if args.engine == "ray" else engine
    try:
        cells = check_cells(suite, checker, show=not args.quiet)
        if cells and not getattr(args, "skip_infeasible", False):
            size = "x".join(map(str, suite.size)) if suite.size else "these counts"
            raise InfeasibleCells(f"{len(cells)} cell(s) cannot be made at {size} (checked "
                                  "before any work):", tuple(cells))
    except InfeasibleCells:
        engine.close()  # its workers are idle
        raise
    except BaseException:
        engine.abort()
        raise
    finally:
        if checker is not engine:
            checker.close()
    if cells:
        print(f"paintkit generate: note: --skip-infeasible leaves out {len(cells)} cell(s):",
              file=sys.stderr)
        for cell in cells:
            print(f"  {cell.describe()}", file=sys.stderr)
        suite = SkippingSuite(suite, [(c.task, c.condition, c.mode) for c in cells])
    return suite, engine


def run(args: argparse.Namespace) -> int:
    # Deferred (heavy: Skia, numba, imagecodecs): the engines load the suites, writers and PNG
    # encoders.
    from paintkit.attempts import SLOT_SECONDS, AttemptsExhausted
    from paintkit.engines import write_suite
    from paintkit.writers import WriteError

    if args.address and args.engine != "ray":
        raise ValueError("--address needs --engine ray")
    if getattr(args, "svg", False) and args.suite not in ("paintbench", "compositional", "guidance",
                                                             "references"):
        raise ValueError(f"--svg needs the paintbench suite: {args.suite} problems include "
                         "charts, which are not scenes of shapes")
    suite = build_suite(args)
    shard_size, shards = args.shard_size, None
    if getattr(args, "world_size", None) is not None:
        if args.format == "directory":
            raise ValueError("--world-size applies to the shard formats (webdataset, parquet)")
        from paintkit.engines.unit_write import shard_plan  # numba, Skia: the suites

        shard_size, shards = shard_plan(len(suite), args.world_size, args.shard_size)
    seconds = getattr(args, "slot_seconds", None)
    if seconds is not None and not (seconds >= 0 and seconds < float("inf")):
        raise ValueError(f"--slot-seconds must be a number of seconds >= 0, got {seconds}")
    seconds = SLOT_SECONDS if seconds is None else (seconds or None)
    try:
        engine = feasible_engine(suite, args)
        summary = write_suite(suite if engine is None else engine[0], args.out,
                              format=args.format, shard_size=shard_size, shards=shards,
                              held_out=getattr(args, "held_out", None),
                              engine=args.engine if engine is None else engine[1],
                              jobs=args.jobs, address=args.address,
                              overwrite=args.overwrite, progress=not args.quiet,
                              svg=getattr(args, "svg", False), slot_seconds=seconds)
    except InfeasibleCells as exc:
        print(f"paintkit generate: error: {exc}", file=sys.stderr)
        for cell in exc.cells:
            print(f"  {cell.describe()}", file=sys.stderr)
        print("paintkit generate: use a larger --size, leave those conditions or tasks out, "
              "or --skip-infeasible to generate the rest", file=sys.stderr)
        return 2
    except WriteError as exc:
        print(f"paintkit generate: error: {one_line(exc)}", file=sys.stderr)
        return 1
    except AttemptsExhausted as exc:  # an impossible setting: one line, what to change
        print(f"paintkit generate: error: {one_line(exc)}; this size or condition cannot make "
              "that problem: use a larger --size, or leave the condition or task out",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        what = "terminated (SIGTERM)" if isinstance(exc, Terminated) else "interrupted"
        print(f"\npaintkit generate: {what}; every finished file is kept, run the same "
              "command again to resume", file=sys.stderr)
        return exit_status(exc)
    print(summary.describe(), file=sys.stderr)
    dropped = dropped_modes(suite)
    if dropped is not None:
        print(f"paintkit generate: note: {dropped}", file=sys.stderr)
    return 0


__all__ = ["build_paintbench_suite", "build_suite", "choose_namespace", "register", "run"]
