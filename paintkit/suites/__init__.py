"""Suites: ordered sets of problems, each a grid over one problem source
(:class:`~paintkit.suites.grid.SourceSuite`; :mod:`paintkit.sources` makes the problems).

Presets: :class:`Suite` (PaintBench, its preservation split, custom suites),
:class:`~paintkit.tinygrafix.suite.TinyGrafixSuite`,
:class:`~paintkit.suites.guidance.GuidanceSuite`,
:class:`~paintkit.suites.references.ReferenceSuite`,
:class:`~paintkit.tinygrafix.style_suite.StyleTransferSuite`,
:class:`~paintkit.suites.compositional.CompositionalSuite`; a
:class:`~paintkit.suites.combined.CombinedSuite` writes several suites as one.

>>> from paintkit.suites import Suite
>>> suite = Suite(tasks=["translation"], per_cell=2, namespace="demo")
>>> problem = next(suite.problems())
>>> problem.metadata["problem_id"]
'demo-translation-baseline-amount-000000'

``Suite()`` is the full PaintBench (needs all 20 tasks); see ``docs/generate.md``.
"""

from paintkit.suites.build import build_problem, preservation_problem
from paintkit.suites.grid import SourceSuite
from paintkit.suites.protocol import ProblemGenerator, ProblemSuite, check_suite
from paintkit.suites.spec import PRESERVATION, PRESERVATION_TASK, PROBLEM, TRAINING_NAMESPACE, ProblemSpec
from paintkit.suites.suite import PAINTBENCH_NAMESPACE, PAINTBENCH_PER_CELL, Suite, resolve_modes
from paintkit.suites.variants import VariantCondition, parse_counts, parse_size, variant_condition

__all__ = [
    "PAINTBENCH_NAMESPACE", "PAINTBENCH_PER_CELL", "PRESERVATION", "PRESERVATION_TASK", "PROBLEM",
    "ProblemGenerator", "ProblemSpec", "ProblemSuite", "SourceSuite", "Suite", "TRAINING_NAMESPACE",
    "VariantCondition", "build_problem", "check_suite", "parse_counts", "parse_size",
    "preservation_problem", "resolve_modes", "variant_condition",
]
