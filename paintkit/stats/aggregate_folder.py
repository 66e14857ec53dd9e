"""Aggregating a results folder (:func:`paintkit.aggregate`, ``paintkit stats``):
``problem_stats.jsonl`` -> ``aggregate_stats.jsonl`` (+ its provenance, the model
comparisons and, when asked, diagnostics), written once; ``paintkit report`` reads them.

>>> import paintkit
>>> result = paintkit.aggregate("results", n_boot=1000)       # doctest: +SKIP
>>> print(result.leaderboard())                               # doctest: +SKIP
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from paintkit.io.folder_lock import owned_outputs
from paintkit.layout.results import COMPARISONS_NAME, aggregate_path, problem_stats_path
from paintkit.stats.aggregate import aggregate_tables
from paintkit.stats.bootstrap import check_n_boot
from paintkit.stats.compare import comparison_rows
from paintkit.stats.diagnostics import diagnostics_rows
from paintkit.stats.leaderboard import format_leaderboard, leaderboard_rows
from paintkit.stats.output import write_jsonl, write_provenance
from paintkit.stats.results_file import recorded_subset
from paintkit.stats.table import ProblemTable, build_tables, name_blocks, read_problem_rows
from paintkit.subsets import as_subset

if TYPE_CHECKING:
    from paintkit.subsets import SubsetLike

__all__ = ["AggregateResult", "aggregate"]


@dataclass
class AggregateResult:
    """What :func:`aggregate` computed and where it wrote it.

    ``rows``: the aggregate rows (one dict per (model, benchmark, level, key), the blocks
    named after ``delta_e``); ``comparisons``: the paired model comparisons (empty without
    CIs); ``tables``: the per-(model, benchmark) problem tables they were computed from;
    ``subset``: ``{"file", "problems", "of"}`` when the rows are a subset's (the leaderboard
    says so).
    """

    path: Path
    rows: list[dict]
    comparisons: list[dict]
    tables: list[ProblemTable]
    delta_e: str
    seconds: float
    subset: dict | None = None

    def leaderboard(self, format: str = "text") -> str:
        """The leaderboard (model, score, CI, coverage) as ``text``, ``md``, ``csv``,
        ``latex`` or ``json``; a subset's says so."""
        return format_leaderboard(leaderboard_rows(self.rows, self.tables,
                                                   block=f"{self.delta_e}_mean"), format,
                                  subset=self.subset)


def _refuse_overwriting(inputs: Path, outputs: dict[str, Path | str | None]) -> None:
    """``ValueError`` when an output file is the input results file (it would be replaced
    by aggregate rows) or two outputs are the same file."""
    source = problem_stats_path(inputs).resolve()
    seen: dict[Path, str] = {}
    for option, value in outputs.items():
        if value is None:
            continue
        target = Path(value).resolve()
        if target == source:
            raise ValueError(f"{option} {value} is the input results file; refusing to "
                             "overwrite it (choose another file, e.g. aggregate_stats.jsonl)")
        if target in seen:
            raise ValueError(f"{seen[target]} and {option} name the same file ({value})")
        seen[target] = option


def aggregate(results: str | Path, *, output: str | Path | None = None, n_boot: int = 10_000,
              seed: int = 0, ci: bool = True, jobs: int = 1, delta_e: str | None = None,
              diagnostics: str | Path | None = None, command: str | None = None,
              write: bool = True, leaderboard: str | Path | None = None,
              subset: SubsetLike | None = None) -> AggregateResult:
    """Aggregate the scored rows of ``results`` and write them.

    Args:
        results: a results folder, or the ``problem_stats.jsonl`` in it.
        output: the aggregate file (default: ``aggregate_stats.jsonl`` beside the results,
            where the report reads it); ``comparisons.jsonl`` goes beside it.
        n_boot: bootstrap resamples of the 95% percentile CIs; ``seed``: their seed.
        ci: False skips the bootstrap (no ``ci95_*`` keys, no comparisons).
        jobs: worker processes, one (model, benchmark) each.
        delta_e: read the rows scored with this colour difference (default: the rows' one
            formula).
        diagnostics: also write diagnostics rows (pass rates, condition deltas, edit-size
            buckets, failure modes) to this file.
        command: the command line recorded in the provenance file, if any.
        write: False computes the aggregate rows only (no file, no comparisons, no
            diagnostics): the leaderboard ``paintkit eval`` prints.
        leaderboard: the file the caller writes the leaderboard into (``paintkit stats
            --output``): refused, as the other outputs, when it is the input or one of them.
        subset: a ``subset.json`` of ``paintkit subset`` (or a
            :class:`~paintkit.subsets.Subset`): only the rows of its problems. Without it,
            the subset the results folder's ``results.json`` records (if any) is named.

    Raises ``ValueError`` for bad input (an output that is the input file, a bad ``n_boot``,
    rows that do not parse) with a one-line message.
    """
    start = time.perf_counter()
    check_n_boot(n_boot)
    output = Path(output) if output is not None else aggregate_path(results)
    if write:
        _refuse_overwriting(Path(results), {"output": output, "diagnostics": diagnostics,
                                            "--output": leaderboard})

    subset = as_subset(subset)
    problem_rows = read_problem_rows(results)
    if subset is not None:
        problem_rows = subset.select_rows(problem_rows)
        if not problem_rows:
            raise ValueError(f"{results}: no row is of a problem of {subset.path}")
    scope = subset.scope() if subset is not None else recorded_subset(results)
    tables = build_tables(problem_rows, delta_e)
    formula = tables[0].delta_e if tables else "cie76"
    pairs: list[dict] = []
    if not write:
        rows = name_blocks(aggregate_tables(tables, n_boot=n_boot, seed=seed, ci=ci, jobs=jobs),
                           formula)
        return AggregateResult(output, rows, pairs, tables, formula, time.perf_counter() - start,
                               scope)
    owned = [str(output)] + ([str(diagnostics)] if diagnostics else [])
    with owned_outputs(owned, "paintkit stats"):
        rows = name_blocks(aggregate_tables(tables, n_boot=n_boot, seed=seed, ci=ci, jobs=jobs),
                           formula)
        write_jsonl(output, rows)
        write_provenance(output, n_boot=n_boot if ci else None, seed=seed, delta_e=formula,
                         command=command, subset=scope)
        if ci:
            pairs = comparison_rows(tables, n_boot=n_boot, seed=seed)
            if pairs:
                write_jsonl(output.with_name(COMPARISONS_NAME), pairs)
        if diagnostics:
            write_jsonl(diagnostics, name_blocks(diagnostics_rows(
                tables, n_boot=n_boot, seed=seed, ci=ci), formula))
    return AggregateResult(output, rows, pairs, tables, formula, time.perf_counter() - start,
                           scope)
