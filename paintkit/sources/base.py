"""The problem-source contract: what PaintBench tasks, TinyGrafixBench charts, guided and
compositional problems share (docs/generate.md#problem-sources).

A source makes *the problem of a slot*: problem ``slot`` of a (task, condition, mode) cell
in a seed ``namespace``. Its one entry, :meth:`ProblemSource.problem`, checks the slot and
runs the attempt search (:func:`~paintkit.attempts.search_attempts`) over three hooks each
source writes:

- ``seed(slot, attempt)``: the seed of an attempt, a pure function of the slot's key and the
  attempt number (:mod:`paintkit.seeds`; each source keeps the key its benchmark was made with);
- ``attempt(slot, seed)``: what that seed gives, or :class:`~paintkit.errors.RejectedSeed`
  (the search then tries the next attempt);
- ``finish(slot, found)``: the :class:`~paintkit.tasks.Problem` of the first accepted
  attempt, with ``slot``, ``attempt``, ``seed`` and ``namespace`` in its metadata.

So a slot never raises ``RejectedSeed``: it is the problem every suite, engine and stream
holds for it, the same bytes in any process. ``problem`` is not overridden (an architecture
test checks it): there is one way to make a problem.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, final

from paintkit.arguments import check_int
from paintkit.attempts import Found, search_attempts
from paintkit.conditions import CONDITIONS, Condition
from paintkit.tasks.base import Problem


@dataclass(frozen=True)
class Slot:
    """One checked slot of a source: what every attempt of it shares.

    ``condition`` is a condition name or a :class:`~paintkit.conditions.Condition` variant
    (another canvas or count table); a variant's seeds use ``condition_key`` (e.g.
    ``"baseline@512x512"``) in place of the name, so it never reuses the benchmark's scenes.
    """

    task: str
    condition: str | Condition
    mode: str
    slot: int
    namespace: str
    condition_key: str | None = None

    @property
    def key(self) -> str:
        """The condition part of the seed key: ``condition_key``, else the condition's name."""
        if self.condition_key is not None:
            return self.condition_key
        return self.condition if isinstance(self.condition, str) else self.condition.name

    def stamp(self, metadata: dict[str, Any], attempt: int) -> None:
        """Write where a problem comes from into its ``metadata``, in this order: ``slot``,
        ``attempt``, ``namespace`` and, for a condition variant, ``condition_key`` (the
        order is part of the metadata's bytes)."""
        metadata.update({"slot": self.slot, "attempt": attempt, "namespace": self.namespace})
        if self.condition_key is not None:
            metadata["condition_key"] = self.condition_key

    def describe(self, source: str) -> str:
        """Names the slot in errors: ``"paintbench translation/amount/baseline slot 3"``."""
        return f"{source} {self.task}/{self.mode}/{self.key} slot {self.slot}"


class ProblemSource(ABC):
    """A family of problems addressed by slot (see the module docstring).

    Class attributes: ``name`` (the source's name, also ``paintkit generate``'s suite name),
    ``namespace`` (the seed namespace of its benchmark), ``default_condition`` and
    ``reference_images`` (whether its problems can have reference images).
    Instances carry ``max_attempts`` (attempts of a slot before
    :class:`~paintkit.attempts.AttemptsExhausted`) and the source's own settings.
    """

    name: ClassVar[str]
    namespace: ClassVar[str]
    default_condition: ClassVar[str] = "baseline"
    #: Whether problems of this source can have reference images (docs/references.md).
    reference_images: ClassVar[bool] = False
    max_attempts: int

    def __post_init__(self) -> None:  # every source is a dataclass: its __init__ calls this
        check_int(self.max_attempts, "max_attempts", 1)

    # -- what the source holds --------------------------------------------------------------
    @abstractmethod
    def tasks(self) -> tuple[str, ...]:
        """The task names of this source, in its benchmark's order."""

    @abstractmethod
    def modes(self, task: str) -> tuple[str, ...]:
        """The modes of ``task`` (its first is the default); ``ValueError`` for an unknown task."""

    def conditions(self) -> tuple[str, ...]:
        """The visual conditions a slot may name (the 8 PaintBench conditions by default)."""
        return CONDITIONS

    # -- the three hooks of the attempt search ----------------------------------------------
    @abstractmethod
    def seed(self, slot: Slot, attempt: int) -> int:
        """The seed of attempt ``attempt`` of ``slot``."""

    @abstractmethod
    def attempt(self, slot: Slot, seed: int) -> Any:
        """What ``seed`` gives for ``slot``; raises :class:`~paintkit.errors.RejectedSeed`
        when it gives no valid problem (any other error is a bug and stops the search)."""

    @abstractmethod
    def finish(self, slot: Slot, found: Found) -> Problem:
        """The problem of the first accepted attempt (``found``: its value, attempt, seed)."""

    # -- the one entry ----------------------------------------------------------------------
    @final
    def problem(self, task: str, slot: int = 0, *, condition: str | Condition | None = None,
                mode: str | None = None, namespace: str | None = None,
                condition_key: str | None = None) -> Problem:
        """Problem ``slot`` of (``task``, ``condition``, ``mode``) in seed ``namespace``, in
        memory: the first attempt of the slot whose seed gives a valid problem.

        Args:
            task: one of :meth:`tasks`.
            slot: an int >= 0; which problem of the cell.
            condition: a name of :meth:`conditions` (default ``default_condition``), or a
                :class:`~paintkit.conditions.Condition` variant with its ``condition_key``.
            mode: one of ``modes(task)`` (default: the first).
            namespace: seed namespace (default: the source's benchmark namespace).
            condition_key: the seed key of a condition variant (recorded in the metadata).

        Returns:
            a :class:`~paintkit.tasks.Problem`: uint8 ``(H, W, 3)`` input and answer, the
            instruction and JSON metadata with ``slot``, ``attempt``, ``seed``, ``namespace``.

        Raises:
            ValueError: an unknown task, mode or condition, a bad slot, a variant without
                a key (one line naming what is allowed).
            AttemptsExhausted: (a ``RuntimeError``) ``max_attempts`` seeds in a row were
                rejected: a bug or an impossible setting.
        """
        where = self.check(task, slot, condition, mode, namespace, condition_key)
        found = search_attempts(partial(self.seed, where), partial(self.attempt, where),
                                max_attempts=self.max_attempts, what=where.describe(self.name))
        return self.finish(where, found)

    def check(self, task: str, slot: int, condition: str | Condition | None, mode: str | None,
              namespace: str | None, condition_key: str | None) -> Slot:
        """The :class:`Slot` these arguments name, checked (``ValueError`` otherwise)."""
        modes = self.modes(task)
        if mode is None:
            mode = modes[0]
        elif mode not in modes:
            raise ValueError(f"task {task!r} has no mode {mode!r}; allowed: {', '.join(modes)}")
        if not isinstance(slot, int) or isinstance(slot, bool) or slot < 0:
            raise ValueError(f"slot must be a non-negative int, got {slot!r}")
        condition = self.default_condition if condition is None else condition
        if isinstance(condition, str):
            if condition not in self.conditions():
                raise ValueError(f"unknown condition {condition!r}; allowed: "
                                 f"{', '.join(self.conditions())}")
        elif condition_key is None:
            raise ValueError("a Condition variant needs a condition_key for its seeds")
        namespace = self.namespace if namespace is None else namespace
        if not isinstance(namespace, str) or not namespace:
            raise ValueError(f"namespace must be a non-empty string, got {namespace!r}")
        return Slot(task, condition, mode, slot, namespace, condition_key)
