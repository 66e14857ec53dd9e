"""One problem of a suite, before it is generated: what to generate and where it goes."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from paintkit.layout.problem_files import problem_id, problem_stem

PROBLEM = "problem"
PRESERVATION = "preservation"
PRESERVATION_TASK = "preservation"  # folder and metadata task name of the preservation split
PRESERVATION_SOURCE = "removal"
#: Default namespace of training streams and corpora: its seeds never meet the benchmark's.
TRAINING_NAMESPACE = "train"


@dataclass(frozen=True)
class ProblemSpec:
    """Problem ``index`` of a suite.

    ``task``/``condition``/``mode``/``slot`` pick the generator call (seeds of
    docs/generator-rules.md#seeds, with ``namespace`` and the condition key
    ``seed_condition``); ``folder``/``idx`` place it in the benchmark layout of
    docs/file-layout.md (``<folder>/<idx:03d>_input.png``); ``kind`` is ``"problem"`` or
    ``"preservation"`` (a removal problem whose answer is its input, see ``build.py``).
    """

    index: int
    kind: str
    task: str
    condition: str
    seed_condition: str
    mode: str
    slot: int
    namespace: str
    folder: str
    idx: int
    idx_digits: int = 3

    @property
    def stem(self) -> str:
        """``NNN``: the zero-padded index within the task folder."""
        return problem_stem(self.idx, self.idx_digits)

    @property
    def problem_id(self) -> str:
        """Unique, readable id, also the WebDataset / Parquet key (no dots, no slashes):
        ``<namespace>-<folder>-<condition key>-<mode>-<slot:06d>``."""
        return problem_id(self.namespace, self.folder, self.seed_condition, self.mode, self.slot)


_NAME = re.compile(r"^[A-Za-z0-9_]+$")
_BENCHMARK = re.compile(r"^[A-Za-z0-9_.-]+$")


def check_slots_and_names(suite: Any) -> None:
    """The checks every suite shares: ``per_cell`` an int >= 1, ``start_slot`` an int >= 0,
    ``namespace`` letters, digits and ``_``, ``benchmark`` one folder name, and the benchmark
    guard (:func:`check_benchmark_reach`).

    Raises:
        ValueError: naming the field, what came and what is allowed.
    """
    for name in ("per_cell", "start_slot"):
        value = getattr(suite, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < (name == "per_cell"):
            raise ValueError(f"{name} must be an int >= {int(name == 'per_cell')}, got {value!r}")
    if not isinstance(suite.namespace, str) or not _NAME.match(suite.namespace):
        raise ValueError(f"namespace must be letters, digits and '_', got {suite.namespace!r}")
    if not isinstance(suite.benchmark, str) or not _BENCHMARK.match(suite.benchmark):
        raise ValueError(f"benchmark must be a folder name (letters, digits, '_.-'), got "
                         f"{suite.benchmark!r}")
    check_benchmark_reach(suite)


def reaches_past_benchmark(suite: Any, rounds: int = 1) -> bool:
    """Whether the first ``rounds`` rounds of ``suite`` hold problems past its benchmark's
    own slots while in the benchmark's own seed namespace (so the suite holds every
    benchmark problem too). Suites declare ``OWN_NAMESPACE`` and ``OWN_PER_CELL``."""
    own = getattr(suite, "OWN_NAMESPACE", None)
    return own is not None and suite.namespace == own and \
        suite.start_slot + rounds * suite.per_cell > suite.OWN_PER_CELL


def check_benchmark_reach(suite: Any, rounds: int = 1) -> None:
    """Refuse a suite (or ``rounds`` rounds of a stream over it) that would hold every
    benchmark problem and more, unless built with ``beyond_benchmark=True``: training data
    made from it would contain the benchmark itself.

    Raises:
        ValueError: saying which slots reach past the benchmark and the two ways out.
    """
    if getattr(suite, "beyond_benchmark", False) or not reaches_past_benchmark(suite, rounds):
        return
    reach = "an infinite stream" if rounds > 1 else \
        f"per_cell={suite.per_cell} (from slot {suite.start_slot})"
    raise ValueError(
        f"{reach} in the '{suite.namespace}' namespace reaches past {suite.OWN_NAME}'s "
        f"{suite.OWN_PER_CELL} per cell and contains every benchmark problem; use another "
        f"namespace (e.g. '{TRAINING_NAMESPACE}') for training data, or beyond_benchmark=True "
        "to do it anyway (command line: --namespace, --beyond-benchmark)")


def check_names(value: Iterable[Any], allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
    """``value`` (names; empty: all of ``allowed``) as a tuple, each in ``allowed``, no repeats.

    Raises:
        ValueError: naming the unknown or repeated ``what``.
    """
    items = tuple(str(v).strip() for v in value) or allowed
    for item in items:
        if item not in allowed:
            raise ValueError(f"unknown {what} {item!r}; allowed: {', '.join(allowed)}")
    if len(set(items)) != len(items):
        raise ValueError(f"{what}s listed twice: {', '.join(items)}")
    return items
