"""Scoring directories of model outputs (``paintkit eval``): discovery, jobs, results.

Start at :func:`evaluate`; :mod:`paintkit.evaluate.discovery` reads the standard tree (docs/file-layout.md)s,
:mod:`paintkit.evaluate.problem` scores one problem, :mod:`paintkit.evaluate.results`
writes ``problem_stats.jsonl``.
"""

from paintkit.evaluate.discovery import BenchmarkProblem, LayoutError, discover_problems
from paintkit.evaluate.results import RESULTS_NAME, read_rows
from paintkit.evaluate.runner import EvalSummary, evaluate

__all__ = ["BenchmarkProblem", "EvalSummary", "LayoutError", "RESULTS_NAME",
           "discover_problems", "evaluate", "read_rows"]
