"""TinyGrafixBench problems by slot: the 20 chart tasks (``<chart>_<task>``).

Attempt ``a`` of problem ``slot`` of a chart task has the seed
``tinygrafixbench|chart|task|slot|a`` (:func:`~paintkit.tinygrafix.generate.chart_seed`);
:func:`~paintkit.tinygrafix.generate.chart_pair` draws both states or raises
:class:`~paintkit.errors.RejectedSeed`. Charts have no visual conditions or modes: both are
``"default"``.

The pixels are the benchmark's only with matplotlib
:data:`~paintkit.tinygrafix.environment.CHART_MATPLOTLIB`; another version raises
:class:`~paintkit.tinygrafix.environment.MatplotlibVersionError` before anything is drawn unless
``any_matplotlib``, which draws with it and records it in the metadata (``"matplotlib"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paintkit.attempts import CHART_ATTEMPTS, Found
from paintkit.conditions import Condition
from paintkit.sources.base import ProblemSource, Slot
from paintkit.tasks import Problem
from paintkit.tinygrafix.environment import CHART_MATPLOTLIB, check_matplotlib
from paintkit.tinygrafix.generate import MODE, NAMESPACE, VISUAL_CONDITION, chart_pair, chart_seed
from paintkit.tinygrafix.registry import TINYGRAFIX_TASKS, chart_task


@dataclass(frozen=True)
class TinyGrafixSource(ProblemSource):
    """TinyGrafixBench as a problem source: uint8 ``(768, 1024, 3)`` input and answer, the
    standard metadata (docs/file-layout.md; ``category`` is the chart type) plus both chart
    states."""

    any_matplotlib: bool = False
    max_attempts: int = CHART_ATTEMPTS

    name: ClassVar[str] = "tinygrafixbench"
    namespace: ClassVar[str] = NAMESPACE
    default_condition: ClassVar[str] = VISUAL_CONDITION

    def tasks(self) -> tuple[str, ...]:
        return TINYGRAFIX_TASKS

    def modes(self, task: str) -> tuple[str, ...]:
        chart_task(task)  # ValueError listing the 20 names
        return (MODE,)

    def conditions(self) -> tuple[str, ...]:
        return (VISUAL_CONDITION,)

    def check(self, task: str, slot: int, condition: str | Condition | None, mode: str | None,
              namespace: str | None, condition_key: str | None) -> Slot:
        check_matplotlib(self.any_matplotlib)  # fail fast, before any chart is drawn
        return super().check(task, slot, condition, mode, namespace, condition_key)

    def seed(self, slot: Slot, attempt: int) -> int:
        entry = chart_task(slot.task)
        return chart_seed(entry.chart, entry.task, slot.slot, attempt, slot.namespace)

    def attempt(self, slot: Slot, seed: int):
        return chart_pair(chart_task(slot.task), seed)

    def finish(self, slot: Slot, found: Found) -> Problem:
        entry = chart_task(slot.task)
        inp, ans, instruction, params, input_pixels, answer_pixels, edit_pixels = found.value
        height, width = input_pixels.shape[:2]
        metadata = {
            "instruction": instruction, "task": slot.task, "mode": MODE,
            "visual_condition": VISUAL_CONDITION, "category": entry.chart, "chart": entry.chart,
            "chart_task": entry.task, "seed": found.seed, "slot": slot.slot,
            "attempt": found.attempt, "namespace": slot.namespace, "W": width, "H": height,
            "bg_colors": [inp["theme"]["background"]], "text_color": inp["theme"]["text"],
            "edit_pixels": edit_pixels, "params": params,
            "input_state": inp, "answer_state": ans,
        }
        version = check_matplotlib(self.any_matplotlib)
        if version != CHART_MATPLOTLIB:
            metadata["matplotlib"] = version
        return Problem(input_pixels, answer_pixels, instruction, metadata)
