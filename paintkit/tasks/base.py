"""The task contract shared by every PaintBench task module.

A task module declares ``SPEC`` (a :class:`TaskSpec`: name, category, modes, parameter
ranges, count table) and a seeded ``generate(seed, condition, mode) -> Problem``. Inside,
it calls :func:`start` to get a :class:`TaskContext` (validated names, a private RNG, the
condition) and ends with :meth:`TaskContext.problem`, which checks the result and builds the
metadata every problem carries. A seed that cannot give a valid problem raises
:class:`~paintkit.errors.RejectedSeed`; suites then try the next attempt.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from paintkit.colors import rgb_to_hex
from paintkit.conditions import CONDITIONS, Condition, get_condition
from paintkit.edits.minimum import MIN_EDIT_FRACTION, MIN_EDIT_PIXELS, geometric_min_edit
from paintkit.errors import RejectedSeed
from paintkit.kernels.edit_region import changed_mask_numba
from paintkit.metrics.compute_step import tolerance_figures
from paintkit.metrics.counts import count_problem
from paintkit.scene import Scene
from paintkit.seeds import python_rng

CATEGORIES: tuple[str, ...] = (
    "geometric_transformation", "structural_manipulation", "color_change", "symbolic_reasoning",
)
DEFAULT_MODE = "default"
# The least edit (MIN_EDIT_FRACTION, MIN_EDIT_PIXELS, geometric_min_edit) lives in
# paintkit.edits.minimum, shared with the edit builders; its names stay importable here.
__all__ = [
    "CATEGORIES", "DEFAULT_MODE", "MAX_IDENTITY_MIOU", "MIN_EDIT_FRACTION", "MIN_EDIT_PIXELS",
    "Problem", "ProblemGenerator", "Reference", "TaskContext", "TaskSpec", "geometric_min_edit",
    "identity_check", "identity_miou", "reference_miou", "start", "with_references",
]
# The input scored as if it were a model output may reach at most this mIoU: doing nothing
# is never rewarded (docs/generator-rules.md#exact-unique-never-free).
MAX_IDENTITY_MIOU = 0.05


@dataclass(frozen=True)
class TaskSpec:
    """What a task is: its name, category, modes, parameter ranges and count table.

    ``parameters`` maps each parameter to a human-readable description of its range;
    ``counts`` names the object-count table of :data:`paintkit.conditions.COUNTS`.
    """

    name: str
    category: str
    modes: tuple[str, ...] = (DEFAULT_MODE,)
    parameters: Mapping[str, str] = field(default_factory=dict)
    counts: str = "default"

    def __post_init__(self) -> None:
        if self.category not in CATEGORIES:
            raise ValueError(f"unknown category {self.category!r}; allowed: {', '.join(CATEGORIES)}")
        if not self.modes:
            raise ValueError(f"task {self.name!r} needs at least one mode")

    def check_mode(self, mode: str | None) -> str:
        """``mode`` if this task has it (None means the first mode), else ``ValueError``."""
        if mode is None:
            return self.modes[0]
        if mode not in self.modes:
            raise ValueError(
                f"task {self.name!r} has no mode {mode!r}; allowed: {', '.join(self.modes)}"
            )
        return mode


@dataclass(frozen=True)
class Reference:
    """One reference image of a problem: uint8 ``(H, W, 3)`` pixels and the ``role`` the
    instruction gives it (``"style"``, ``"layout"``, ...; a short lower-case name)."""

    image: np.ndarray
    role: str

    def __post_init__(self) -> None:
        image = self.image
        if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 \
                or image.shape[2] != 3:
            raise ValueError(f"a reference image must be uint8 (H, W, 3), got "
                             f"{getattr(image, 'dtype', type(image).__name__)} "
                             f"{getattr(image, 'shape', '')}")
        if not isinstance(self.role, str) or not self.role or not self.role.isidentifier() \
                or self.role != self.role.lower():
            raise ValueError(f"a reference role is a lower-case name such as 'style', got "
                             f"{self.role!r}")


@dataclass
class Problem:
    """One generated problem.

    ``input`` and ``answer`` are uint8 ``(H, W, 3)`` arrays; ``metadata`` is JSON-serialisable
    and holds at least the problem JSON fields of docs/file-layout.md#problem-json
    (``instruction``, ``task``, ``mode``, ``visual_condition``, ``category``, ``seed``, ``W``,
    ``H``, ``bg_colors``) plus the input scene, the target element ids and every parameter
    the answer depends on.

    ``problem_id`` names the problem wherever it is (docs/file-layout.md, "Three names for one
    problem"): set by :func:`paintkit.generate` and the suites (whose ``NNN.json`` also holds
    it as ``metadata["problem_id"]``); None for a problem built by hand.

    ``references`` are the problem's other input images, in the order the model gets them
    after ``input`` (docs/references.md): each a :class:`Reference`, whose roles the metadata
    also lists (``metadata["references"]``: ``[{"role": "style"}, ...]``). A one-image problem
    has none, and then no ``references`` key: its bytes are what they always were. The edit
    region and every score are measured against ``input``, never a reference.
    """

    input: np.ndarray
    answer: np.ndarray
    instruction: str
    metadata: dict[str, Any]
    problem_id: str | None = None
    references: tuple[Reference, ...] = ()

    def __post_init__(self) -> None:
        self.references = tuple(self.references)
        for ref in self.references:
            if not isinstance(ref, Reference):
                raise TypeError(f"Problem.references holds Reference objects, got "
                                f"{type(ref).__name__}")

    @property
    def images(self) -> tuple[np.ndarray, ...]:
        """Every image the model gets, in order: ``input``, then each reference's."""
        return (self.input, *(ref.image for ref in self.references))

    @property
    def edit_mask(self) -> np.ndarray:
        """bool ``(H, W)``: pixels where input and answer differ in any channel."""
        return changed_mask_numba(self.input, self.answer)

    def __repr__(self) -> str:
        """One line: the problem id (or task, mode, condition, seed), the canvas size and the
        start of the instruction; never the pixels or the whole metadata."""
        meta = self.metadata if isinstance(self.metadata, Mapping) else {}
        name = self.problem_id or meta.get("problem_id") or "/".join(
            str(meta[k]) for k in ("task", "mode", "visual_condition", "seed") if k in meta)
        shape = getattr(self.input, "shape", None)
        size = f"{shape[1]}x{shape[0]}" if shape is not None and len(shape) >= 2 else "?"
        text = " ".join(str(self.instruction).split())
        if len(text) > 60:
            text = text[:57] + "..."
        return f"Problem({name!r}, {size}, instruction={text!r})"


@dataclass
class TaskContext:
    """Everything a task's ``generate`` needs: validated names, seed, RNG and condition."""

    spec: TaskSpec
    seed: int
    condition: Condition
    mode: str
    rng: random.Random

    @property
    def count(self) -> int:
        """The default object count of this task under this condition."""
        return self.condition.object_count(self.spec.counts)

    def reject(self, why: str) -> RejectedSeed:
        """An exception to raise when this seed cannot give a valid problem."""
        return RejectedSeed(f"{self.spec.name}/{self.mode}/{self.condition.name} seed "
                            f"{self.seed}: {why}")

    def problem(self, input_pixels: np.ndarray, answer_pixels: np.ndarray, instruction: str, *,
                scene: Scene, params: Mapping[str, Any], targets: tuple[str, ...] = (),
                answer_scene: Scene | None = None, min_edit_pixels: int = 1) -> Problem:
        """Check the pixels and build the :class:`Problem` with its metadata.

        Rejects the seed when input and answer are identical or differ in fewer than
        ``min_edit_pixels`` pixels (see :func:`geometric_min_edit` for geometric tasks), and
        when the input, scored as if it were a model output, gets an mIoU above
        :data:`MAX_IDENTITY_MIOU` (see :func:`identity_miou`).
        """
        for name, arr in (("input", input_pixels), ("answer", answer_pixels)):
            expected = (self.condition.height, self.condition.width, 3)
            if arr.dtype != np.uint8 or arr.shape != expected:
                raise ValueError(f"{self.spec.name}: {name} pixels must be uint8 {expected}, "
                                 f"got {arr.dtype} {arr.shape}")
        edited, free = identity_check(input_pixels, answer_pixels)
        if edited < max(1, min_edit_pixels):
            raise self.reject(f"edit region has {edited} px (< {max(1, min_edit_pixels)})")
        if free > MAX_IDENTITY_MIOU:
            raise self.reject(f"the unchanged input would score mIoU {free:.3f} "
                              f"(> {MAX_IDENTITY_MIOU})")
        metadata: dict[str, Any] = {
            "instruction": instruction,
            "task": self.spec.name,
            "mode": self.mode,
            "visual_condition": self.condition.name,
            "category": self.spec.category,
            "seed": self.seed,
            "W": self.condition.width,
            "H": self.condition.height,
            "bg_colors": [rgb_to_hex(c) for c in scene.background.colors],
            "edit_pixels": edited,
            "targets": list(targets),
            "params": dict(params),
            "scene": scene.to_dict(),
        }
        if answer_scene is not None:
            metadata["answer_scene"] = answer_scene.to_dict()
        return Problem(np.ascontiguousarray(input_pixels), np.ascontiguousarray(answer_pixels),
                       instruction, metadata)


@runtime_checkable
class ProblemGenerator(Protocol):
    """What a problem generator provides (every task module satisfies it; see
    docs/generate.md, "Protocols").

    ``SPEC`` says what the task is; ``generate(seed, condition, mode)`` makes problem
    ``seed`` in memory or raises :class:`~paintkit.errors.RejectedSeed` when that seed gives
    no valid problem (the attempt search, :func:`paintkit.attempts.search_attempts`, then
    tries the next seed). It is a pure function of its arguments: the same bytes in any
    process.
    """

    SPEC: TaskSpec

    def generate(self, seed: int, condition: str | Condition, mode: str | None) -> Problem: ...


def identity_check(input_pixels: np.ndarray, answer_pixels: np.ndarray) -> tuple[int, float]:
    """The edit region's size and the mIoU the unchanged input would score against the answer.

    With the output equal to the input, every preservation pixel is correct (ΔE = 0), so
    ``IoU_t`` is the share of edit pixels whose input colour is already within ``t`` of the
    answer's. The metric's own update and compute steps: the counter's identity option
    (:func:`~paintkit.metrics.counts.count_problem`, one pass over the two images, the
    canonical ΔE once per distinct colour pair, on the calling thread), then
    :func:`~paintkit.metrics.compute_step.tolerance_figures`. The mean over the 11 IoUs is
    NumPy's, as the rule has always been decided (the benchmark's bytes depend on it).

    Args:
        input_pixels, answer_pixels: uint8 ``(H, W, 3)`` of one shape.

    Returns:
        ``(edit_pixels, miou)``: the number of pixels where the images differ, and the mIoU
        in [0, 1] (0.0 when the two images are identical: nothing to score).
    """
    counts, _ = count_problem(None, answer_pixels, input_pixels, identity=True)
    edit_pixels = int(counts["edit_pixels"][0])
    if edit_pixels == 0:
        return 0, 0.0
    figures = tolerance_figures(**counts, has_output=np.ones(1, bool))
    return edit_pixels, float(np.mean(figures["iou"][0]))


def reference_miou(reference_pixels: np.ndarray, input_pixels: np.ndarray,
                   answer_pixels: np.ndarray) -> float:
    """mIoU a reference image would score if a model returned it as its output (the "copy the
    reference" output; a reference-guided problem must keep it at most
    :data:`MAX_IDENTITY_MIOU`, docs/references.md).

    The metric's own update and compute steps (:func:`~paintkit.metrics.counts.count_problem`
    with the reference as the output, normalised to the answer's size as any output is, then
    :func:`~paintkit.metrics.compute_step.tolerance_figures`), CIE76, NumPy's mean over the 11 IoUs.

    Args:
        reference_pixels: uint8 ``(H_r, W_r, 3)``.
        input_pixels, answer_pixels: uint8 ``(H, W, 3)`` of one shape.

    Returns:
        the mIoU in [0, 1] (0.0 when input and answer are identical: nothing to score).
    """
    counts, _ = count_problem(reference_pixels, answer_pixels, input_pixels)
    if int(counts["edit_pixels"][0]) == 0:
        return 0.0
    figures = tolerance_figures(**counts, has_output=np.ones(1, bool))
    return float(np.mean(figures["iou"][0]))


def with_references(problem: Problem, references: Sequence[Reference], *, what: str
                    ) -> Problem:
    """``problem`` with ``references`` attached: their roles written into its metadata
    (``metadata["references"]``) and each checked not to pay when copied.

    Args:
        problem: a one-image problem (its input, answer, instruction and metadata).
        references: one or more :class:`Reference`, in the order the model gets them.
        what: names the problem in the rejection message (e.g. its task and seed).

    Returns:
        a new :class:`Problem` (the same arrays; a copy of the metadata with the roles).

    Raises:
        RejectedSeed: a reference, returned as the output, would score mIoU above
            :data:`MAX_IDENTITY_MIOU` (copying the reference must not pay).
        ValueError: no references, or a problem that already has some.
    """
    references = tuple(references)
    if not references or problem.references:
        raise ValueError("with_references: give one or more references to a one-image problem")
    for n, ref in enumerate(references, 1):
        free = reference_miou(ref.image, problem.input, problem.answer)
        if free > MAX_IDENTITY_MIOU:
            raise RejectedSeed(f"{what}: reference {n} ({ref.role}) returned unchanged would "
                               f"score mIoU {free:.3f} (> {MAX_IDENTITY_MIOU})")
    metadata = {**problem.metadata, "references": [{"role": ref.role} for ref in references]}
    return Problem(problem.input, problem.answer, problem.instruction, metadata,
                   problem.problem_id, references)


def identity_miou(input_pixels: np.ndarray, answer_pixels: np.ndarray) -> float:
    """mIoU the unchanged input would score against the answer (the "do nothing" output);
    see :func:`identity_check`, which also gives the edit region's size.

    Args:
        input_pixels, answer_pixels: uint8 ``(H, W, 3)`` of one shape.

    Returns:
        the mIoU in [0, 1] (0.0 when the two images are identical: nothing to score).
    """
    return identity_check(input_pixels, answer_pixels)[1]


def start(spec: TaskSpec, seed: int, condition: str | Condition, mode: str | None) -> TaskContext:
    """Validate ``seed``, ``condition`` and ``mode`` and build the task's context.

    ``condition`` is a condition name or a :class:`Condition` (custom suites pass variants
    with another canvas size or object counts, see :mod:`paintkit.suites.variants`).
    """
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    if isinstance(condition, Condition):
        cond = condition
    elif condition not in CONDITIONS:
        raise ValueError(f"unknown visual condition {condition!r}; allowed: {', '.join(CONDITIONS)}")
    else:
        cond = get_condition(condition)
    return TaskContext(spec=spec, seed=int(seed), condition=cond,
                       mode=spec.check_mode(mode), rng=python_rng(int(seed)))
