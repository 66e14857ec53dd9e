"""Helpers shared by several test folders and by the scripts in bench/.

Imported by name (``from tests.support import metric_oracle``): pytest puts the repository
root on ``sys.path`` (``pythonpath`` in pyproject.toml), and bench scripts run from the root
as modules (``python -m bench.<name>``). A helper used by one folder only sits beside its
tests instead.

- ``metric_oracle``: the metric in plain NumPy (Lab, CIE76, per-tolerance counts, figures);
  ``delta_e_oracle``: CIE94 / CIEDE2000 in exact arithmetic; ``sharma_pairs``: the
  published CIEDE2000 test pairs. The oracles share no code with paintkit.
- ``metric_images``: image pairs for the metric and reward tests.
- ``rows_factory``, ``full_rows``: ``problem_stats.jsonl`` rows without images.
- ``generate_helpers``: small suites and killed-generation helpers.
- ``hostile``: a small synthetic benchmark; the ``tree``, ``results``, ``stats_input`` fixtures.
- ``loopback``: a local HTTP server answering like the image APIs; ``tiny_pipelines``: tiny
  random-weight diffusers pipelines.
"""
