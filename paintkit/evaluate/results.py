"""Deprecated: ``problem_stats.jsonl`` reading and writing moved to
:mod:`paintkit.layout.problem_stats`, its name to :mod:`paintkit.layout.results` and the
row key to :mod:`paintkit.layout.rows`. The old names below still work for one version,
with a ``DeprecationWarning``."""

from paintkit.deprecation import moved_names

_FILE = "paintkit.layout.problem_stats"

__getattr__ = moved_names(__name__, {
    "LoadedResults": _FILE, "ResultsWriter": _FILE, "load_results": _FILE,
    "read_rows": _FILE, "remove_stale_temporaries": _FILE,
    "RESULTS_NAME": "paintkit.layout.results", "LOCK_NAME": "paintkit.layout.results",
    "row_key": "paintkit.layout.rows",
}, renamed={"RESULTS_NAME": "PROBLEM_STATS_NAME", "LOCK_NAME": "EVAL_LOCK_NAME"})
