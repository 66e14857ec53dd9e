"""Gallery cards: input, answer, output and diff images (metric §11) of one problem and model;
a problem with reference images shows each (``reference 1: style``, ...) after its input.

:func:`gallery_card` is the hook other views build on: given a problem on disk, a model's
output path and its scores row, it returns a :class:`GalleryCard` whose ``extras`` list
takes more HTML (e.g. object-level explanations) before the page renders it.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from paintkit.code_outputs import load_output_file
from paintkit.io.images import ImageDecodeError, load_rgb
from paintkit.kernels.diff_image import diff_image_from_bins
from paintkit.layout.benchmark import BenchmarkProblem, read_metadata, reference_roles
from paintkit.layout.errors import LayoutError
from paintkit.metrics.batch_scoring import tolerance_statistics
from paintkit.metrics.targets import Targets
from paintkit.report.text import h
from paintkit.stats.failure_modes import FAILURE_MODES, SOLVED

DIFF_TOLERANCES = (0, 2, 5, 10)


def image_data_uri(image: np.ndarray, thumb: int) -> str:
    """uint8 ``(H, W, 3)`` -> a ``data:`` URI, longest side at most ``thumb`` px.

    Nearest-neighbour downscaling keeps flat colours flat (small PNGs); images with many
    colours (photographic model outputs) go as JPEG when that is smaller.
    """
    from PIL import Image

    img = Image.fromarray(np.ascontiguousarray(image))
    scale = thumb / max(img.size)
    if scale < 1:
        img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))),
                         Image.NEAREST)
    png = io.BytesIO()
    img.save(png, format="PNG", optimize=False, compress_level=9)
    best, mime = png.getvalue(), "image/png"
    if len(best) > 6000:
        jpg = io.BytesIO()
        img.save(jpg, format="JPEG", quality=80)
        if len(jpg.getvalue()) < len(best):
            best, mime = jpg.getvalue(), "image/jpeg"
    return f"data:{mime};base64,{base64.b64encode(best).decode('ascii')}"


@dataclass
class GalleryCard:
    """One problem x model: labelled image URIs, the instruction, scores and extra HTML."""

    model: str
    problem: BenchmarkProblem
    instruction: str
    images: list[tuple[str, str | None]]  # (label, data URI or None when absent)
    scores: dict
    failure_mode: str
    extras: list[str] = field(default_factory=list)
    #: ``(W, H)`` of the problem's images (the coordinates of ``boxes``).
    size: tuple[int, int] = (0, 0)
    #: Outlined on the answer and output images: ``(label, [left, top, width, height])``,
    #: e.g. the objects an explanation lists, so its ids point at something drawn.
    boxes: list[tuple[str, list[int]]] = field(default_factory=list)

    def _overlay(self) -> str:
        w, h_ = self.size
        if not self.boxes or not w or not h_:
            return ""
        marks = []
        stroke = max(1.0, max(w, h_) / 160)
        for label, (left, top, bw, bh) in self.boxes:
            marks.append(f'<rect x="{left}" y="{top}" width="{bw}" height="{bh}" fill="none" '
                         f'stroke="#000" stroke-width="{2 * stroke}"/><rect x="{left}" y="{top}" '
                         f'width="{bw}" height="{bh}" fill="none" stroke="#ff0" '
                         f'stroke-width="{stroke}"/><text x="{left + stroke}" y="{top - stroke}" '
                         f'font-size="{max(w, h_) / 12:.1f}" fill="#000" stroke="#ff0" '
                         f'stroke-width="{stroke / 2}" paint-order="stroke">{h(label)}</text>')
        return (f'<svg class="boxes" viewBox="0 0 {w} {h_}" preserveAspectRatio="none" '
                f'aria-hidden="true">{"".join(marks)}</svg>')

    def html(self) -> str:
        figs = []
        for label, uri in self.images:
            absent = "no output" if label == "output" else "missing"
            body = (f'<img class="zoom" src="{uri}" alt="{h(label)}" title="click to enlarge">'
                    if uri else f'<div class="noimg">{absent}</div>')
            if uri and label in ("answer", "output"):
                body = f'<div class="boxed">{body}{self._overlay()}</div>'
            figs.append(f"<figure>{body}<figcaption>{h(label)}</figcaption></figure>")
        score_text = " · ".join(f"{k} {v}" for k, v in self.scores.items())
        return (f'<div class="card" data-mode="{h(self.failure_mode)}" data-model="{h(self.model)}">'
                f'<div class="card-head"><b>{h(self.model)}</b> · problem '
                f'{self.problem.idx:03d} · <span class="tag">{h(self.failure_mode.replace("_", " "))}'
                f'</span></div><div class="instr">{h(self.instruction)}</div>'
                f'<div class="scores">{h(score_text)}</div>'
                f'<div class="imgs">{"".join(figs)}</div>{"".join(self.extras)}</div>')


def card_failure_mode(mode: str, miou: float) -> str:
    """The tag a card shows: ``solved`` for a problem without a failure pattern and an mIoU
    of at least :data:`SOLVED` (a perfect output is no failure mode "none"); a failed output
    whose curves fit no pattern is an ``unclassified failure``."""
    if mode != "none":
        return mode
    return "solved" if miou >= SOLVED else "unclassified_failure"


def _tolerance_label(ts: list[int]) -> str:
    if len(ts) > 2 and ts == list(range(ts[0], ts[-1] + 1)):
        return f"diff t={ts[0]}–{ts[-1]}"
    return "diff t=" + ", ".join(str(t) for t in ts)


def _scores_text(row_values: np.ndarray) -> dict:
    """Headline figures from a problem's ``(12, 4)`` values (blocks x figures)."""
    return {"mIoU": f"{row_values[-1, 2]:.3f}", "edit acc t=0": f"{row_values[0, 0]:.3f}",
            "pres acc t=0": f"{row_values[0, 1]:.3f}"}


def reference_images(problem: BenchmarkProblem, meta: dict, thumb: int
                     ) -> list[tuple[str, str | None]]:
    """``("reference <n>: <role>", data URI)`` of each reference image ``meta`` lists (None
    for a file that is missing or unreadable); ``[]`` for a one-image problem."""
    try:
        roles = reference_roles(meta, problem.metadata_path)
    except LayoutError:
        return [("references", None)]
    out: list[tuple[str, str | None]] = []
    for n, (role, path) in enumerate(zip(roles, problem.reference_paths(len(roles)), strict=True), 1):
        try:
            uri: str | None = image_data_uri(load_rgb(path), thumb)
        except ImageDecodeError:
            uri = None
        out.append((f"reference {n}: {role}", uri))
    return out


def gallery_card(problem: BenchmarkProblem, model: str, output_path: Path | None,
                 values: np.ndarray, failure_mode: str, thumb: int = 160) -> GalleryCard:
    """Build the card of ``problem`` for ``model`` (diffs recomputed from the images).

    Args:
        values: the problem's ``(12, 4)`` figures (see :class:`paintkit.stats.table.ProblemTable`).
        output_path: the model's output file; None or unreadable -> shown as "no output".
    """
    meta = read_metadata(problem)
    inp, answer = load_rgb(problem.input_path), load_rgb(problem.answer_path)
    images: list[tuple[str, str | None]] = [("input", image_data_uri(inp, thumb)),
                                            *reference_images(problem, meta, thumb),
                                            ("answer", image_data_uri(answer, thumb))]
    output = None
    if output_path is not None:
        try:
            output = (load_output_file(output_path, meta)[0]
                      if output_path.suffix in (".svg", ".json") else load_rgb(output_path))
        except (ImageDecodeError, ValueError, OSError):  # undrawable code: "no output"
            output = None
    if output is None:
        images.append(("output", None))
    else:
        images.append(("output", image_data_uri(output, thumb)))
        batch = tolerance_statistics([output], Targets(answer[None], inp[None]),
                                     backend="numba", return_bins=True)
        bins = np.asarray(batch.bins[0])
        edit = (answer != inp).any(axis=-1)
        # One image per distinct diff: tolerances whose diffs are identical share a thumbnail.
        groups: list[tuple[list[int], np.ndarray]] = []
        for t in DIFF_TOLERANCES:
            diff = np.asarray(diff_image_from_bins(edit, bins, t))
            for ts, seen in groups:
                if np.array_equal(seen, diff):
                    ts.append(t)
                    break
            else:
                groups.append(([t], diff))
        for ts, diff in groups:
            images.append((_tolerance_label(ts), image_data_uri(diff, thumb)))
    return GalleryCard(model, problem, str(meta.get("instruction", "")), images,
                       _scores_text(values), card_failure_mode(failure_mode, float(values[-1, 2])),
                       size=(int(inp.shape[1]), int(inp.shape[0])))


def pick_examples(codes: np.ndarray, idx: np.ndarray, per_model: int) -> list[int]:
    """Positions of up to ``per_model`` problems, one per failure mode first (rarest modes of
    :data:`FAILURE_MODES` order), then the lowest indices."""
    chosen: list[int] = []
    for k in range(len(FAILURE_MODES)):
        hits = np.flatnonzero(codes == k)
        if len(hits) and len(chosen) < per_model:
            chosen.append(int(hits[np.argmin(idx[hits])]))
    for pos in np.argsort(idx, kind="stable"):
        if len(chosen) >= per_model:
            break
        if int(pos) not in chosen:
            chosen.append(int(pos))
    return chosen
