"""The files that connect paintkit's commands: docs/file-layout.md in code.

One module owns each part of the layout, and every command reads and writes through it:

- :mod:`~paintkit.layout.problem_files`: the names of a problem's files in a benchmark
  tree (``NNN_input.png``, ``NNN_answer.png``, ``NNN.json``), for writers and readers;
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

The names below are loaded on first use, so ``from paintkit.layout.results import ...``
(file names only) stays as light as the command line needs.
"""

import importlib

_HOMES = {
    "paintkit.layout.benchmark": ("BenchmarkProblem", "benchmark_tasks", "discover_problems",
                                  "read_images", "read_metadata"),
    "paintkit.layout.errors": ("LayoutError",),
    "paintkit.layout.outputs": ("OUTPUT_COMPANIONS", "discover_models", "ignored_outputs"),
    "paintkit.layout.problem_stats": ("LoadedResults", "ResultsWriter", "load_results",
                                      "read_rows", "remove_stale_temporaries"),
    "paintkit.layout.readers": ("POLICIES", "REPAIR", "SKIP", "STRICT", "Damage", "JsonlRead",
                                "read_jsonl"),
    "paintkit.layout.results": ("AGGREGATE_NAME", "COMPARISONS_NAME", "EVAL_LOCK_NAME",
                                "EXPLANATIONS_NAME", "PROBLEM_STATS_NAME", "TURN_STATS_NAME",
                                "aggregate_path", "problem_stats_path", "provenance_path",
                                "results_folder"),
    "paintkit.layout.rows": ("KEY_FIELDS", "ResultRow", "RowKey", "row_key"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}
__all__ = sorted(_HOME_OF)


def __getattr__(name: str):
    if name not in _HOME_OF:
        raise AttributeError(f"module 'paintkit.layout' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOME_OF[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
