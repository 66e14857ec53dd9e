"""A problem from its key: ``problem_id`` -> the problem, regenerated deterministically.

Every seeded problem paintkit writes carries ``problem_id`` =
``<namespace>-<folder>-<condition key>-<mode>-<slot:06d>``
(:attr:`paintkit.suites.spec.ProblemSpec.problem_id`; also the ``key`` column of Parquet /
WebDataset shards), and generation is a pure function of those fields, so the key alone
fixes the input and answer bytes. :func:`problem_from_key` is the one place that reads a key
back; it picks the problem source (:func:`paintkit.sources.get_source`) and asks it for the
slot (``source.problem(task, slot, ...)``):

- ``<kind>_steps<N>`` folders with mode ``steps<N>``: ``compositional`` chains;
- chart task folders (``bar_chart_add_bar``, ...) with condition and mode ``default``:
  ``tinygrafixbench`` (exact bytes need the pinned matplotlib);
- chart type folders (``bar_chart``, ...) with condition and mode ``default``, in any
  namespace: ``style-transfer`` (the content chart, its style reference and the answer);
- namespace ``guidance`` with a guided task: the ``guidance`` variants;
- scene reference task folders (``reference_copy``, ...), in any namespace: ``references``
  (the problem with its reference images; a score reads only its input and answer);
- PaintBench task folders, and ``preservation`` (built from the removal problem of the same
  key), in any namespace (``paintbench``, ``train``, your own): ``paintbench``.

A guided problem generated in a namespace other than ``guidance`` has a key that reads as the
plain task's: serve such a corpus from its files (``paintkit serve --benchmarks DIR``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from paintkit.tasks import Problem

_SLOT = re.compile(r"^\d{6,}$")
_CONDITION = re.compile(r"^(?P<name>[a-z_]+)(?:@(?P<w>\d+)x(?P<h>\d+))?(?:@n(?P<n>\d+))?$")
_STEPS = re.compile(r"^(?P<kind>[a-z_]+)_steps(?P<steps>\d+)$")
#: Largest ``@nK`` object count a key may ask for (what ``paintkit generate --counts`` takes):
#: regeneration time grows with the count, and the service makes it inside a request.
MAX_COUNT = 500


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


def _condition(key: str, table: str, where: str,
               max_pixels: int | None = None) -> tuple[Any, str | None]:
    """``(condition, condition_key or None)`` for a condition key such as ``baseline``,
    ``baseline@512x512``, ``n_med@n12`` (see :func:`paintkit.suites.variants.condition_key`)."""
    # skia, numba: the generation modules load only when a key is regenerated
    from paintkit.conditions import CONDITIONS, get_condition
    from paintkit.suites.variants import VariantCondition, check_size

    match = _CONDITION.match(key)
    if match is None or match["name"] not in CONDITIONS:
        raise ProblemKeyError(f"{where}: unknown condition {key!r}; allowed: "
                              f"{', '.join(CONDITIONS)}, optionally with @WxH and/or @nK")
    if match["n"] is not None:  # before anything is made: counts as paintkit generate takes
        count = int(match["n"]) if len(match["n"]) <= 4 else MAX_COUNT + 1
        if not 1 <= count <= MAX_COUNT:
            raise ProblemKeyError(f"{where}: @n{match['n']}: an object count must lie in "
                                  f"1..{MAX_COUNT} (paintkit generate --counts takes the same)")
    base = get_condition(match["name"])
    if match["w"] is None and match["n"] is None:
        return match["name"], None
    width, height = (base.width, base.height) if match["w"] is None else \
        (int(match["w"]), int(match["h"]))
    check_size((width, height))
    if max_pixels is not None and width * height > max_pixels:
        raise ProblemKeyError(f"{where}: a {width}x{height} canvas exceeds the limit of "
                              f"{max_pixels} pixels")
    counts: tuple[tuple[str, tuple[int, int, int, int]], ...] = ()
    if match["n"] is not None:
        n = int(match["n"])
        counts = ((table, (n, n, n, n)),)
    condition = VariantCondition(name=base.name, width=width, height=height,
                                 palette=base.palette, striped=base.striped,
                                 count_level=base.count_level, counts=counts)
    return condition, key


def _source_slot(parsed: ProblemKey, where: str,
                 max_pixels: int | None) -> tuple[str, str, Any, str | None, bool]:
    """``(source name, task, condition, condition key, preservation?)`` of a parsed key."""
    # skia, numba, matplotlib: each source's generators load only when a key is regenerated
    from paintkit.sources import get_source
    from paintkit.suites.spec import PRESERVATION_SOURCE, PRESERVATION_TASK

    steps = _STEPS.match(parsed.folder)
    if steps is not None and steps["kind"] in get_source("compositional").tasks():
        if parsed.mode != f"steps{steps['steps']}":
            raise ProblemKeyError(f"{where}: folder {parsed.folder} needs mode "
                                  f"steps{steps['steps']}, got {parsed.mode!r}")
        condition, ckey = _condition(parsed.condition_key, "default", where, max_pixels)
        return "compositional", steps["kind"], condition, ckey, False
    if parsed.folder in get_source("tinygrafixbench").tasks():
        if (parsed.condition_key, parsed.mode) != ("default", "default"):
            raise ProblemKeyError(f"{where}: chart tasks have condition and mode 'default'")
        return "tinygrafixbench", parsed.folder, "default", None, False
    if parsed.folder in get_source("style-transfer").tasks():  # bar_chart, ...: any namespace
        if (parsed.condition_key, parsed.mode) != ("default", "default"):
            raise ProblemKeyError(f"{where}: style transfer problems have condition and mode "
                                  "'default'")
        return "style-transfer", parsed.folder, "default", None, False
    if parsed.folder in get_source("references").tasks():  # reference_copy, ...: any namespace
        condition, ckey = _condition(parsed.condition_key, "default", where, max_pixels)
        return "references", parsed.folder, condition, ckey, False
    if parsed.namespace == "guidance" and parsed.folder in get_source("guidance").tasks():
        condition, ckey = _condition(parsed.condition_key, "default", where, max_pixels)
        if ckey is not None:
            raise ProblemKeyError(f"{where}: guided problems use the plain conditions")
        return "guidance", parsed.folder, condition, None, False
    preservation = parsed.folder == PRESERVATION_TASK
    task = PRESERVATION_SOURCE if preservation else parsed.folder
    if task not in get_source("paintbench").tasks():
        raise ProblemKeyError(f"{where}: unknown folder {parsed.folder!r} (a PaintBench task, "
                              f"preservation, a chart task, a reference task or "
                              f"<kind>_steps<N>)")
    from paintkit.tasks import task_spec  # skia, numba: the task modules

    condition, ckey = _condition(parsed.condition_key, task_spec(task).counts, where, max_pixels)
    return "paintbench", task, condition, ckey, preservation


def problem_from_key(key: str, *, max_pixels: int | None = None) -> Problem:
    """The problem ``key`` names, made in memory, ``problem_id`` stamped in its metadata;
    ``max_pixels`` refuses a key asking for a larger canvas before anything is drawn.

    Raises:
        ProblemKeyError: a malformed key, or one naming no task / mode / condition.
    """
    # skia, numba: the generators load only when a key is regenerated
    from paintkit.sources import get_source
    from paintkit.suites.build import preservation_problem

    parsed = ProblemKey.parse(key)
    where = f"problem key {key!r}"
    try:
        name, task, condition, ckey, preservation = _source_slot(parsed, where, max_pixels)
        problem = get_source(name).problem(task, parsed.slot, condition=condition,
                                           mode=parsed.mode, namespace=parsed.namespace,
                                           condition_key=ckey)
    except ProblemKeyError:
        raise
    except ValueError as exc:  # an unknown mode, a size out of range, another matplotlib, ...
        raise ProblemKeyError(f"{where}: {exc}") from None
    if preservation:
        source_id = f"{parsed.namespace}-{task}-{parsed.condition_key}-{parsed.mode}-" \
                    f"{parsed.slot:06d}"
        problem = preservation_problem(problem, source_id)
    problem.metadata = {"problem_id": key, **problem.metadata}
    return problem
