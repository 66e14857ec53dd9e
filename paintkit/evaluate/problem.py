"""Score one benchmark problem for several models: the unit of work of ``paintkit eval``.

The input and answer are decoded once and shared by every model's output (the
precomputed-reference idea of the metric API, applied on disk).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from paintkit.evaluate.layout import BenchmarkProblem, read_metadata
from paintkit.io.images import ImageDecodeError, load_rgb, write_png

#: Tolerances at which ``--save-images`` writes diff images.
DIFF_TOLERANCES = (0, 2, 5, 10)


def diff_image_path(images_root: Path, model: str, problem: BenchmarkProblem, t: int) -> Path:
    return Path(images_root) / model / problem.benchmark / problem.task / \
        f"{problem.idx:04d}_diff_t{t:02d}.png"


def output_signature(path: Path) -> dict | None:
    """``{"bytes", "mtime_ns"}`` of an output file (symlinks followed), None if it cannot be
    stat'ed (absent, symlink loop, unreadable folder). Stored in each row so a later run
    rescores an output that appeared or changed."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return {"bytes": int(st.st_size), "mtime_ns": int(st.st_mtime_ns)}


def load_output(path: Path):
    """The decoded output, or a :class:`MissingImage` with a one-line reason."""
    from paintkit.metrics.coerce import MissingImage

    try:
        return load_rgb(path)
    except ImageDecodeError as exc:
        if isinstance(exc.__cause__, FileNotFoundError):
            return MissingImage(f"{path}: no output file")
        return MissingImage(str(exc))


def score_problem(
    problem: BenchmarkProblem,
    models: list[str],
    outputs_root: Path,
    images_root: Path | None = None,
    meta: dict | None = None,
) -> list[dict]:
    """SPEC 5 rows of ``problem`` for each model; diff PNGs if ``images_root`` is given.

    The input and answer are decoded once for all ``models``. ``meta``: the problem's JSON
    if already read (``evaluate`` reads every one before scoring starts).

    Raises:
        LayoutError / ImageDecodeError: the benchmark's own files are unreadable (a broken
            benchmark is an error; a broken *output* is scored as missing).
    """
    from paintkit.kernels.diff_image import diff_image_from_bins
    from paintkit.metrics.reference import Reference
    from paintkit.metrics.score import tolerance_statistics

    meta = read_metadata(problem) if meta is None else meta
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
        signature = output_signature(path)  # before reading: a later change is rescored
        output = load_output(path)
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
        row["output_file"] = signature
        rows.append(row)
        bins = batch.bins[0] if batch.bins else None
        if images_root is not None and bins is not None:
            for t in DIFF_TOLERANCES:
                write_png(diff_image_path(images_root, model, problem, t),
                          np.asarray(diff_image_from_bins(edit_mask, bins, t)))
    return rows
