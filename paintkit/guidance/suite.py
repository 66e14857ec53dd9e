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

from dataclasses import dataclass
from typing import Any, ClassVar

from paintkit.conditions import CONDITIONS
from paintkit.guidance.generate import GUIDED_TASKS, make_guided_problem
from paintkit.suites.base import DataclassSuite
from paintkit.suites.spec import PROBLEM, ProblemSpec, check_names, check_slots_and_names
from paintkit.tasks import Problem, task_spec

GUIDANCE_BENCHMARK = "Guidance"
GUIDANCE_NAMESPACE = "guidance"
GUIDANCE_PER_CELL = 12


@dataclass(frozen=True)
class GuidanceSuite(DataclassSuite):
    """Ordered guided problems; the interface of the other suites (``len``, ``spec``,
    ``specs``, ``problems``, ``to_dict``/``from_dict``, ``benchmark``, ``make_problem``)."""

    tasks: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    per_cell: int = GUIDANCE_PER_CELL
    start_slot: int = 0
    namespace: str = GUIDANCE_NAMESPACE
    benchmark: str = GUIDANCE_BENCHMARK
    beyond_benchmark: bool = False

    OWN_NAMESPACE: ClassVar[str] = GUIDANCE_NAMESPACE
    OWN_PER_CELL: ClassVar[int] = GUIDANCE_PER_CELL
    OWN_NAME: ClassVar[str] = "the guidance suite"

    def __post_init__(self) -> None:
        object.__setattr__(self, "tasks", check_names(self.tasks, GUIDED_TASKS, "guided task"))
        object.__setattr__(self, "conditions", check_names(self.conditions, CONDITIONS, "condition"))
        check_slots_and_names(self)

    @property
    def block(self) -> int:
        return len(self.conditions) * self.per_cell

    def __len__(self) -> int:
        return len(self.tasks) * self.block

    def spec(self, index: int, round: int = 0) -> ProblemSpec:
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

    def make_problem(self, spec: ProblemSpec) -> Problem:
        """The guided problem ``spec`` names (called by :func:`paintkit.suites.build_problem`)."""
        return make_guided_problem(spec.task, spec.condition, spec.mode, spec.slot,
                                   namespace=spec.namespace)

    def to_dict(self) -> dict[str, Any]:
        return {"suite": "guidance", "benchmark": self.benchmark, "namespace": self.namespace,
                "tasks": list(self.tasks), "conditions": list(self.conditions),
                "per_cell": self.per_cell, "start_slot": self.start_slot, "problems": len(self),
                **({"beyond_benchmark": True} if self.beyond_benchmark else {})}

