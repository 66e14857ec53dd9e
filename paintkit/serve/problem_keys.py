"""A problem from its key: ``problem_id`` -> the problem, regenerated deterministically.

Every seeded problem paintkit writes carries ``problem_id`` =
``<namespace>-<folder>-<condition key>-<mode>-<slot:06d>``
(:attr:`paintkit.suites.spec.ProblemSpec.problem_id`; also the ``key`` column of Parquet /
WebDataset shards), and generation is a pure function of those fields, so the key alone
fixes the input and answer bytes. :func:`problem_from_key` is the one place that reads a key
back; it calls the public ``make_*`` entry points of each problem family:

- ``<kind>_steps<N>`` folders with mode ``steps<N>``: compositional chains;
- chart task folders (``bar_chart_add_bar``, ...) with condition and mode ``default``:
  TinyGrafixBench (exact bytes need the pinned matplotlib);
- namespace ``guidance`` with a guided task: the visual-guidance variants;
- PaintBench task folders, and ``preservation`` (built from the removal problem of the same
  key), in any namespace (``paintbench``, ``train``, your own).

A guided problem generated in a namespace other than ``guidance`` has a key that reads as the
plain task's: serve such a corpus from its files (``paintkit serve --benchmarks DIR``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paintkit.tasks import Problem

_SLOT = re.compile(r"^\d{6,}$")
_CONDITION = re.compile(r"^(?P<name>[a-z_]+)(?:@(?P<w>\d+)x(?P<h>\d+))?(?:@n(?P<n>\d+))?$")
_STEPS = re.compile(r"^(?P<kind>[a-z_]+)_steps(?P<steps>\d+)$")


class ProblemKeyError(ValueError):
    """A key that is malformed or names no problem paintkit can make."""


@dataclass(frozen=True)
class ProblemKey:
    """The five fields of a ``problem_id`` (see the module docstring)."""

    namespace: str
    folder: str
    condition_key: str
    mode: str
    slot: int

    @classmethod
    def parse(cls, key: str) -> ProblemKey:
        """Split ``key``; :class:`ProblemKeyError` naming it when it is not a problem id."""
        if not isinstance(key, str):
            raise ProblemKeyError(f"problem key: expected a string, got {type(key).__name__}")
        parts = key.split("-")
        if len(parts) != 5 or not all(parts) or not _SLOT.match(parts[4]):
            raise ProblemKeyError(
                f"problem key {key!r}: expected <namespace>-<folder>-<condition>-<mode>-<slot>, "
                f"e.g. 'paintbench-translation-baseline@256x256-amount-000000'")
        return cls(parts[0], parts[1], parts[2], parts[3], int(parts[4]))


def _condition(key: str, table: str, where: str, max_pixels: int | None = None):
    """``(condition, condition_key or None)`` for a condition key such as ``baseline``,
    ``baseline@512x512``, ``n_med@n12`` (see :func:`paintkit.suites.variants.condition_key`)."""
    # skia, numba: the generation modules load only when a key is regenerated
    from paintkit.conditions import CONDITIONS, get_condition
    from paintkit.suites.variants import VariantCondition, check_size

    match = _CONDITION.match(key)
    if match is None or match["name"] not in CONDITIONS:
        raise ProblemKeyError(f"{where}: unknown condition {key!r}; allowed: "
                              f"{', '.join(CONDITIONS)}, optionally with @WxH and/or @nK")
    base = get_condition(match["name"])
    if match["w"] is None and match["n"] is None:
        return match["name"], None
    width, height = (base.width, base.height) if match["w"] is None else \
        (int(match["w"]), int(match["h"]))
    check_size((width, height))
    if max_pixels is not None and width * height > max_pixels:
        raise ProblemKeyError(f"{where}: a {width}x{height} canvas exceeds the limit of "
                              f"{max_pixels} pixels")
    counts = ()
    if match["n"] is not None:
        counts = ((table, (int(match["n"]),) * 4),)
    condition = VariantCondition(name=base.name, width=width, height=height,
                                 palette=base.palette, striped=base.striped,
                                 count_level=base.count_level, counts=counts)
    return condition, key


def problem_from_key(key: str, *, max_pixels: int | None = None) -> Problem:
    """The problem ``key`` names, made in memory, ``problem_id`` stamped in its metadata;
    ``max_pixels`` refuses a key asking for a larger canvas before anything is drawn.

    Raises:
        ProblemKeyError: a malformed key, or one naming no task / mode / condition.
    """
    # skia, numba, matplotlib: the generators load only when a key is regenerated
    from paintkit.charts.registry import TINYGRAFIX_TASKS
    from paintkit.compositional.chain import KINDS, make_compositional_problem
    from paintkit.guidance.generate import GUIDED_TASKS, make_guided_problem
    from paintkit.slots import make_slot_problem
    from paintkit.suites.build import preservation_problem
    from paintkit.suites.spec import PRESERVATION_SOURCE, PRESERVATION_TASK
    from paintkit.tasks import TASKS, task_spec

    parsed = ProblemKey.parse(key)
    where = f"problem key {key!r}"
    steps = _STEPS.match(parsed.folder)
    try:
        if steps is not None and steps["kind"] in KINDS:
            if parsed.mode != f"steps{steps['steps']}":
                raise ProblemKeyError(f"{where}: folder {parsed.folder} needs mode "
                                      f"steps{steps['steps']}, got {parsed.mode!r}")
            condition, ckey = _condition(parsed.condition_key, "default", where, max_pixels)
            problem = make_compositional_problem(
                steps["kind"], condition, int(steps["steps"]), parsed.slot,
                namespace=parsed.namespace, condition_key=ckey)
        elif parsed.folder in TINYGRAFIX_TASKS:
            if (parsed.condition_key, parsed.mode) != ("default", "default"):
                raise ProblemKeyError(f"{where}: chart tasks have condition and mode 'default'")
            from paintkit.charts.generate import make_chart_problem  # matplotlib

            problem = make_chart_problem(parsed.folder, parsed.slot, namespace=parsed.namespace)
        elif parsed.namespace == "guidance" and parsed.folder in GUIDED_TASKS:
            condition, ckey = _condition(parsed.condition_key, "default", where)
            if ckey is not None:
                raise ProblemKeyError(f"{where}: guided problems use the plain conditions")
            problem = make_guided_problem(parsed.folder, condition, parsed.mode, parsed.slot,
                                          namespace=parsed.namespace)
        elif parsed.folder in TASKS or parsed.folder == PRESERVATION_TASK:
            task = PRESERVATION_SOURCE if parsed.folder == PRESERVATION_TASK else parsed.folder
            condition, ckey = _condition(parsed.condition_key, task_spec(task).counts, where,
                                         max_pixels)
            problem = make_slot_problem(task, condition, parsed.mode, parsed.slot,
                                        namespace=parsed.namespace, condition_key=ckey)
            if parsed.folder == PRESERVATION_TASK:
                source = f"{parsed.namespace}-{task}-{parsed.condition_key}-{parsed.mode}-" \
                         f"{parsed.slot:06d}"
                problem = preservation_problem(problem, source)
        else:
            raise ProblemKeyError(f"{where}: unknown folder {parsed.folder!r} (a PaintBench "
                                  f"task, preservation, a chart task or <kind>_steps<N>)")
    except ProblemKeyError:
        raise
    except ValueError as exc:  # an unknown mode, a size out of range, ...
        raise ProblemKeyError(f"{where}: {exc}") from None
    problem.metadata = {"problem_id": key, **problem.metadata}
    return problem
