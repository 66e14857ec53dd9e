"""``paintkit generate tinygrafixbench`` and ``paintkit generate all``: the chart suite
from the command line, alone or after PaintBench in the same output root."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from paintkit.cli.namespaces import choose_namespace

# PaintBench-only options a chart suite cannot take (charts have no conditions or modes).
_PAINTBENCH_ONLY = (("conditions", "--conditions"), ("modes", "--modes"), ("size", "--size"),
                    ("counts", "--counts"))


def _chart_suite(args: argparse.Namespace, tasks):
    # Deferred (heavy): the chart suite imports the chart tasks and the Numba kernels;
    # `paintkit --help` stays fast.
    from paintkit.tinygrafix.environment import check_matplotlib
    from paintkit.tinygrafix.suite import TINYGRAFIX_PER_TASK, TinyGrafixSuite

    any_matplotlib = bool(getattr(args, "any_matplotlib", False))
    check_matplotlib(any_matplotlib)  # before any worker starts: one clear line

    per_cell = TINYGRAFIX_PER_TASK if args.per_cell is None else args.per_cell
    namespace = choose_namespace(args, per_cell, "tinygrafixbench", TINYGRAFIX_PER_TASK, "TinyGrafixBench")
    return TinyGrafixSuite(
        tasks=tuple(tasks or ()), start_slot=args.start_slot, per_cell=per_cell,
        namespace=namespace, beyond_benchmark=bool(getattr(args, "beyond_benchmark", False)),
        any_matplotlib=any_matplotlib,
        benchmark=(args.benchmark if args.suite == "tinygrafixbench" else None) or "TinyGrafixBench")


def build_chart_suite(args: argparse.Namespace, build_paintbench: Callable):
    """The suite of ``args.suite`` = ``tinygrafixbench`` or ``all`` (PaintBench, then
    TinyGrafixBench, each in its own benchmark folder of ``--out``)."""
    # Deferred (heavy): paintkit.tinygrafix and the suites import the tasks and the Numba kernels.
    from paintkit.suites.combined import CombinedSuite
    from paintkit.tinygrafix import TINYGRAFIX_TASKS

    if args.suite == "tinygrafixbench":
        for name, flag in _PAINTBENCH_ONLY:
            if getattr(args, name):
                raise ValueError(f"{flag} applies to PaintBench only; TinyGrafixBench has no visual "
                                 "conditions, modes, sizes or counts")
        return _chart_suite(args, args.tasks)

    if args.benchmark:
        raise ValueError("--benchmark names one benchmark folder; 'all' writes PaintBench/ and "
                         "TinyGrafixBench/ side by side")
    chart_tasks = [t for t in args.tasks or () if t in TINYGRAFIX_TASKS]
    paint_tasks = [t for t in args.tasks or () if t not in TINYGRAFIX_TASKS]
    parts = []
    if paint_tasks or not chart_tasks:
        parts.append(build_paintbench(argparse.Namespace(**{**vars(args), "tasks": paint_tasks})))
    if chart_tasks or not paint_tasks:
        parts.append(_chart_suite(args, chart_tasks))
    return CombinedSuite(parts)
