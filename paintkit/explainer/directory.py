"""Explain every output of a benchmark tree (standard layout, docs/file-layout.md) into one JSONL file.

For each (model, problem) the benchmark's input, answer and metadata are read once, the
output is explained with :func:`~paintkit.explainer.explain`, and one row is written:
the problem key (``model, benchmark, task, mode, visual_condition, idx``) plus the
explanation. A problem whose own files are broken gets a row with ``"error"`` and the run
goes on; a missing or undecodable output gets ``has_output: false`` and its ``error``.
The file is written atomically at the end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from paintkit.explainer.problem import (
    DEFAULT_TOLERANCE,
    check_tolerance,
    explain,
    prepare_scenes,
)
from paintkit.io.atomic import write_text_atomic
from paintkit.io.images import ImageDecodeError, load_rgb
from paintkit.kernels.color.delta_e import check_delta_e
from paintkit.layout.benchmark import read_metadata
from paintkit.layout.results import EXPLANATIONS_NAME
from paintkit.loader import load
from paintkit.parallel import map_in_workers

__all__ = ["ExplainSummary", "explain_directory"]


@dataclass
class ExplainSummary:
    rows: int
    failed: int
    missing_outputs: int
    path: Path


def _problem_rows(problem, models, outputs_root, tolerance, delta_e) -> list[dict]:
    meta = read_metadata(problem)
    inputs, answer = load_rgb(problem.input_path), load_rgb(problem.answer_path)
    scenes = prepare_scenes(answer, inputs, meta)  # once for every model's output
    rows = []
    for model in models:
        key = {"model": model, "benchmark": problem.benchmark, "task": problem.task,
               "mode": meta.get("mode", "default"),
               "visual_condition": meta.get("visual_condition"), "idx": problem.idx}
        path = problem.output_path(outputs_root, model)
        try:
            output, error = load_rgb(path), None
        except ImageDecodeError as exc:
            output, error = None, str(exc) if path.exists() else f"{path}: no output file"
        row = {**key, **explain(output, answer, inputs, meta, tolerance=tolerance,
                                delta_e=delta_e, scenes=scenes)}
        if error is not None:
            row["error"] = error
        rows.append(row)
    return rows


def _explain_rows(problem, models, outputs_root, tolerance, delta_e) -> tuple[list[dict], bool]:
    """One problem's rows and whether the problem itself is broken (its rows then carry
    the error)."""
    try:
        return _problem_rows(problem, models, Path(outputs_root), tolerance, delta_e), False
    except (ImageDecodeError, ValueError) as exc:  # a broken benchmark problem
        return [{"model": m, "benchmark": problem.benchmark, "task": problem.task,
                 "idx": problem.idx, "error": str(exc)} for m in models], True


def _explain_chunk(chunk, models, outputs_root, tolerance, delta_e) -> list:
    return [_explain_rows(problem, models, outputs_root, tolerance, delta_e)
            for problem in chunk]


def explain_directory(benchmarks_root, outputs_root, out_dir, *, models=None, benchmarks=None,
                      tasks=None, tolerance: int = DEFAULT_TOLERANCE, delta_e: str = "cie76",
                      progress=None, jobs: int = 1, chunk_size: int = 4) -> ExplainSummary:
    """Write ``<out_dir>/explanations.jsonl`` (module docstring); ``progress(done, total)``
    is called as problems finish when given. ``jobs`` > 1 explains in that many worker
    processes (chunks of ``chunk_size`` problems); the file is the same bytes for any
    ``jobs``."""
    check_delta_e(delta_e)
    check_tolerance(tolerance)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs: expected an int >= 1, got {jobs!r}")
    problems = load(benchmarks_root, kind="benchmark", benchmarks=benchmarks, tasks=tasks).problems
    model_names = load(outputs_root, kind="outputs", models=models).models
    options = (model_names, str(outputs_root), tolerance, delta_e)
    lines, failed, missing, done = [], 0, 0, 0

    def consume(results) -> None:
        nonlocal failed, missing, done
        for rows, broken in results:
            failed += broken
            missing += sum(1 for r in rows if r.get("has_output") is False)
            lines.extend(json.dumps(r) for r in rows)
            done += 1
        if progress is not None:
            progress(done, len(problems))

    chunks = [problems[k:k + chunk_size] for k in range(0, len(problems), chunk_size)]
    if jobs == 1 or len(chunks) <= 1:
        for problem in problems:
            consume(_explain_chunk([problem], *options))
    else:
        map_in_workers(_explain_chunk, chunks, options, jobs, consume)
    path = Path(out_dir) / EXPLANATIONS_NAME
    write_text_atomic(path, "".join(line + "\n" for line in lines))
    return ExplainSummary(rows=len(lines), failed=failed, missing_outputs=missing, path=path)

