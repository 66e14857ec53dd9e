"""Explain one scored output: object tags and error segments, as a JSON-ready dict.

The scenes come from the problem's metadata and are checked first: the input scene must
render to the input image exactly (and the answer scene to the answer). What can be
explained depends on what the metadata holds:

- ``"full"``: an answer scene that renders to the answer. Every element is tagged
  (:mod:`paintkit.explainer.objects`), segments name the elements they overlap.
- ``"input_scene"``: no answer scene (tasks whose answer is computed in pixel space:
  border, cropping, flood_fill, blending, gradient, point_operations) or one that does not
  render to the answer, but an input scene that renders to the input. Elements whose input
  footprint has no edit pixel are tagged as in ``"full"`` against the input scene (they
  must stay as they are); the others are tagged ``unexplained``. A preservation problem
  (answer = input) is fully explained this way.
- ``"segments_only"``: no usable scene; segments only, without element overlaps.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from paintkit.explainer.footprints import (
    Footprints,
    checked_footprints,
    scene_from_metadata,
    underlay,
)
from paintkit.explainer.objects import ObjectTagger
from paintkit.explainer.segments import MAX_SEGMENTS, error_segments
from paintkit.kernels.color.delta_e import check_delta_e
from paintkit.kernels.edit_region import changed_mask_numba
from paintkit.kernels.normalize import normalize_output_numba
from paintkit.metrics.counts import count_problem
from paintkit.metrics.tolerance import check_tolerance

if TYPE_CHECKING:
    import numpy.typing as npt

    from paintkit.scene import Scene
    from paintkit.types import PathLike

__all__ = ["DEFAULT_TOLERANCE", "ProblemScenes", "explain", "prepare_scenes", "segment_maps"]

DEFAULT_TOLERANCE = 5


def _metadata_of(metadata: Mapping[str, Any] | PathLike) -> Mapping:
    """The metadata dict: given, or read from the problem's JSON file."""
    if isinstance(metadata, str | os.PathLike):
        with open(metadata, encoding="utf-8") as f:
            metadata = json.load(f)
    if not isinstance(metadata, Mapping):
        raise TypeError(f"metadata: expected a dict or the path of a problem's JSON file, got "
                        f"{type(metadata).__name__}")
    return metadata


def _check(name: str, image: npt.ArrayLike, shape: tuple[int, ...] | None = None) -> np.ndarray:
    image = np.asarray(image)
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[-1] != 3:
        raise ValueError(f"{name}: expected a uint8 (H, W, 3) image, got {image.dtype} "
                         f"{image.shape}")
    if shape is not None and image.shape != shape:
        raise ValueError(f"{name}: expected the input's shape {shape}, got {image.shape}")
    return np.ascontiguousarray(image)


def _checked_scenes(metadata: Mapping, inputs: np.ndarray, answer: np.ndarray
                    ) -> list[tuple[Scene | None, Footprints | None, str | None]]:
    """``(scene, footprints, why)`` for the input and the answer scene: the scene and its
    footprints only if it renders to its image exactly (else Nones and the note saying
    why). One code render per scene gives the footprints and the check."""
    keys = ("scene", "answer_scene")
    scenes = [scene_from_metadata(metadata, key) for key in keys]
    checked = checked_footprints(list(zip(scenes, (inputs, answer), strict=True)))
    out: list[tuple[Scene | None, Footprints | None, str | None]] = []
    for key, scene, (fp, renders) in zip(keys, scenes, checked, strict=True):
        if renders:
            out.append((scene, fp, None))
        elif scene is None:
            out.append((None, None, f"metadata has no {key}"))
        else:
            out.append((None, None, f"metadata {key} does not render to the stored image"))
    return out


def _bins(output: np.ndarray, answer: np.ndarray, inputs: np.ndarray, delta_e: str) -> np.ndarray:
    bins = count_problem(output, answer, inputs, delta_e=delta_e, return_bins=True)[1]
    assert bins is not None  # an output was given
    return bins


@dataclass
class ProblemScenes:
    """What explaining needs of a problem whatever the output, built once by
    :func:`prepare_scenes`: the edit mask, the checked scenes (None when unusable), why
    not, their footprints, and the renders without one element in its box (filled on
    demand)."""

    edit: np.ndarray
    input_scene: Scene | None
    answer_scene: Scene | None
    notes: list
    input_fp: Footprints | None
    answer_fp: Footprints | None
    underlays: dict = field(default_factory=dict)


def prepare_scenes(answer: np.ndarray, inputs: np.ndarray,
                   metadata: Mapping[str, Any] | PathLike) -> ProblemScenes:
    """Rebuild and check the problem's scenes and render their footprints, once (then pass
    ``scenes=`` to :func:`explain`).

    ``answer``, ``inputs``: uint8 ``(H, W, 3)``; ``metadata``: the problem's metadata dict or
    the path of its JSON file.
    """
    metadata = _metadata_of(metadata)
    inputs = _check("inputs", inputs)
    answer = _check("answer", answer, inputs.shape)
    edit = changed_mask_numba(inputs, answer)
    (input_scene, input_fp, why), (answer_scene, answer_fp, answer_why) = _checked_scenes(
        metadata, inputs, answer)
    notes = [why] if why else []
    if answer_scene is None and input_scene is not None and not edit.any():
        answer_scene, answer_fp = input_scene, input_fp  # a preservation problem: answer = input
    elif answer_why:
        notes.append(answer_why)
    return ProblemScenes(edit, input_scene, answer_scene, notes, input_fp, answer_fp)


def explain(output: np.ndarray | None, answer: np.ndarray, inputs: np.ndarray,
            metadata: Mapping[str, Any] | PathLike | None, *, tolerance: int = DEFAULT_TOLERANCE,
            delta_e: str = "cie76", max_segments: int = MAX_SEGMENTS,
            bins: np.ndarray | None = None, scenes: ProblemScenes | None = None
            ) -> dict[str, Any]:
    """Object tags and error segments of one output (module docstring).

    The arguments come in the order of :func:`paintkit.score` (outputs, answers, inputs),
    then the problem's metadata.

    Args:
        output: uint8 ``(H', W', 3)`` (normalised to the answer's size,
            docs/metric-definition.md §2), or None for a missing output.
        answer, inputs: uint8 ``(H, W, 3)``.
        metadata: the problem's JSON metadata (holds ``scene`` and maybe ``answer_scene``),
            or the path of the problem's JSON file; may be None when ``scenes`` is given.
        tolerance: ``t`` in 0..10: a pixel is right when ``ΔE(O, A) <= t``.
        delta_e: ``"cie76"`` (the benchmark's), ``"cie94"`` or ``"ciede2000"``.
        bins: the scorer's per-pixel bins of this output, if already computed
            (``tolerance_statistics(..., return_bins=True, delta_e=delta_e)``: uint8
            ``(H, W)``, ``min(ceil(ΔE(O, A)), 11)``); saves a full-image ΔE pass.
        scenes: :func:`prepare_scenes` of this problem, to explain several outputs of one
            problem (models) without rebuilding, checking and rendering its scenes again.

    Returns:
        ``{"has_output", "tolerance", "delta_e", "explained", "notes", "objects",
        "tags", "segments", "other_segments", "spurious", "error_pixels"}``; ``objects``
        lists one dict per element (``id``, ``tag``, ``area``, ``share`` and the tag's
        figures), ``tags`` counts them per tag.
    """
    check_delta_e(delta_e)
    tolerance = cast(int, check_tolerance(tolerance))  # an int (allow_none is off)
    inputs = _check("inputs", inputs)
    answer = _check("answer", answer, inputs.shape)
    base = {"tolerance": tolerance, "delta_e": delta_e}
    if output is None:
        return {"has_output": False, **base}
    output = _check("output", output)
    if output.shape != answer.shape:
        output = np.ascontiguousarray(
            normalize_output_numba(output, (answer.shape[1], answer.shape[0])))
    if scenes is None:
        if metadata is None:
            raise ValueError("metadata: required unless scenes= is given")
        scenes = prepare_scenes(answer, inputs, metadata)
    elif scenes.edit.shape != answer.shape[:2]:
        raise ValueError(f"scenes: prepared for a {scenes.edit.shape} problem, the answer is "
                         f"{answer.shape[:2]}")
    edit = scenes.edit
    if bins is None:
        bins = _bins(output, answer, inputs, delta_e)
    bins = np.asarray(bins)
    if bins.shape != answer.shape[:2]:
        raise ValueError(f"bins: expected the answer's (H, W) = {answer.shape[:2]}, got "
                         f"{bins.shape}")
    correct = bins <= tolerance
    tagger = ObjectTagger(output, answer, inputs, correct, edit, tolerance, delta_e)

    notes = list(scenes.notes)
    input_scene, answer_scene = scenes.input_scene, scenes.answer_scene
    input_fp = scenes.input_fp
    cache = scenes.underlays
    objects = []
    answer_fp: Footprints | None
    if answer_scene is not None:
        explained = "full"
        answer_fp = cast(Footprints, scenes.answer_fp)  # checked with the answer scene

        def hidden(element_id: str, window: tuple[slice, slice]) -> np.ndarray:
            if ("answer", element_id) not in cache:
                cache["answer", element_id] = underlay(answer_scene, element_id, window)
            return cache["answer", element_id]

        visible = set()
        for k, element_id in enumerate(answer_fp.ids):
            if answer_fp.area[k + 1]:
                visible.add(element_id)
                objects.append(tagger.tag_present(k, answer_fp, hidden, input_fp))
        if input_fp is not None:
            for k, element_id in enumerate(input_fp.ids):
                if element_id not in visible and input_fp.area[k + 1]:
                    entry = tagger.tag_removed(k, input_fp)
                    if entry is not None:
                        objects.append(entry)
    elif input_fp is not None:
        explained = "input_scene"
        answer_fp = input_fp

        def hidden(element_id: str, window: tuple[slice, slice]) -> np.ndarray:
            if ("input", element_id) not in cache:
                cache["input", element_id] = underlay(cast("Scene", input_scene), element_id,
                                                      window)
            return cache["input", element_id]

        for k, element_id in enumerate(input_fp.ids):
            if not input_fp.area[k + 1]:
                continue
            win = input_fp.window(k)
            if (edit[win] & (input_fp.index[win] == k + 1)).any():
                objects.append({"id": element_id, "expected": "edited",
                                "area": int(input_fp.area[k + 1]), "tag": "unexplained"})
            else:
                objects.append(tagger.tag_present(k, input_fp, hidden, None))
    else:
        explained, answer_fp = "segments_only", None
    tags: dict = {}
    for entry in objects:
        tags[entry["tag"]] = tags.get(entry["tag"], 0) + 1
    segments = error_segments(edit, correct, answer_footprints=answer_fp,
                              input_footprints=input_fp if input_fp is not answer_fp else None,
                              max_segments=max_segments, wrong_at=tagger.wrong_at)
    return {"has_output": True, **base, "explained": explained, "notes": notes,
            "objects": objects, "tags": tags, **segments}


def segment_maps(bins: npt.ArrayLike, answer: np.ndarray, inputs: np.ndarray,
                 metadata: Mapping[str, Any] | PathLike, tolerances: Iterable[int], *,
                 max_segments: int = MAX_SEGMENTS) -> dict:
    """Error segments at several tolerances from the per-pixel bins the scorer already has
    (``ceil(ΔE(O, A))`` clipped to 11, uint8 ``(H, W)``: ``tolerance_statistics(...,
    return_bins=True)``), for writing next to the diff images: ``{t: error_segments(...)}``.

    The scenes are rebuilt and checked once for all tolerances (as in :func:`explain`);
    without a usable scene the segments carry no object overlaps. ``metadata``: a dict or
    the path of the problem's JSON file.
    """
    metadata = _metadata_of(metadata)
    inputs = _check("inputs", inputs)
    answer = _check("answer", answer, inputs.shape)
    bins = np.asarray(bins)
    if bins.shape != inputs.shape[:2]:
        raise ValueError(f"bins: expected the image's (H, W) = {inputs.shape[:2]}, got "
                         f"{bins.shape}")
    edit = changed_mask_numba(inputs, answer)
    (_, input_fp, _), (answer_scene, answer_fp, _) = _checked_scenes(metadata, inputs, answer)
    if answer_scene is None:  # input-scene overlaps are still informative (and exact where nothing changed)
        answer_fp, input_fp = input_fp, None
    return {int(t): error_segments(edit, bins <= check_tolerance(t),
                                   answer_footprints=answer_fp, input_footprints=input_fp,
                                   max_segments=max_segments)
            for t in tolerances}
