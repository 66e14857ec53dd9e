"""Chart style transfer problems by slot: one task per chart type (docs/references.md).

Attempt ``a`` of problem ``slot`` of chart type ``chart`` has the seed
``style_transfer|chart|style_transfer|slot|a`` (namespace first,
:func:`~paintkit.tinygrafix.generate.chart_seed`);
:func:`~paintkit.tinygrafix.style_transfer.style_transfer_states` draws the three states and
the attempt is rejected (:class:`~paintkit.errors.RejectedSeed`, the next one is tried) when
they break a rule, when the answer changes fewer than
:data:`~paintkit.tinygrafix.generate.MIN_EDIT_PIXELS` pixels, or when the input or the
reference returned unchanged would score an mIoU above
:data:`~paintkit.tasks.base.MAX_IDENTITY_MIOU`. Charts have no visual conditions or modes:
both are ``"default"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paintkit.attempts import CHART_ATTEMPTS, Found
from paintkit.conditions import Condition
from paintkit.errors import RejectedSeed
from paintkit.sources.base import ProblemSource, Slot
from paintkit.tasks.base import MAX_IDENTITY_MIOU, Problem, Reference, identity_check, with_references
from paintkit.tinygrafix.environment import CHART_MATPLOTLIB, check_matplotlib
from paintkit.tinygrafix.generate import MIN_EDIT_PIXELS, MODE, VISUAL_CONDITION, chart_seed
from paintkit.tinygrafix.registry import CHARTS
from paintkit.tinygrafix.style_transfer import STYLE_FIELDS, palette, style_transfer_states

STYLE_TRANSFER_NAMESPACE = "style_transfer"
STYLE_TRANSFER_TASK = "style_transfer"  # the task part of the seed key
STYLE_TRANSFER_CATEGORY = "style_transfer"
REFERENCE_ROLE = "style"


@dataclass(frozen=True)
class StyleTransferSource(ProblemSource):
    """Chart style transfer as a problem source: uint8 ``(768, 1024, 3)`` input, answer and
    one reference (role ``"style"``); the standard metadata (``category`` is
    ``"style_transfer"``, ``chart`` the chart type) plus ``input_state``, ``reference_state``
    and ``answer_state``."""

    any_matplotlib: bool = False
    max_attempts: int = CHART_ATTEMPTS

    name: ClassVar[str] = "style-transfer"
    namespace: ClassVar[str] = STYLE_TRANSFER_NAMESPACE
    reference_images: ClassVar[bool] = True
    default_condition: ClassVar[str] = VISUAL_CONDITION

    def tasks(self) -> tuple[str, ...]:
        return CHARTS

    def modes(self, task: str) -> tuple[str, ...]:
        if task not in CHARTS:
            raise ValueError(f"unknown chart type {task!r}; allowed: {', '.join(CHARTS)}")
        return (MODE,)

    def conditions(self) -> tuple[str, ...]:
        return (VISUAL_CONDITION,)

    def check(self, task: str, slot: int, condition: str | Condition | None, mode: str | None,
              namespace: str | None, condition_key: str | None) -> Slot:
        check_matplotlib(self.any_matplotlib)  # fail fast, before any chart is drawn
        return super().check(task, slot, condition, mode, namespace, condition_key)

    def seed(self, slot: Slot, attempt: int) -> int:
        return chart_seed(slot.task, STYLE_TRANSFER_TASK, slot.slot, attempt, slot.namespace)

    def attempt(self, slot: Slot, seed: int) -> Problem:
        return style_transfer_problem(slot.task, seed, self.any_matplotlib)

    def finish(self, slot: Slot, found: Found) -> Problem:
        problem = found.value
        slot.stamp(problem.metadata, found.attempt)
        return problem


def style_transfer_problem(chart: str, seed: int, any_matplotlib: bool = False) -> Problem:
    """Seed -> the style transfer problem of ``chart`` (input, answer, the style reference and
    the metadata), or :class:`RejectedSeed` (see the module docstring)."""
    # Deferred: the renderer imports matplotlib's drawing machinery (slow), needed only when
    # charts are drawn; the source's version check runs first and fails fast.
    from paintkit.tinygrafix.render import render_chart, render_pair

    inp, reference, ans, instruction = style_transfer_states(chart, seed)
    input_pixels, answer_pixels = render_pair(inp, ans)
    edit_pixels, free = identity_check(input_pixels, answer_pixels)
    what = f"style transfer {chart} seed {seed}"
    if edit_pixels < MIN_EDIT_PIXELS:
        raise RejectedSeed(f"{what}: the answer changes {edit_pixels} px (< {MIN_EDIT_PIXELS})")
    if free > MAX_IDENTITY_MIOU:
        raise RejectedSeed(f"{what}: doing nothing would score an mIoU above {MAX_IDENTITY_MIOU}")
    height, width = input_pixels.shape[:2]
    metadata = {
        "instruction": instruction, "task": chart, "mode": MODE,
        "visual_condition": VISUAL_CONDITION, "category": STYLE_TRANSFER_CATEGORY,
        "chart": chart, "seed": seed, "W": width, "H": height,
        "bg_colors": [inp["theme"]["background"]], "text_color": inp["theme"]["text"],
        "edit_pixels": edit_pixels,
        "params": {"transferred": "palette", "style_fields": STYLE_FIELDS[chart],
                   "colors": palette(ans), "old_colors": palette(inp),
                   "reference_colors": palette(reference)},
        "input_state": inp, "reference_state": reference, "answer_state": ans,
    }
    version = check_matplotlib(any_matplotlib)
    if version != CHART_MATPLOTLIB:
        metadata["matplotlib"] = version
    problem = Problem(input_pixels, answer_pixels, instruction, metadata)
    return with_references(problem, [Reference(render_chart(reference), REFERENCE_ROLE)], what=what)
