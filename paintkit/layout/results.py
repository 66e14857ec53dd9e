"""Results folders: the name of every file ``eval``, ``stats``, ``explain`` and ``report``
read and write there, spelled once, and the paths to them (docs/file-layout.md).

::

    <results>/problem_stats.jsonl                one row per (model, benchmark, task, idx)
    <results>/turn_stats.jsonl                   eval --turns: one row per turn
    <results>/aggregate_stats.jsonl              stats: the aggregation hierarchy
    <results>/aggregate_stats.provenance.json    stats: how it was computed
    <results>/comparisons.jsonl                  stats: paired differences, correlation
    <results>/explanations.jsonl                 explain: object tags per output
    <results>/diffs/<model>/<Benchmark>/<task>/NNNN_diff_tTT.png, NNNN_segments.json
    <results>/.paintkit-eval.lock                held while eval writes
"""

from __future__ import annotations

from pathlib import Path

#: Per-problem rows (``paintkit eval``, ``paintkit run --results``).
PROBLEM_STATS_NAME = "problem_stats.jsonl"
#: Per-turn rows of conversational problems (``paintkit eval --turns``).
TURN_STATS_NAME = "turn_stats.jsonl"
#: The aggregation hierarchy (``paintkit stats``), read by ``paintkit report``.
AGGREGATE_NAME = "aggregate_stats.jsonl"
#: Paired differences and the cross-benchmark correlation (``paintkit stats``).
COMPARISONS_NAME = "comparisons.jsonl"
#: Object tags of every output (``paintkit explain``), shown by ``paintkit report``.
EXPLANATIONS_NAME = "explanations.jsonl"
#: The lock ``paintkit eval`` (and ``run --results``) hold on a results folder.
EVAL_LOCK_NAME = ".paintkit-eval.lock"
#: The folder of ``paintkit eval --save-images``.
DIFFS_FOLDER = "diffs"
#: Suffix of the provenance file beside an aggregate file (``<stem>.provenance.json``).
PROVENANCE_SUFFIX = ".provenance.json"


def results_folder(path) -> Path:
    """The results folder of ``path``: ``path`` itself when it is a folder, else the folder
    holding the given file."""
    path = Path(path)
    return path if path.is_dir() else path.parent


def problem_stats_path(path) -> Path:
    """``problem_stats.jsonl`` of a results folder, or ``path`` itself when it names a
    file (a results file of any name)."""
    path = Path(path)
    return path / PROBLEM_STATS_NAME if path.is_dir() else path


def aggregate_path(path) -> Path:
    """``aggregate_stats.jsonl`` in the results folder of ``path`` (the folder, or the
    folder holding the given ``problem_stats.jsonl``): where ``paintkit report`` reads it."""
    return results_folder(path) / AGGREGATE_NAME


def provenance_path(aggregate) -> Path:
    """The provenance file beside an aggregate file: ``<stem>.provenance.json``."""
    aggregate = Path(aggregate)
    return aggregate.with_name(aggregate.stem + PROVENANCE_SUFFIX)


def explanations_path(path) -> Path:
    """``explanations.jsonl`` in the results folder of ``path``."""
    return results_folder(path) / EXPLANATIONS_NAME


def diff_image_path(images_root, model: str, problem, tolerance: int) -> Path:
    """``<images_root>/<model>/<Benchmark>/<task>/NNNN_diff_tTT.png`` of one problem."""
    return problem.output_path(Path(images_root), model).with_name(
        f"{problem.idx:04d}_diff_t{tolerance:02d}.png")


def segments_path(images_root, model: str, problem) -> Path:
    """Where ``--save-images`` writes the error segments beside the diff images."""
    return problem.output_path(Path(images_root), model).with_name(
        f"{problem.idx:04d}_segments.json")
