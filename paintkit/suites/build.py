"""Make the problem a :class:`~paintkit.suites.spec.ProblemSpec` names, ready to write.

The suite makes it (:meth:`~paintkit.suites.protocol.ProblemSuite.make_problem`: a pure
function of the spec and the suite's settings, so every engine, worker count and process
gives the same bytes); this module adds the preservation transform and the ids.

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
from typing import Any

from paintkit.suites.protocol import ProblemSuite, check_suite
from paintkit.suites.spec import PRESERVATION, PRESERVATION_TASK, ProblemSpec
from paintkit.tasks import DEFAULT_MODE, Problem


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


def build_problem(suite: ProblemSuite, spec: ProblemSpec) -> Problem:
    """Make ``spec``'s problem with ``suite`` (:class:`~paintkit.suites.protocol.ProblemSuite`),
    turn it into a preservation problem when ``spec`` says so, and stamp ``problem_id`` and
    ``idx`` into its metadata (first keys).

    Raises:
        TypeError: ``suite`` is not a :class:`~paintkit.suites.protocol.ProblemSuite`.
    """
    problem = check_suite(suite).make_problem(spec)
    if spec.kind == PRESERVATION:
        source_id = replace(spec, folder=spec.task).problem_id
        problem = preservation_problem(problem, source_id)
    problem.metadata = {"problem_id": spec.problem_id, "idx": spec.idx, **problem.metadata}
    problem.problem_id = spec.problem_id
    return problem
