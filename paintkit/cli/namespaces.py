"""The seed namespace of a suite built from ``paintkit generate``'s options (shared by the
PaintBench, chart, compositional and guidance suites of the command)."""

from __future__ import annotations

import argparse
import sys


def choose_namespace(args: argparse.Namespace, per_cell: int | None = None, own: str = "paintbench",
                     own_per_cell: int = 12, name: str = "PaintBench") -> str:
    """The seed namespace: as given, else the benchmark's ``own`` namespace for its
    ``own_per_cell`` slots per cell and ``train`` past them. Slots past them in ``own``
    contain the benchmark's problems: the suite itself refuses them unless
    ``--beyond-benchmark`` (:func:`paintkit.suites.spec.check_benchmark_reach`); with it,
    a warning is printed."""
    # Deferred (heavy): paintkit.suites imports the tasks and their Numba kernels.
    from paintkit.suites import TRAINING_NAMESPACE

    if per_cell is None:
        per_cell = own_per_cell if args.per_cell is None else args.per_cell
    beyond = args.start_slot + per_cell > own_per_cell
    if args.namespace is None:
        return TRAINING_NAMESPACE if beyond else own
    if args.namespace == own and beyond and getattr(args, "beyond_benchmark", False):
        print(f"paintkit generate: warning: this corpus contains the {name} problems themselves "
              f"(namespace '{own}', more than {own_per_cell} per cell); do not train on it and "
              f"evaluate on {name}", file=sys.stderr)
    return args.namespace
