"""Deprecated: benchmark and output trees moved to :mod:`paintkit.layout`
(:mod:`paintkit.layout.benchmark`, :mod:`paintkit.layout.outputs`). The old names below
still work for one version, with a ``DeprecationWarning``."""

from paintkit.deprecation import moved_names

_BENCHMARK = "paintkit.layout.benchmark"
_OUTPUTS = "paintkit.layout.outputs"

__getattr__ = moved_names(__name__, {
    "BenchmarkProblem": _BENCHMARK, "benchmark_tasks": _BENCHMARK,
    "discover_problems": _BENCHMARK, "read_metadata": _BENCHMARK,
    "LayoutError": "paintkit.layout.errors",
    "OUTPUT_COMPANIONS": _OUTPUTS, "discover_models": _OUTPUTS, "ignored_outputs": _OUTPUTS,
})
