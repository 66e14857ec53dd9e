"""Score one benchmark problem for several models: the unit of work of ``paintkit eval``.

The input and answer are decoded once and shared by every model's output (the
precomputed-reference idea of the metric API, applied on disk).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from paintkit.evaluate.layout import BenchmarkProblem, read_metadata
from paintkit.io.images import ImageDecodeError, load_rgb, write_png

#: Tolerances at which ``--save-images`` writes diff images.
DIFF_TOLERANCES = (0, 2, 5, 10)


def diff_image_path(images_root: Path, model: str, problem: BenchmarkProblem, t: int) -> Path:
    return Path(images_root) / model / problem.benchmark / problem.task / \
        f"{problem.idx:04d}_diff_t{t:02d}.png"


def score_problem(
    problem: BenchmarkProblem,
    models: list[str],
    outputs_root: Path,
    images_root: Path | None = None,
) -> list[dict]:
    """SPEC 5 rows of ``problem`` for each model; diff PNGs if ``images_root`` is given.

    Raises:
        LayoutError / ImageDecodeError: the benchmark's own files are unreadable (a broken
            benchmark is an error; a broken *output* is scored as missing).
    """
    from paintkit.kernels.diff_image import diff_image_from_bins
    from paintkit.metrics.coerce import MissingImage
    from paintkit.metrics.reference import Reference
    from paintkit.metrics.score import tolerance_statistics

    meta = read_metadata(problem)
    answer = load_rgb(problem.answer_path)
    inp = load_rgb(problem.input_path)
    if answer.shape != inp.shape:
        raise ImageDecodeError(
            f"{problem.answer_path}: answer is {answer.shape[1]}x{answer.shape[0]} but the "
            f"input is {inp.shape[1]}x{inp.shape[0]}"
        )
    reference = Reference(answer[None], inp[None])
    edit_mask = (answer != inp).any(axis=-1) if images_root is not None else None
    rows = []
    for model in models:
        path = problem.output_path(outputs_root, model)
        try:
            output = load_rgb(path)
        except ImageDecodeError as exc:
            output = MissingImage(str(exc) if path.exists() else f"{path}: no output file")
        batch = tolerance_statistics([output], reference, backend="numba",
                                     return_bins=images_root is not None)
        result = batch.scores()[0]
        row = {
            "model": model,
            "benchmark": problem.benchmark,
            "task": problem.task,
            "mode": meta.get("mode", "default"),
            "visual_condition": meta.get("visual_condition"),
            "idx": problem.idx,
            "input_size": [int(inp.shape[1]), int(inp.shape[0])],
            "bg_colors": meta.get("bg_colors", []),
            "has_output": result.has_output,
            "correct_output_size": result.correct_output_size,
            "output": result.to_schema(),
        }
        if result.error is not None:
            row["error"] = result.error
        rows.append(row)
        bins = batch.bins[0] if batch.bins else None
        if images_root is not None and bins is not None:
            for t in DIFF_TOLERANCES:
                write_png(diff_image_path(images_root, model, problem, t),
                          np.asarray(diff_image_from_bins(edit_mask, bins, t)))
    return rows
