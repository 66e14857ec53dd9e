"""Score one benchmark problem for several models: the unit of work of ``paintkit eval``.

The input and answer are decoded once and shared by every model's output (the
precomputed-reference idea of the metric API, applied on disk). Counting runs the Numba
kernels straight on NumPy arrays (normalise, exact ΔE histograms) and turns the counts into
a :class:`~paintkit.metrics.result.ProblemScore` with the metric's own rules, without
torch: eval workers never import it (seconds of start-up and ~300 MB each).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from paintkit.code_outputs import load_output_file, output_file
from paintkit.explainer import explain, prepare_scenes, segment_maps
from paintkit.io.atomic import write_text_atomic
from paintkit.io.images import ImageDecodeError, load_rgb, write_png
from paintkit.kernels.diff_image import diff_image_from_bins
from paintkit.layout.benchmark import BenchmarkProblem, read_images, read_metadata
from paintkit.layout.results import diff_image_path, segments_path
from paintkit.layout.rows import ResultRow
from paintkit.metrics.coerce import MissingImage
from paintkit.metrics.counts import count_problem
from paintkit.metrics.result import scores_from_counts
from paintkit.metrics.similarity import finite_or_none, similarity
from paintkit.metrics.version import METRIC_VERSION

#: Tolerances at which ``--save-images`` writes diff images.
DIFF_TOLERANCES = (0, 2, 5, 10)


def output_signature(path: Path) -> dict | None:
    """``{"bytes", "mtime_ns"}`` of an output file (symlinks followed), None if it cannot be
    stat'ed (absent, symlink loop, unreadable folder). Stored in each row so a later run
    rescores an output that appeared or changed."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return {"bytes": int(st.st_size), "mtime_ns": int(st.st_mtime_ns)}


def needs_scoring(row: dict | None, path: Path) -> bool:
    """Whether ``(model, problem)`` is scored this run: no row yet, or its output appeared
    or changed since the row was written (rows of other tools: only a missing output that
    now exists)."""
    if row is None:
        return True
    path, _ = output_file(path)  # an SVG or chart state in place of the PNG
    if "output_file" in row:
        return row["output_file"] != output_signature(path)
    return not row["has_output"] and output_signature(path) is not None


def load_model_output(path: Path, meta: dict,
                      clash: str | None = None) -> tuple[object, dict | None]:
    """``(pixels or MissingImage, structure)`` of a model's output of one problem, ``path``
    and ``clash`` as :func:`paintkit.code_outputs.output_file` found them: an image is
    decoded (:func:`load_output`); an SVG or a chart state (``NNNN_output.svg`` / ``.json``)
    is rendered, and a chart state's comparison with the answer state is the structure (None
    otherwise). A file that cannot be drawn, or two outputs, is a one-line MissingImage."""
    if clash is not None:
        return MissingImage(clash), None
    if path.suffix in (".svg", ".json"):
        try:
            return load_output_file(path, meta)
        except OSError as exc:
            return MissingImage(f"{path}: cannot read: {exc.strerror or exc}"), None
        except ValueError as exc:
            return MissingImage(f"{path}: {exc}"), None
    return load_output(path), None


def load_output(path: Path):
    """The decoded output, or a :class:`MissingImage` with a one-line reason."""
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
    delta_e: str = "cie76",
    extra_metrics: tuple[str, ...] = (),
    explain: int | None = None,
    images: tuple[np.ndarray, np.ndarray] | None = None,
    scorer=None,
) -> list[dict]:
    """standard rows (docs/file-layout.md) of ``problem`` for each model; diff PNGs and their error segments
    (``<NNNN>_segments.json``) if ``images_root`` is given. ``images``: ``(input, answer)``
    already decoded (a problem read from a shard), else they are read from its files.

    The input and answer are decoded once for all ``models``. ``meta``: the problem's JSON
    if already read (``evaluate`` reads every one before scoring starts). ``delta_e``: the
    colour difference (recorded in each row's ``"delta_e"``; the ``output`` blocks are
    named after it). ``extra_metrics``: names from
    :data:`~paintkit.metrics.similarity.EXTRA_METRICS` added as ``row["extra_metrics"]``.
    ``explain``: a tolerance (0..10) to add ``row["explanation"]``, the output's object
    tags and error segments (:func:`paintkit.explainer.explain`) from the per-pixel
    bins the scoring computes anyway, with the problem's scenes prepared once for every
    model. ``scorer``: scores the decoded outputs of every model at once,
    ``scorer(outputs, answer, inp, delta_e, return_bins) -> [(ProblemScore, bins), ...]``
    (e.g. :class:`paintkit.eval.device_scoring.DeviceScorer` on a GPU); default: Numba on
    the CPU, output by output (:func:`score_output`).

    Raises:
        LayoutError / ImageDecodeError: the benchmark's own files are unreadable (a broken
            benchmark is an error; a broken *output* is scored as missing).
    """
    meta = read_metadata(problem) if meta is None else meta
    inp, answer = read_images(problem) if images is None else images
    edit_mask = (answer != inp).any(axis=-1) if images_root is not None else None
    explainer = _Explainer(meta, inp, answer, explain, delta_e) if explain is not None else None
    rows = []
    loaded = []
    structures = []
    for model in models:
        path, clash = output_file(problem.output_path(outputs_root, model))
        signature = output_signature(path)  # before reading: a later change is rescored
        output, structure = load_model_output(path, meta, clash)
        loaded.append((model, signature, output))
        structures.append(structure)
    want_bins = images_root is not None or explain is not None
    if scorer is None:
        scored = [score_output(output, answer, inp, delta_e=delta_e, return_bins=want_bins)
                  for _, _, output in loaded]
    else:
        scored = scorer([output for _, _, output in loaded], answer, inp, delta_e, want_bins)
    for (model, signature, output), (result, bins), structure in zip(loaded, scored, structures,
                                                                      strict=True):
        row = ResultRow(
            model=model, benchmark=problem.benchmark, task=problem.task, idx=problem.idx,
            mode=meta.get("mode", "default"), visual_condition=meta.get("visual_condition"),
            category=problem_category(meta),
            input_size=[int(inp.shape[1]), int(inp.shape[0])],
            bg_colors=meta.get("bg_colors", []), has_output=result.has_output,
            correct_output_size=result.correct_output_size, output=result.to_schema(),
            delta_e=delta_e, metric_version=METRIC_VERSION)
        if extra_metrics:
            row.extras["extra_metrics"] = extra_figures(output, answer, extra_metrics)
        if explainer is not None:
            row.extras["explanation"] = explainer(output if result.has_output else None, bins)
        if result.error is not None:
            row.extras["error"] = result.error
        row.extras["output_file"] = signature
        if structure is not None:
            row.extras["state_diff"] = structure
        rows.append(row.to_dict())
        if images_root is not None and bins is not None:
            for t in DIFF_TOLERANCES:
                write_png(diff_image_path(images_root, model, problem, t),
                          np.asarray(diff_image_from_bins(edit_mask, bins, t)))
            write_segments(segments_path(images_root, model, problem), meta, inp, answer, bins,
                           delta_e)
    return rows


def problem_category(meta: dict) -> str | None:
    """The ``category`` a results row records: the problem JSON's own (docs/file-layout.md),
    None when it has none (``paintkit stats`` then works it out from the task)."""
    category = meta.get("category")
    return category if isinstance(category, str) and category else None


class _Explainer:
    """Explains the outputs of one problem: the scenes are prepared on the first output
    (once for every model); a problem whose scenes cannot be read gets an ``error``
    explanation, and its scores stand."""

    def __init__(self, meta: dict, inp: np.ndarray, answer: np.ndarray, tolerance: int,
                 delta_e: str):
        self.args = (answer, inp, meta)
        self.tolerance, self.delta_e = tolerance, delta_e
        self.scenes = None
        self.error = None

    def __call__(self, output, bins) -> dict:
        """The explanation of ``output`` (None when missing) from its scoring ``bins``."""
        if self.scenes is None and self.error is None:
            try:
                self.scenes = prepare_scenes(*self.args)
            except ValueError as exc:  # e.g. a metadata scene that does not parse
                self.error = str(exc)
        if self.error is not None:
            return {"error": self.error}
        return explain(output, *self.args,
                       tolerance=self.tolerance, delta_e=self.delta_e, bins=bins,
                       scenes=self.scenes)


def write_segments(path: Path, meta: dict, inp, answer, bins, delta_e: str) -> None:
    """The diff images' connected error segments (:func:`paintkit.explainer.segment_maps`) as
    ``{"delta_e", "segments": {"<t>": [...]}}`` JSON, written atomically."""
    maps = segment_maps(bins, answer, inp, meta, DIFF_TOLERANCES)
    body = {"delta_e": delta_e, "segments": {str(t): maps[t] for t in DIFF_TOLERANCES}}
    write_text_atomic(path, json.dumps(body, sort_keys=True) + "\n")


def extra_figures(output, answer: np.ndarray, names) -> dict:
    """``{name: value}`` of the pixel-similarity figures (SSIM, PSNR) of one output against
    its answer: None for a missing output, an image too small for the SSIM window, and the
    ``+inf`` PSNR of an output equal to its answer (JSON has no infinity)."""
    if isinstance(output, MissingImage) or output.size == 0:
        return dict.fromkeys(names)
    figures = {}
    for name in names:
        try:
            value = float(similarity([output], [answer], (name,), backend="numba")[name][0])
        except ValueError:  # e.g. SSIM of an image smaller than its 11 px window
            value = float("nan")
        figures[name] = finite_or_none(value)
    return figures


def score_output(output, answer: np.ndarray, inp: np.ndarray, return_bins: bool = False,
                 delta_e: str = "cie76"):
    """``(ProblemScore, bins or None)`` of one output (uint8 ``(H, W, 3)`` of any size, or a
    :class:`~paintkit.metrics.coerce.MissingImage`) against uint8 ``(H, W, 3)`` answer and
    input: the counts and figures of :func:`paintkit.metrics.score` (docs/metric-definition.md
    §6-8) with the ``delta_e`` formula, without torch."""
    answer_size = (int(answer.shape[1]), int(answer.shape[0]))
    if not isinstance(output, MissingImage) and output.size == 0:
        output = MissingImage(f"empty image (shape {output.shape})")
    missing = isinstance(output, MissingImage)
    counts, bins = count_problem(None if missing else output, answer, inp, delta_e=delta_e,
                                 return_bins=return_bins)
    score = scores_from_counts(
        counts, [not missing],
        [None if missing else (int(output.shape[1]), int(output.shape[0]))], [answer_size],
        [output.error if missing else None], delta_e)[0]
    return score, bins
