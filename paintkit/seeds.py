"""Problem seeds (docs/generator-rules.md#seeds).

A seed is the first 8 bytes of a SHA-256 digest of a ``|``-joined key, read as a big-endian
unsigned int: ``int.from_bytes(sha256(key).digest()[:8], "big")``. Never Python's ``hash()``
(salted per process), never global RNG state: the same key gives the same seed in any
process on any machine.
"""

from __future__ import annotations

import hashlib
import random

import numpy as np


def seed_from_key(*parts: object) -> int:
    """``seed_from_key("a", 1)`` hashes ``"a|1"``; returns an int in ``[0, 2**64)``."""
    key = "|".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big")


def paintbench_seed(task: str, condition: str, mode: str, slot: int, attempt: int = 0,
                    namespace: str = "paintbench") -> int:
    """Seed of PaintBench problem ``slot`` of (task, condition, mode), try ``attempt``.

    ``namespace`` other than ``"paintbench"`` gives fresh, disjoint problem sets.
    """
    return seed_from_key(namespace, task, condition, mode, slot, attempt)


def tinygrafixbench_seed(chart: str, task: str, slot: int, attempt: int = 0,
                         namespace: str = "tinygrafixbench") -> int:
    """Seed of TinyGrafixBench problem ``slot`` of ``chart`` / ``task``, try ``attempt``
    (key ``tinygrafixbench|chart|task|slot|attempt``; a seed whose chart breaks a rule moves
    on to the next attempt, as PaintBench's do)."""
    return seed_from_key(namespace, chart, task, slot, attempt)


def compositional_seed(condition: str, steps: int, slot: int, attempt: int = 0,
                       namespace: str = "compositional") -> int:
    """Seed of compositional chain ``slot`` of ``steps`` edits under ``condition``, try
    ``attempt`` (key ``compositional|condition|steps|slot|attempt``). The multi-edit and the
    conversational problem of a slot share it: the same edits, asked at once or turn by turn."""
    return seed_from_key(namespace, condition, steps, slot, attempt)


def python_rng(seed: int) -> random.Random:
    """A private ``random.Random`` for ``seed`` (never the global generator)."""
    return random.Random(seed)


def numpy_rng(seed: int) -> np.random.Generator:
    """A private PCG64 ``numpy.random.Generator`` for ``seed``."""
    return np.random.Generator(np.random.PCG64(seed))
