"""Vectorised percentile bootstrap over problems (SPEC 2): one ``(B, n)`` draw per task.

Resampling problems with replacement within a task is the same as drawing a count matrix
``W`` ``(B, n)`` (how often each problem is picked in each resample); every resampled mean
is then a matrix product ``W @ values / n``, so no Python loop runs over resamples. The
three CI figures are resampled jointly (the same ``W`` for all of them).

Each task's draw is seeded from ``(seed, benchmark, task, n)`` alone, so results do not
depend on which other models or tasks are in the file, nor on the worker that ran them.
"""

from __future__ import annotations

import hashlib

import numpy as np

#: The resample count and seed the paper uses (SPEC 2).
DEFAULT_N_BOOT = 10_000
DEFAULT_SEED = 0
#: Two-sided 95% percentile interval.
CI_PERCENTILES = (2.5, 97.5)


def task_rng(seed: int, benchmark: str, task: str, n: int) -> np.random.Generator:
    """The generator of one task's resamples: SHA-256 of a readable key, never ``hash()``."""
    digest = hashlib.sha256(f"paintkit-bootstrap|{seed}|{benchmark}|{task}|{n}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))


def resample_counts(rng: np.random.Generator, n_boot: int, n: int) -> np.ndarray:
    """float64 ``(n_boot, n)``: how often each of ``n`` problems is drawn in each resample.

    One ``(n_boot, n)`` index draw, turned into counts by a single ``bincount``.
    """
    if n == 0:
        return np.zeros((n_boot, 0))
    picks = rng.integers(0, n, size=(n_boot, n))
    flat = picks + (np.arange(n_boot) * n)[:, None]
    return np.bincount(flat.ravel(), minlength=n_boot * n).reshape(n_boot, n).astype(np.float64)


def weighted_means(counts: np.ndarray, values: np.ndarray, member: np.ndarray | None = None):
    """Resampled means ``(B, k)`` of ``values`` ``(n, k)`` restricted to ``member`` ``(n,)``.

    Rows where no member problem was drawn are NaN (possible for small subgroups such as one
    visual condition of a task); callers average them out with ``nanmean``.
    """
    if member is not None:
        counts, values = counts[:, member], values[member]
    total = counts.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (counts @ values) / total


def percentile_interval(boot: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) ``(k,)`` 95% percentile bounds of resampled estimates ``(B, k)``."""
    low, high = np.nanpercentile(boot, CI_PERCENTILES, axis=0)
    return low, high
