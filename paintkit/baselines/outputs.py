"""Baseline outputs for one problem, and a whole outputs tree (see the package docstring)."""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from paintkit.io.images import load_rgb, write_png
from paintkit.io.names import check_folder_name
from paintkit.io.progress import Progress
from paintkit.layout.benchmark import BenchmarkProblem, read_metadata
from paintkit.loader import load

BASELINES: tuple[str, ...] = ("identity", "oracle", "blank", "noise")


def _hex_rgb(value: object) -> np.ndarray | None:
    text = str(value).lstrip("#")
    if len(text) != 6:
        return None
    try:
        return np.frombuffer(bytes.fromhex(text), dtype=np.uint8)
    except ValueError:
        return None


def baseline_output(name: str, problem: BenchmarkProblem) -> np.ndarray:
    """uint8 ``(H, W, 3)`` output of baseline ``name`` for ``problem`` (answer-sized)."""
    if name not in BASELINES:
        raise ValueError(f"baseline: expected one of {', '.join(BASELINES)}, got {name!r}")
    if name == "oracle":
        return load_rgb(problem.answer_path)
    inp = load_rgb(problem.input_path)
    if name == "identity":
        return inp
    if name == "blank":
        colors = read_metadata(problem).get("bg_colors") or []
        color = _hex_rgb(colors[0]) if colors else None
        if color is None:  # no usable metadata: the input's top-left pixel is background
            color = inp[0, 0]
        return np.broadcast_to(color, inp.shape).copy()
    key = f"paintkit-baseline-noise|{problem.benchmark}|{problem.task}|{problem.idx}"
    seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")
    return np.random.default_rng(seed).integers(0, 256, inp.shape, dtype=np.uint8)


@dataclass(frozen=True)
class BaselineSummary:
    written: int
    skipped: int
    out_dir: Path


def write_baseline(name: str, benchmarks_root: str | os.PathLike[str],
                   outputs_root: str | os.PathLike[str], *, folder: str | None = None,
                   benchmarks: Sequence[str] | None = None, tasks: Sequence[str] | None = None,
                   overwrite: bool = False, progress: bool = False,
                   model: str | None = None) -> BaselineSummary:
    """Write ``<outputs>/<folder>/<Benchmark>/<task>/<NNNN>_output.png`` for every problem.

    ``folder`` (the model folder under ``outputs_root``, as :func:`paintkit.run_model`'s
    ``folder`` and the commands' ``--name``) defaults to ``name``. Each PNG is written
    atomically; existing files are kept unless ``overwrite`` (so an interrupted run
    resumes). ``progress``: the progress line of :class:`paintkit.io.progress.Progress` on
    stderr. ``model=`` is the old spelling of ``folder=`` (a ``DeprecationWarning``).
    """
    if model is not None:
        warnings.warn("write_baseline(model=...) is now write_baseline(folder=...) (the model "
                      "folder, as run_model's folder=); model= works until 0.5.0",
                      DeprecationWarning, stacklevel=2)
        if folder is not None and folder != model:
            raise TypeError("write_baseline: give folder= alone (model= is its old spelling)")
        folder = model
    if name not in BASELINES:
        raise ValueError(f"baseline: expected one of {', '.join(BASELINES)}, got {name!r}")
    model = check_folder_name(folder or name, "model")  # never outside outputs_root
    written = skipped = 0
    problems = load(benchmarks_root, kind="benchmark", benchmarks=benchmarks, tasks=tasks).problems
    bar = Progress(len(problems), verb=f"{model}: written", enabled=progress)
    for problem in problems:
        path = problem.output_path(Path(outputs_root), model)
        if path.exists() and not overwrite:
            skipped += 1
            bar.update(skipped=1)
            continue
        write_png(path, baseline_output(name, problem))
        written += 1
        bar.update(processed=1)
    bar.close()
    return BaselineSummary(written, skipped, Path(outputs_root) / model)
