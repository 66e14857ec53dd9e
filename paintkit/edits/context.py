"""What an edit builder needs of the task that calls it.

The builders in this package take the calling task's context and never import the tasks
(the tasks import them): :class:`~paintkit.tasks.base.TaskContext` satisfies
:class:`EditContext`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np

from paintkit.conditions import Condition
from paintkit.errors import RejectedSeed
from paintkit.scene import Scene


class EditSpec(Protocol):
    """The part of a task's spec the builders read: its count table's name."""

    counts: str


class EditContext(Protocol):
    """A task's seeded context: its private RNG, condition and spec, how it rejects a seed
    and how it builds (and checks) a problem (see :class:`~paintkit.tasks.base.TaskContext`)."""

    rng: random.Random
    condition: Condition
    spec: EditSpec

    def reject(self, why: str) -> RejectedSeed: ...

    def problem(self, input_pixels: np.ndarray, answer_pixels: np.ndarray, instruction: str, *,
                scene: Scene, params: Mapping[str, Any], targets: tuple[str, ...] = (),
                answer_scene: Scene | None = None, min_edit_pixels: int = 1) -> Any: ...
