"""Vectorised percentile bootstrap over problems (metric §13): one ``(B, n)`` draw per task.

Resampling problems with replacement within a task is the same as drawing a count matrix
``W`` ``(B, n)`` (how often each problem is picked in each resample); every resampled mean
is then a matrix product ``W @ values / n``, so no Python loop runs over resamples. The
three CI figures are resampled jointly (the same ``W`` for all of them).

Each task's draw is seeded from ``(seed, benchmark, task, n)`` alone, so results do not
depend on which other models or tasks are in the file, nor on the worker that ran them.
"""

from __future__ import annotations

import hashlib
import numbers
from functools import lru_cache

import numpy as np

#: The resample count and seed the paper uses (docs/metric-definition.md §13).
DEFAULT_N_BOOT = 10_000
DEFAULT_SEED = 0
#: Most resamples accepted (10x the paper's): memory grows as B x problems per task (about
#: 40 bytes each while a task's counts are drawn), so a typo like 100000000 is refused.
MAX_N_BOOT = 100_000
#: Two-sided 95% percentile interval.
CI_PERCENTILES = (2.5, 97.5)


def check_n_boot(n_boot) -> int:
    """``n_boot`` if it is an integer from 1 to :data:`MAX_N_BOOT`, else ``ValueError``."""
    if isinstance(n_boot, bool) or not isinstance(n_boot, numbers.Integral) \
            or not 1 <= n_boot <= MAX_N_BOOT:
        raise ValueError(f"n_boot: expected a resample count from 1 to {MAX_N_BOOT:,}, got "
                         f"{n_boot!r}")
    return int(n_boot)


def task_rng(seed: int, benchmark: str, task: str, n: int) -> np.random.Generator:
    """The generator of one task's resamples: SHA-256 of a readable key, never ``hash()``."""
    digest = hashlib.sha256(f"paintkit-bootstrap|{seed}|{benchmark}|{task}|{n}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))


def resample_counts(rng: np.random.Generator, n_boot: int, n: int) -> np.ndarray:
    """``(n_boot, n)``: how often each of ``n`` problems is drawn in each resample.

    One ``(n_boot, n)`` index draw, turned into counts by a single ``bincount``.
    """
    if n == 0:
        return np.zeros((n_boot, 0))
    picks = rng.integers(0, n, size=(n_boot, n))
    flat = picks + (np.arange(n_boot) * n)[:, None]
    return np.bincount(flat.ravel(), minlength=n_boot * n).reshape(n_boot, n).astype(np.float64)


#: Count matrices up to this many entries (8 MB as int16) are cached per process.
_CACHE_MAX_ENTRIES = 1 << 22


@lru_cache(maxsize=64)
def _task_counts_compact(seed: int, benchmark: str, task: str, n: int, n_boot: int) -> np.ndarray:
    counts = resample_counts(task_rng(seed, benchmark, task, n), n_boot, n)
    return counts.astype(np.int16 if n < 32_768 else np.int32)


def task_counts(seed: int, benchmark: str, task: str, n: int, n_boot: int) -> np.ndarray:
    """float32 ``(n, n_boot)``: :func:`resample_counts` of one task, transposed.

    Drawn once per process and shared by every model (cached compactly as int16): every
    model of a task sees the same resamples. Transposed so that resampled means come out
    as ``(figures, B)`` rows, contiguous for the percentile step.
    """
    if n_boot * n > _CACHE_MAX_ENTRIES:  # a huge task: draw it each time, keep memory flat
        counts = resample_counts(task_rng(seed, benchmark, task, n), n_boot, n)
    else:
        counts = _task_counts_compact(seed, benchmark, task, n, n_boot)
    return np.ascontiguousarray(counts.T, dtype=np.float32)


def percentile_interval(boot: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float64 ``(k,)`` 95% percentile bounds of resampled estimates ``(k, B)``.

    Resamples run along the last (contiguous) axis; linear interpolation between order
    statistics (NumPy's default percentile method). NaN resamples (a subgroup that was not
    drawn) are left out. ``boot`` is scratch space: it is sorted in place when contiguous
    (NumPy's SIMD sort of float32 rows beats ``np.percentile``'s partition about 2.5x here).
    """
    boot = np.ascontiguousarray(boot)
    boot.sort(axis=1)  # NaNs sort last
    valid = np.full(len(boot), boot.shape[1], dtype=np.intp)
    if boot.shape[1] and np.isnan(boot[:, -1]).any():
        valid = (~np.isnan(boot)).sum(axis=1)
    low, high = (_order_statistic(boot, valid, q) for q in CI_PERCENTILES)
    return low, high


def _order_statistic(ordered: np.ndarray, valid: np.ndarray, q: float) -> np.ndarray:
    """Percentile ``q`` of each sorted row's first ``valid`` entries (NaN when none)."""
    last = np.maximum(valid - 1, 0)
    pos = last * (q / 100.0)
    lo = np.floor(pos).astype(np.intp)
    hi = np.minimum(lo + 1, last)
    frac = pos - lo
    a = np.take_along_axis(ordered, lo[:, None], axis=1)[:, 0].astype(np.float64)
    b = np.take_along_axis(ordered, hi[:, None], axis=1)[:, 0].astype(np.float64)
    return np.where(valid > 0, a + (b - a) * frac, np.nan)
