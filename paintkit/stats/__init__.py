"""Benchmark statistics from ``problem_stats.jsonl``: the aggregation hierarchy with bootstrap
CIs (``paintkit stats``) and diagnostics (pass rates, condition deltas, edit-size buckets,
failure modes).

Kept free of heavy imports: import the submodules you need, e.g.
``from paintkit.stats.aggregate import aggregate_tables``.
"""
