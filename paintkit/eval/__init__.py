"""Scoring directories of model outputs (``paintkit eval``): jobs, one problem, the runner.

Start at :func:`evaluate`; the trees and the results file are read and written through
:mod:`paintkit.layout` (docs/file-layout.md), :mod:`paintkit.eval.problem` scores one
problem, :mod:`paintkit.eval.runner` runs them all in parallel and resumably.
"""

from paintkit.eval.runner import EvalSummary, evaluate
from paintkit.layout.benchmark import BenchmarkProblem, discover_problems
from paintkit.layout.errors import LayoutError
from paintkit.layout.problem_stats import read_rows

__all__ = ["BenchmarkProblem", "EvalSummary", "LayoutError", "discover_problems", "evaluate",
           "read_rows"]
