"""Generate the problem a :class:`~paintkit.suites.spec.ProblemSpec` names.

A problem is a pure function of (task, condition, mode, slot, namespace) and the suite's
size/count overrides, so every engine, worker count and process gives the same bytes.

**Preservation split.** Preservation problem ``NNN`` is built from removal problem ``NNN``
of the same suite: its input *and* answer are the removal problem's answer image (the
target is already gone) and its instruction is the removal instruction, so the one correct
output is the unchanged input. The metadata says ``task: "preservation"``,
``category: "preservation"``, ``mode: "default"``, ``scored: false``,
``source_task: "removal"`` with the source's mode, problem id and targets; ``scene`` is
the removal answer scene when the removal problem recorded one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from paintkit.conditions import Condition
from paintkit.slots import generate_slot
from paintkit.suites.spec import PRESERVATION, PRESERVATION_TASK, ProblemSpec
from paintkit.tasks import DEFAULT_MODE, Problem


class SuiteConditions(Protocol):
    """What building a problem needs of its :class:`~paintkit.suites.Suite`: a condition with
    the suite's size / count overrides. A protocol, so this module never imports the suite
    module (which imports this one)."""

    def condition(self, name: str) -> Condition: ...


def generate_spec(suite: SuiteConditions, spec: ProblemSpec) -> Problem:
    """The task's problem for ``spec`` (before the preservation transform and ids)."""
    if hasattr(suite, "generate_spec"):  # suites with their own generators (TinyGrafixBench)
        return suite.generate_spec(spec)
    if spec.seed_condition == spec.condition:  # nothing this task depends on was changed
        return generate_slot(spec.task, spec.condition, spec.mode, spec.slot, namespace=spec.namespace)
    return generate_slot(spec.task, suite.condition(spec.condition), spec.mode, spec.slot,
                         namespace=spec.namespace, condition_key=spec.seed_condition)


def preservation_problem(removal: Problem, source_id: str) -> Problem:
    """The preservation problem of a removal problem (see the module docstring)."""
    meta = removal.metadata
    out: dict[str, Any] = dict(meta)
    out.update({
        "task": PRESERVATION_TASK, "category": PRESERVATION_TASK, "mode": DEFAULT_MODE,
        "scored": False, "source_task": meta["task"], "source_mode": meta["mode"],
        "source_problem_id": source_id, "source_targets": meta.get("targets", []),
        "targets": [], "edit_pixels": 0,
    })
    if "answer_scene" in out:
        out["scene"] = out.pop("answer_scene")
    return Problem(removal.answer, removal.answer, removal.instruction, out)


def build_problem(suite: SuiteConditions, spec: ProblemSpec) -> Problem:
    """Generate ``spec`` and stamp ``problem_id`` and ``idx`` into its metadata (first keys)."""
    problem = generate_spec(suite, spec)
    if spec.kind == PRESERVATION:
        source_id = replace(spec, folder=spec.task).problem_id
        problem = preservation_problem(problem, source_id)
    problem.metadata = {"problem_id": spec.problem_id, "idx": spec.idx, **problem.metadata}
    return problem
