"""``paintkit verify``: a benchmark copy against the release's content hashes, or a submitted
results folder against its outputs (rescored); the work is :mod:`paintkit.verify`."""

from __future__ import annotations

import argparse
import sys

from paintkit.cli.flags import integer

#: Lines that differ shown one by one before "... and N more".
SHOW = 20


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check a benchmark copy, or rescore a submitted results folder",
        description="'paintkit verify BENCHMARK_DIR' checks a benchmark copy against the "
        "content hashes of the release shipped with paintkit: one line per problem that "
        "differs, is missing or is not in the release, with why (edited since generated, per "
        "the copy's manifest.json; another paintkit version; another namespace; other "
        "settings). 'paintkit verify --results DIR --outputs DIR [BENCHMARK_DIR]' checks a "
        "submitted results folder: each output's hash against results.json and, with the "
        "benchmark, its manifest hash and every row rescored. Exit 0 when everything "
        "matches, 1 when something differs. See docs/verify.md.",
    )
    parser.add_argument("benchmark_dir", nargs="?", metavar="BENCHMARK_DIR",
                        help="a benchmark tree, one benchmark folder, or a folder of shards")
    parser.add_argument("--benchmarks", metavar="DIR", dest="benchmarks_root",
                        help="the same as BENCHMARK_DIR")
    parser.add_argument("--results", metavar="DIR", help="a results folder to check "
                        "(results.json and problem_stats.jsonl)")
    parser.add_argument("--outputs", metavar="DIR", help="the model-outputs tree it scored")
    parser.add_argument("--jobs", "-j", type=integer(1, 4096), default=1, metavar="N",
                        help="worker processes that hash the copy or rescore the submission "
                        "(default: 1)")
    parser.set_defaults(func=run)


def _print(verdict, what: str) -> int:
    for note in verdict.notes:
        print(f"paintkit verify: note: {note}", file=sys.stderr)
    for line in verdict.differs[:SHOW]:
        print(line)
    if len(verdict.differs) > SHOW:
        print(f"... and {len(verdict.differs) - SHOW:,} more")
    if verdict.kinds:  # say what was counted: "1,008 output hashes and 1,008 rows rescored"
        checked = verdict.what_was_checked()
        if verdict.ok:
            print(f"paintkit verify: {what}: {checked} checked, all match", file=sys.stderr)
            return 0
        print(f"paintkit verify: {what}: {checked} checked, {len(verdict.differs):,} differ",
              file=sys.stderr)
        return 1
    if verdict.ok:
        print(f"paintkit verify: {what}: all {verdict.checked:,} checks match", file=sys.stderr)
        return 0
    print(f"paintkit verify: {what}: {len(verdict.differs):,} of {verdict.checked:,} checks "
          "differ", file=sys.stderr)
    return 1


def run(args: argparse.Namespace) -> int:
    from paintkit.verify import verify_benchmark, verify_submission  # numba: rescoring

    if args.benchmark_dir and args.benchmarks_root and \
            args.benchmark_dir != args.benchmarks_root:
        raise ValueError("give the benchmark folder once (BENCHMARK_DIR or --benchmarks)")
    bench = args.benchmark_dir or args.benchmarks_root
    if (args.results is None) != (args.outputs is None):
        raise ValueError("--results and --outputs go together")
    if args.results is not None:
        verdict = verify_submission(args.results, args.outputs, bench, jobs=args.jobs)
        if bench is not None:
            verdict.notes.append(f"whether {bench} is the release: 'paintkit verify {bench}'")
        return _print(verdict, f"{args.results}")
    if bench is None:
        raise ValueError("give a benchmark folder, or --results DIR --outputs DIR")
    return _print(verify_benchmark(bench, jobs=args.jobs), str(bench))
