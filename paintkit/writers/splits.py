"""The held-out split of a shard corpus: which problems form ``test``, the others ``train``.

A problem is held out when the first 8 bytes of the SHA-256 of its ``problem_id`` (UTF-8),
read as a big-endian integer, fall below ``fraction * 2**64``: a pure function of the id,
so every process, engine and worker count (and any suite that holds the problem) puts it in
the same split, and about ``fraction`` of the problems are held out. The ids differ in their
slot and cell, so the split is spread evenly over tasks and conditions.

``--format parquet`` / ``webdataset`` hold out :data:`HELD_OUT` (one problem in ten, as the
JSONL trainer formats do) unless ``held_out=`` (``--held-out``) says otherwise; 0 writes
every problem to ``train``.
"""

from __future__ import annotations

import hashlib
import math

__all__ = ["HELD_OUT", "SPLITS", "TEST", "TRAIN", "check_held_out", "held_out", "split_of"]

#: The share of a shard corpus's problems held out by default.
HELD_OUT = 0.1
TRAIN, TEST = "train", "test"
#: The splits, in the order their files are written and listed.
SPLITS = (TRAIN, TEST)


def check_held_out(fraction: object, name: str = "held_out") -> float:
    """``fraction`` as a float in [0, 1); ``ValueError`` naming ``name`` otherwise."""
    if isinstance(fraction, bool) or not isinstance(fraction, int | float) or \
            not math.isfinite(fraction) or not 0 <= fraction < 1:
        raise ValueError(f"{name} must be a fraction from 0 (no held-out split) up to but not "
                         f"including 1, got {fraction!r}")
    return float(fraction)


def held_out(problem_id: str, fraction: float) -> bool:
    """Whether problem ``problem_id`` is in the held-out (``test``) split at ``fraction``."""
    if fraction <= 0:
        return False
    digest = hashlib.sha256(problem_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") < fraction * 2**64


def split_of(problem_id: str, fraction: float) -> str:
    """``"test"`` for a held-out problem, else ``"train"``."""
    return TEST if held_out(problem_id, fraction) else TRAIN
