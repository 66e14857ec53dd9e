"""Explain every output of a benchmark tree (standard layout, docs/file-layout.md) into one JSONL file.

For each (model, problem) the benchmark's input, answer and metadata are read once, the
output is explained with :func:`~paintkit.explain.explain_problem`, and one row is written:
the problem key (``model, benchmark, task, mode, visual_condition, idx``) plus the
explanation. A problem whose own files are broken gets a row with ``"error"`` and the run
goes on; a missing or undecodable output gets ``has_output: false`` and its ``error``.
The file is written atomically at the end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from paintkit.explain.problem import (
    DEFAULT_TOLERANCE,
    check_tolerance,
    explain_problem,
    prepare_scenes,
)

__all__ = ["ExplainSummary", "explain_directory"]


@dataclass
class ExplainSummary:
    rows: int
    failed: int
    missing_outputs: int
    path: Path


def _problem_rows(problem, models, outputs_root, tolerance, formula) -> list[dict]:
    from paintkit.evaluate.discovery import read_metadata
    from paintkit.io.images import ImageDecodeError, load_rgb

    meta = read_metadata(problem)
    inputs, answer = load_rgb(problem.input_path), load_rgb(problem.answer_path)
    scenes = prepare_scenes(meta, inputs, answer)  # once for every model's output
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
        row = {**key, **explain_problem(meta, inputs, answer, output, tolerance=tolerance,
                                        delta_e=formula, scenes=scenes)}
        if error is not None:
            row["error"] = error
        rows.append(row)
    return rows


def explain_directory(benchmarks_root, outputs_root, out_dir, *, models=None, benchmarks=None,
                      tasks=None, tolerance: int = DEFAULT_TOLERANCE, delta_e: str = "cie76",
                      progress=None) -> ExplainSummary:
    """Write ``<out_dir>/explanations.jsonl`` (module docstring); ``progress(done, total)``
    is called after each problem when given."""
    from paintkit.evaluate.discovery import discover_models, discover_problems
    from paintkit.io.atomic import write_text_atomic
    from paintkit.io.images import ImageDecodeError
    from paintkit.kernels.delta_e import check_formula

    check_formula(delta_e)
    check_tolerance(tolerance)
    problems = discover_problems(benchmarks_root, benchmarks, tasks)
    model_names = discover_models(outputs_root, models)
    lines, failed, missing = [], 0, 0
    for done, problem in enumerate(problems, start=1):
        try:
            rows = _problem_rows(problem, model_names, Path(outputs_root), tolerance, delta_e)
        except (ImageDecodeError, ValueError) as exc:  # a broken benchmark problem
            failed += 1
            rows = [{"model": m, "benchmark": problem.benchmark, "task": problem.task,
                     "idx": problem.idx, "error": str(exc)} for m in model_names]
        missing += sum(1 for r in rows if r.get("has_output") is False)
        lines.extend(json.dumps(r) for r in rows)
        if progress is not None:
            progress(done, len(problems))
    path = Path(out_dir) / "explanations.jsonl"
    write_text_atomic(path, "".join(line + "\n" for line in lines))
    return ExplainSummary(rows=len(lines), failed=failed, missing_outputs=missing, path=path)
