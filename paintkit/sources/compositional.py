"""Compositional problems by slot: chains of 2-3 edits on one scene (docs/compositional.md).

The tasks are the two kinds, ``multi_edit`` (the steps in one instruction) and
``conversational`` (turn by turn); the mode is the chain length, ``steps2`` or ``steps3``.
Attempt ``a`` of problem ``slot`` has the seed ``compositional|condition|steps|slot|a``
(:func:`~paintkit.seeds.compositional_seed`: both kinds of a slot share the chain);
:func:`~paintkit.compositional.chain.sample_chain` builds the chain or raises
:class:`~paintkit.errors.RejectedSeed`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paintkit.attempts import SLOT_ATTEMPTS, Found
from paintkit.compositional.chain import KINDS, STEP_COUNTS, chain_metadata, sample_chain
from paintkit.compositional.turns import turns_metadata
from paintkit.conditions import Condition, get_condition
from paintkit.seeds import compositional_seed
from paintkit.sources.base import ProblemSource, Slot
from paintkit.tasks import Problem

COMPOSITIONAL_NAMESPACE = "compositional"
#: The modes of both kinds: the chain length.
STEP_MODES: tuple[str, ...] = tuple(f"steps{k}" for k in STEP_COUNTS)


def steps_of(mode: str) -> int:
    """``"steps3"`` -> 3."""
    return int(mode.removeprefix("steps"))


def _condition(slot: Slot) -> Condition:
    return slot.condition if isinstance(slot.condition, Condition) else get_condition(slot.condition)


@dataclass(frozen=True)
class CompositionalSource(ProblemSource):
    """Multi-edit and conversational chains as a problem source. The metadata has the usual
    problem fields (``task`` is the kind, ``mode`` ``steps2``/``steps3``, ``category``
    ``compositional``) plus ``slot``, ``attempt``, ``namespace``; conversational problems
    also ``turns``."""

    max_attempts: int = SLOT_ATTEMPTS

    name: ClassVar[str] = "compositional"
    namespace: ClassVar[str] = COMPOSITIONAL_NAMESPACE

    def tasks(self) -> tuple[str, ...]:
        return KINDS

    def modes(self, task: str) -> tuple[str, ...]:
        if task not in KINDS:
            raise ValueError(f"unknown compositional kind {task!r}; allowed: {', '.join(KINDS)}")
        return STEP_MODES

    def seed(self, slot: Slot, attempt: int) -> int:
        return compositional_seed(slot.key, steps_of(slot.mode), slot.slot, attempt,
                                  namespace=slot.namespace)

    def attempt(self, slot: Slot, seed: int):
        return sample_chain(seed, _condition(slot), steps_of(slot.mode))

    def finish(self, slot: Slot, found: Found) -> Problem:
        scene, chain, pixels = found.value
        meta = chain_metadata(slot.task, _condition(slot), found.seed, scene, chain, pixels)
        if slot.task == "conversational":
            meta["turns"] = turns_metadata(chain, pixels)
        slot.stamp(meta, found.attempt)
        return Problem(pixels[0], pixels[-1], meta["instruction"], meta)
