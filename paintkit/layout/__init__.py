"""The files that connect paintkit's commands: docs/file-layout.md in code.

One module owns each part of the layout, and every command reads and writes through it:

- :mod:`~paintkit.layout.benchmark`: benchmark trees (``<Benchmark>/<task>/NNN_*``),
  finding problems, reading a problem's metadata and images;
- :mod:`~paintkit.layout.outputs`: model-output trees (``<model>/<Benchmark>/<task>/
  NNNN_output.png``) and the files ``paintkit run`` writes beside them;
- :mod:`~paintkit.layout.results`: the names of the files in a results folder and the
  paths to them;
- :mod:`~paintkit.layout.rows`: the row key and :class:`ResultRow`, the typed row;
- :mod:`~paintkit.layout.readers`: reading JSON Lines under a named policy for damaged
  lines (``strict``, ``skip``, ``repair``);
- :mod:`~paintkit.layout.problem_stats`: the resumable ``problem_stats.jsonl`` (loading
  with repair, the append-only writer).

The layout depends on :mod:`paintkit.io` and :mod:`paintkit.metrics.version` only; eval,
stats, report, explain, baselines and the runner depend on it, not on each other.
"""

from paintkit.layout.benchmark import (
    BenchmarkProblem,
    benchmark_tasks,
    discover_problems,
    read_images,
    read_metadata,
)
from paintkit.layout.errors import LayoutError
from paintkit.layout.outputs import OUTPUT_COMPANIONS, discover_models, ignored_outputs
from paintkit.layout.problem_stats import (
    LoadedResults,
    ResultsWriter,
    load_results,
    read_rows,
    remove_stale_temporaries,
)
from paintkit.layout.readers import POLICIES, REPAIR, SKIP, STRICT, Damage, JsonlRead, read_jsonl
from paintkit.layout.results import (
    AGGREGATE_NAME,
    COMPARISONS_NAME,
    EVAL_LOCK_NAME,
    EXPLANATIONS_NAME,
    PROBLEM_STATS_NAME,
    TURN_STATS_NAME,
    aggregate_path,
    problem_stats_path,
    provenance_path,
    results_folder,
)
from paintkit.layout.rows import KEY_FIELDS, ResultRow, RowKey, row_category, row_key, task_category

__all__ = [
    "AGGREGATE_NAME", "COMPARISONS_NAME", "EVAL_LOCK_NAME", "EXPLANATIONS_NAME", "KEY_FIELDS",
    "OUTPUT_COMPANIONS", "POLICIES", "PROBLEM_STATS_NAME", "REPAIR", "SKIP", "STRICT",
    "TURN_STATS_NAME", "BenchmarkProblem", "Damage", "JsonlRead", "LayoutError",
    "LoadedResults", "ResultRow", "ResultsWriter", "RowKey", "aggregate_path",
    "benchmark_tasks", "discover_models", "discover_problems", "ignored_outputs",
    "load_results", "problem_stats_path", "provenance_path", "read_images", "read_jsonl",
    "read_metadata", "read_rows", "remove_stale_temporaries", "results_folder",
    "row_category", "row_key", "task_category",
]
