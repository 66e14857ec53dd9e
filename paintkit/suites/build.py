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
from typing import TYPE_CHECKING, Any

from paintkit.errors import RejectedSeed
from paintkit.seeds import paintbench_seed
from paintkit.suites.spec import PRESERVATION, PRESERVATION_TASK, ProblemSpec
from paintkit.tasks import DEFAULT_MODE, Problem, task_module
from paintkit.tasks.slots import MAX_ATTEMPTS, generate_slot

if TYPE_CHECKING:
    from paintkit.suites.suite import Suite


def _variant_slot(task: str, condition, key: str, mode: str, slot: int, namespace: str) -> Problem:
    """:func:`~paintkit.tasks.slots.generate_slot` for a condition variant: the seed uses the
    condition key (``baseline@512x512``), the generator gets the variant condition."""
    module = task_module(task)
    last: RejectedSeed | None = None
    for attempt in range(MAX_ATTEMPTS):
        seed = paintbench_seed(task, key, mode, slot, attempt, namespace=namespace)
        try:
            problem = module.generate(seed, condition, mode)
        except RejectedSeed as exc:
            last = exc
            continue
        problem.metadata.update({"slot": slot, "attempt": attempt, "namespace": namespace,
                                 "condition_key": key})
        return problem
    raise RuntimeError(f"{task}/{mode}/{key} slot {slot}: {MAX_ATTEMPTS} attempts in a row were "
                       f"rejected; last reason: {last}")


def generate_spec(suite: Suite, spec: ProblemSpec) -> Problem:
    """The task's problem for ``spec`` (before the preservation transform and ids)."""
    if spec.seed_condition == spec.condition:  # nothing this task depends on was changed
        return generate_slot(spec.task, spec.condition, spec.mode, spec.slot, namespace=spec.namespace)
    return _variant_slot(spec.task, suite.condition(spec.condition), spec.seed_condition, spec.mode,
                         spec.slot, spec.namespace)


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


def build_problem(suite: Suite, spec: ProblemSpec) -> Problem:
    """Generate ``spec`` and stamp ``problem_id`` and ``idx`` into its metadata (first keys)."""
    problem = generate_spec(suite, spec)
    if spec.kind == PRESERVATION:
        source_id = replace(spec, folder=spec.task).problem_id
        problem = preservation_problem(problem, source_id)
    problem.metadata = {"problem_id": spec.problem_id, "idx": spec.idx, **problem.metadata}
    return problem
