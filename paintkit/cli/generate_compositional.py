"""``paintkit generate compositional --steps 2|3``, ``paintkit generate guidance`` and
``paintkit generate references``."""

from __future__ import annotations

import argparse

from paintkit.cli.namespaces import choose_namespace

# Options of the PaintBench suite the compositional suite has no use for.
_NOT_HERE = (("modes", "--modes"), ("size", "--size"), ("counts", "--counts"))


def build_compositional_suite(args: argparse.Namespace):
    # Deferred (heavy): the suite imports the renderer (Skia) and the Numba kernels;
    # `paintkit --help` stays fast.
    from paintkit.suites.compositional import (
        COMPOSITIONAL_BENCHMARK,
        COMPOSITIONAL_NAMESPACE,
        COMPOSITIONAL_PER_CELL,
        CompositionalSuite,
    )

    for name, flag in _NOT_HERE:
        if getattr(args, name, None):
            raise ValueError(f"{flag} does not apply to the compositional suite (its kinds are "
                             "chosen with --tasks multi_edit,conversational)")
    steps = getattr(args, "steps", None) or 2
    per_cell = COMPOSITIONAL_PER_CELL if args.per_cell is None else args.per_cell
    namespace = choose_namespace(args, per_cell, COMPOSITIONAL_NAMESPACE, COMPOSITIONAL_PER_CELL,
                                 "the compositional suite")
    return CompositionalSuite(
        steps=steps, kinds=tuple(args.tasks or ()), conditions=tuple(args.conditions or ()),
        per_cell=per_cell, start_slot=args.start_slot, namespace=namespace,
        benchmark=args.benchmark or COMPOSITIONAL_BENCHMARK,
        beyond_benchmark=bool(getattr(args, "beyond_benchmark", False)))


def build_guidance_suite(args: argparse.Namespace):
    """``paintkit generate guidance``: the single-target tasks with a drawn cue."""
    # Deferred (heavy: Skia, numba): as above.
    from paintkit.suites.guidance import GUIDANCE_BENCHMARK, GuidanceSuite

    return _scene_grid_suite(args, GuidanceSuite, GUIDANCE_BENCHMARK)


def build_reference_suite(args: argparse.Namespace):
    """``paintkit generate references``: PaintBench scenes edited by reference images."""
    # Deferred (heavy: Skia, numba): as above.
    from paintkit.suites.references import REFERENCES_BENCHMARK, ReferenceSuite

    return _scene_grid_suite(args, ReferenceSuite, REFERENCES_BENCHMARK)


def _scene_grid_suite(args: argparse.Namespace, suite_class, benchmark: str):
    """A tasks x conditions x per-cell suite over PaintBench scenes (guidance, references)
    from the command's flags; its own namespace, problems per cell and name come from the
    suite class (``OWN_NAMESPACE``, ``OWN_PER_CELL``, ``OWN_NAME``)."""
    for name, flag in _NOT_HERE + (("steps", "--steps"),):
        if getattr(args, name, None):
            raise ValueError(f"{flag} does not apply to {suite_class.OWN_NAME}")
    per_cell = suite_class.OWN_PER_CELL if args.per_cell is None else args.per_cell
    namespace = choose_namespace(args, per_cell, suite_class.OWN_NAMESPACE,
                                 suite_class.OWN_PER_CELL, suite_class.OWN_NAME)
    return suite_class(tasks=tuple(args.tasks or ()), conditions=tuple(args.conditions or ()),
                       per_cell=per_cell, start_slot=args.start_slot, namespace=namespace,
                       benchmark=args.benchmark or benchmark,
                       beyond_benchmark=bool(getattr(args, "beyond_benchmark", False)))
