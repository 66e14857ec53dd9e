"""``paintkit generate style-transfer``: the chart style transfer suite (docs/references.md)."""

from __future__ import annotations

import argparse

from paintkit.cli.namespaces import choose_namespace

# Options of other suites the style transfer suite has no use for (charts have no visual
# conditions, modes, sizes or counts; --steps is the compositional suite's).
_NOT_HERE = (("conditions", "--conditions"), ("modes", "--modes"), ("size", "--size"),
             ("counts", "--counts"), ("steps", "--steps"))


def build_style_transfer_suite(args: argparse.Namespace):
    """The suite ``paintkit generate style-transfer`` writes: ``--tasks`` names chart types
    (``bar_chart``, ``scatter_plot``, ``line_chart``, ``heatmap``, ``network``)."""
    # Deferred (heavy): the chart suite imports the chart modules and the Numba kernels;
    # `paintkit --help` stays fast.
    from paintkit.tinygrafix.environment import check_matplotlib
    from paintkit.tinygrafix.style_suite import (
        STYLE_TRANSFER_BENCHMARK,
        STYLE_TRANSFER_NAMESPACE,
        STYLE_TRANSFER_PER_CELL,
        StyleTransferSuite,
    )

    for name, flag in _NOT_HERE:
        if getattr(args, name, None):
            raise ValueError(f"{flag} does not apply to the style transfer suite (its tasks are "
                             "the chart types, chosen with --tasks)")
    any_matplotlib = bool(getattr(args, "any_matplotlib", False))
    check_matplotlib(any_matplotlib)  # before any worker starts: one clear line
    per_cell = STYLE_TRANSFER_PER_CELL if args.per_cell is None else args.per_cell
    namespace = choose_namespace(args, per_cell, STYLE_TRANSFER_NAMESPACE, STYLE_TRANSFER_PER_CELL,
                                 "the style transfer suite")
    return StyleTransferSuite(
        tasks=tuple(args.tasks or ()), per_cell=per_cell, start_slot=args.start_slot,
        namespace=namespace, benchmark=args.benchmark or STYLE_TRANSFER_BENCHMARK,
        beyond_benchmark=bool(getattr(args, "beyond_benchmark", False)),
        any_matplotlib=any_matplotlib)
