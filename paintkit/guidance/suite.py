"""The guidance suite: guided ``tasks`` x ``conditions`` x ``per_cell`` (each task's first mode).

>>> from paintkit.guidance.suite import GuidanceSuite
>>> suite = GuidanceSuite()  # 5 tasks x 8 conditions x 12 = 480 problems
>>> len(suite), suite.spec(0).problem_id
(480, 'guidance-translation-baseline-amount-000000')

Layout ``<out>/Guidance/<task>/NNN_{input,answer}.png`` + ``NNN.json``, ordered and numbered
as PaintBench's task folders (problem ``NNN`` is condition ``NNN // per_cell``, slot
``start_slot + NNN % per_cell``), so ``paintkit eval`` scores it unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any

from paintkit.conditions import CONDITIONS
from paintkit.guidance.generate import GUIDED_TASKS
from paintkit.suites.spec import PROBLEM, ProblemSpec, check_slots_and_names

GUIDANCE_BENCHMARK = "Guidance"
GUIDANCE_NAMESPACE = "guidance"
GUIDANCE_PER_CELL = 12


def _names(value, allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
    items = tuple(str(v).strip() for v in value) or allowed
    for item in items:
        if item not in allowed:
            raise ValueError(f"unknown {what} {item!r}; allowed: {', '.join(allowed)}")
    if len(set(items)) != len(items):
        raise ValueError(f"{what}s listed twice: {', '.join(items)}")
    return items


@dataclass(frozen=True)
class GuidanceSuite:
    """Ordered guided problems; the interface of the other suites (``len``, ``spec``,
    ``specs``, ``problems``, ``to_dict``/``from_dict``, ``benchmark``, ``generate_spec``)."""

    tasks: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    per_cell: int = GUIDANCE_PER_CELL
    start_slot: int = 0
    namespace: str = GUIDANCE_NAMESPACE
    benchmark: str = GUIDANCE_BENCHMARK

    def __post_init__(self) -> None:
        object.__setattr__(self, "tasks", _names(self.tasks, GUIDED_TASKS, "guided task"))
        object.__setattr__(self, "conditions", _names(self.conditions, CONDITIONS, "condition"))
        check_slots_and_names(self)

    @property
    def block(self) -> int:
        return len(self.conditions) * self.per_cell

    def __len__(self) -> int:
        return len(self.tasks) * self.block

    def spec(self, index: int, round: int = 0) -> ProblemSpec:
        from paintkit.tasks import task_spec

        if not 0 <= index < len(self):
            raise IndexError(f"problem index {index} outside [0, {len(self)})")
        task_i, rest = divmod(index, self.block)
        cond_i, k = divmod(rest, self.per_cell)
        task, condition = self.tasks[task_i], self.conditions[cond_i]
        return ProblemSpec(
            index=index, kind=PROBLEM, task=task, condition=condition, seed_condition=condition,
            mode=task_spec(task).modes[0], slot=self.start_slot + round * self.per_cell + k,
            namespace=self.namespace, folder=task, idx=round * self.block + rest,
            idx_digits=max(3, len(str(self.block - 1))),
        )

    def specs(self) -> Iterator[ProblemSpec]:
        return (self.spec(i) for i in range(len(self)))

    def generate_spec(self, spec: ProblemSpec):
        from paintkit.guidance.generate import generate_guided

        return generate_guided(spec.task, spec.condition, spec.mode, spec.slot,
                               namespace=spec.namespace)

    def problems(self, start: int = 0, stop: int | None = None):
        from paintkit.suites.build import build_problem

        stop = len(self) if stop is None else min(stop, len(self))
        return (build_problem(self, self.spec(i)) for i in range(start, stop))

    def to_dict(self) -> dict[str, Any]:
        return {"suite": "guidance", "benchmark": self.benchmark, "namespace": self.namespace,
                "tasks": list(self.tasks), "conditions": list(self.conditions),
                "per_cell": self.per_cell, "start_slot": self.start_slot, "problems": len(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GuidanceSuite:
        names = {f.name for f in fields(cls)}
        return cls(**{k: (tuple(v) if isinstance(v, list) else v)
                      for k, v in data.items() if k in names})
