"""Agreement between paintkit scores and human or model-judge ratings (ImagenWorld's checks).

Items are problems; ``scores`` is one number per item (e.g. mIoU), ``ratings`` a matrix
``(items, raters)`` with NaN where a rater did not rate an item.

- :func:`spearman`: Spearman's rank correlation, ties given their average rank (SciPy's
  ``spearmanr``); NaN when either side is constant.
- :func:`pairwise_accuracy` (Kendall-based): over all pairs of distinct items, the share
  whose order agrees: ``sign(x_i - x_j) == sign(y_i - y_j)``. **Ties**: a pair tied on both
  sides agrees; tied on one side only, it disagrees (Deutsch et al.'s accuracy with ties, so
  a judge cannot gain by declaring ties). Differences with ``|x_i - x_j| <= epsilon_x`` count
  as ties (for continuous scores against coarse ratings). Without ties it equals
  ``(τ + 1) / 2`` with Kendall's τ.
- :func:`krippendorff_alpha_interval`: Krippendorff's alpha with the interval metric
  ``(c - k)²`` over a raters x units matrix with missing values; units with fewer than two
  ratings are dropped. ``1 - D_o / D_e``.
- :func:`signed_bias`: mean of ``x - y`` (positive: ``x`` rates higher).
- :func:`leave_one_out`: the fold average: each rater against the mean of the other
  raters (or, with ``against``, a metric against the mean of the raters left after
  dropping each one in turn), averaged over the folds.
- :func:`bootstrap_ci`: percentile interval from resampling items with replacement (pairs
  made of two copies of one item are left out of pairwise accuracy).

:func:`agreement_report` puts them together; ``paintkit agreement`` runs it on files.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from contextlib import contextmanager

import numpy as np

from paintkit.arguments import check_int

__all__ = [
    "agreement_report", "bootstrap_ci", "krippendorff_alpha_interval", "leave_one_out",
    "pairwise_accuracy", "scale_warning", "signed_bias", "spearman",
]

DEFAULT_RESAMPLES = 1000
#: Most bootstrap resamples accepted: each one recomputes every figure in Python, so a typo
#: like 100000000 would run for days.
MAX_RESAMPLES = 100_000
_PAIR_BLOCK = 512  # rows of the pair matrix per step (bounds memory at n x 512)


def _vectors(x, y) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, np.float64).reshape(-1)
    y = np.asarray(y, np.float64).reshape(-1)
    if x.shape != y.shape:
        raise ValueError(f"x, y: expected one value per item on both sides, got {x.size} and "
                         f"{y.size}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("x, y: expected finite values (drop unrated items first)")
    return x, y


def _average_ranks(v: np.ndarray) -> np.ndarray:
    order = np.argsort(v, kind="mergesort")
    sorted_v = v[order]
    starts = np.flatnonzero(np.r_[True, sorted_v[1:] != sorted_v[:-1]])
    ends = np.r_[starts[1:], v.size]
    ranks = np.empty(v.size)
    ranks[order] = np.repeat((starts + ends + 1) / 2.0, ends - starts)  # 1-based average
    return ranks


def spearman(x, y) -> float:
    """Spearman's rho of two equally long vectors (ties: average ranks); NaN if constant.

    Example:
        >>> spearman([1, 2, 3, 4], [10, 20, 40, 30])
        0.8
    """
    x, y = _vectors(x, y)
    if x.size < 2:
        return math.nan
    rx, ry = _average_ranks(x) - (x.size + 1) / 2, _average_ranks(y) - (y.size + 1) / 2
    denom = math.sqrt(float(rx @ rx) * float(ry @ ry))
    return float(rx @ ry) / denom if denom > 0 else math.nan


def _pair_counts(x, y, groups, epsilon_x, epsilon_y) -> tuple[int, int]:
    """(agreeing pairs, pairs) over i < j with groups[i] != groups[j]."""
    n = x.size
    agree = total = 0
    for start in range(0, n, _PAIR_BLOCK):
        rows = slice(start, min(n, start + _PAIR_BLOCK))
        dx = x[rows, None] - x[None, :]
        dy = y[rows, None] - y[None, :]
        sx = np.where(np.abs(dx) <= epsilon_x, 0, np.sign(dx))
        sy = np.where(np.abs(dy) <= epsilon_y, 0, np.sign(dy))
        i = np.arange(rows.start, rows.stop)[:, None]
        valid = np.arange(n)[None, :] > i
        if groups is not None:
            valid &= groups[rows, None] != groups[None, :]
        agree += int(np.count_nonzero((sx == sy) & valid))
        total += int(np.count_nonzero(valid))
    return agree, total


def pairwise_accuracy(x, y, *, epsilon_x: float = 0.0, epsilon_y: float = 0.0,
                      groups=None) -> float:
    """Kendall-based pairwise accuracy with ties (module docstring); NaN with < 2 items.

    ``groups`` (one label per item) excludes pairs within a group (bootstrap copies).

    Example:
        >>> pairwise_accuracy([1, 2, 3], [1, 1, 2])  # (1,2) tied on one side only
        0.6666666666666666
    """
    x, y = _vectors(x, y)
    groups = None if groups is None else np.asarray(groups).reshape(-1)
    agree, total = _pair_counts(x, y, groups, float(epsilon_x), float(epsilon_y))
    return agree / total if total else math.nan


def signed_bias(x, y) -> float:
    """Mean of ``x - y`` over items (NaN for none)."""
    x, y = _vectors(x, y)
    return float(np.mean(x - y)) if x.size else math.nan


def krippendorff_alpha_interval(ratings) -> float:
    """Krippendorff's alpha, interval metric, of a ``(raters, units)`` matrix with NaN for
    missing ratings. NaN when no unit has two ratings or every rating is equal.

    Example (Krippendorff 2011, 4 observers x 12 units, interval alpha 0.849):
        >>> nan = float("nan")
        >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        ...         [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
        >>> round(krippendorff_alpha_interval(data), 3)
        0.849
    """
    r = np.asarray(ratings, np.float64)
    if r.ndim != 2:
        raise ValueError(f"ratings: expected a (raters, units) matrix, got shape {r.shape}")
    counts = np.sum(~np.isnan(r), axis=0)
    r = r[:, counts >= 2]
    counts = counts[counts >= 2]
    n = int(counts.sum())
    if n < 2:
        return math.nan
    filled = np.nan_to_num(r)
    present = ~np.isnan(r)
    # Within-unit sums of squared differences over ordered pairs: 2 (m Σv² - (Σv)²).
    s1 = filled.sum(axis=0)
    s2 = (filled * filled).sum(axis=0)
    within = 2 * (counts * s2 - s1 * s1)
    d_o = float(np.sum(within / (counts - 1))) / n
    values = filled[present]
    d_e = 2 * (n * float(values @ values) - float(values.sum()) ** 2) / (n * (n - 1))
    return 1 - d_o / d_e if d_e > 0 else math.nan


Statistic = Callable[..., float]


def leave_one_out(statistic: Statistic, ratings, against=None, **kwargs) -> float:
    """Fold average of ``statistic(a, b)`` (module docstring).

    Args:
        statistic: e.g. :func:`spearman` or :func:`pairwise_accuracy`.
        ratings: ``(items, raters)`` with NaN for missing ratings.
        against: None to compare each rater with the mean of the others (needs 2+ raters);
            or one value per item (a metric) compared with the mean of the raters left after
            dropping each rater in turn (with one rater: that rater).

    Items lacking a value on either side of a fold are left out of that fold.
    """
    r = np.asarray(ratings, np.float64)
    if r.ndim != 2:
        raise ValueError(f"ratings: expected (items, raters), got shape {r.shape}")
    raters = r.shape[1]
    if against is None and raters < 2:
        raise ValueError("leave_one_out: rater-vs-rater agreement needs at least 2 raters")
    folds = []
    for k in range(raters):
        others = np.delete(r, k, axis=1) if raters > 1 else r
        with _quiet_mean():
            rest = np.nanmean(others, axis=1)
        side = r[:, k] if against is None else np.asarray(against, np.float64)
        keep = ~np.isnan(side) & ~np.isnan(rest)
        extra = dict(kwargs)
        if kwargs.get("groups") is not None:
            extra["groups"] = np.asarray(kwargs["groups"])[keep]
        folds.append(statistic(side[keep], rest[keep], **extra))
        if against is not None and raters == 1:
            break
    folds = [f for f in folds if not math.isnan(f)]
    return float(np.mean(folds)) if folds else math.nan


@contextmanager
def _quiet_mean():
    """Silence NumPy's 'mean of empty slice' for items no other rater rated (they become NaN
    and are dropped)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def bootstrap_ci(statistic_of: Callable[[np.ndarray], float], n_items: int, *,
                 resamples: int = DEFAULT_RESAMPLES, seed: int = 0,
                 level: float = 0.95) -> tuple[float, float]:
    """Percentile CI of ``statistic_of(indices)`` over ``resamples`` resamples of the
    ``n_items`` items with replacement (``numpy.random.default_rng(seed)``); resamples
    giving NaN are skipped. ``(nan, nan)`` when none is finite."""
    if not 0 < level < 1:
        raise ValueError(f"level: expected a confidence level in (0, 1), got {level!r}")
    resamples = check_int(resamples, "resamples", 0, MAX_RESAMPLES)
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(int(resamples)):
        v = statistic_of(rng.integers(0, n_items, n_items))
        if not math.isnan(v):
            values.append(v)
    if not values:
        return math.nan, math.nan
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def _estimate(fn: Callable[[np.ndarray], float], n: int, resamples: int, seed: int) -> dict:
    value = fn(np.arange(n))
    low, high = bootstrap_ci(fn, n, resamples=resamples, seed=seed) if resamples else (
        math.nan, math.nan)
    return {"value": value, "ci95_low": low, "ci95_high": high}


def agreement_report(scores, ratings, *, epsilon_scores: float = 0.0,
                     epsilon_ratings: float = 0.0, resamples: int = DEFAULT_RESAMPLES,
                     seed: int = 0) -> dict:
    """All agreement figures between a metric and raters, with bootstrap CIs.

    Args:
        scores: ``(items,)`` metric values (finite).
        ratings: ``(items, raters)`` ratings, NaN where missing (each item needs one).
        epsilon_scores, epsilon_ratings: tie thresholds for pairwise accuracy.
        resamples: bootstrap resamples (0: no CIs); ``seed`` fixes them.

    Returns:
        ``{"n_items", "n_raters", "metric_vs_raters": {spearman, pairwise_accuracy,
        signed_bias, krippendorff_alpha}, "rater_vs_rater": {...} or None}``; each figure is
        ``{"value", "ci95_low", "ci95_high"}``. Metric-vs-raters figures are fold averages
        (the metric against the mean of the other raters); bias and alpha compare raw values,
        so they mean something only when both sides use one scale: ``"scale_warning"`` says
        so when they do not (:func:`scale_warning`), else it is None.
    """
    resamples = check_int(resamples, "resamples", 0, MAX_RESAMPLES)
    seed = check_int(seed, "seed", 0)
    s = np.asarray(scores, np.float64).reshape(-1)
    r = np.asarray(ratings, np.float64)
    if r.ndim == 1:
        r = r[:, None]
    if r.shape[0] != s.size:
        raise ValueError(f"ratings: expected one row per item ({s.size}), got {r.shape[0]}")
    if not np.isfinite(s).all():
        raise ValueError("scores: expected finite values for every item")
    if np.isnan(r).all(axis=1).any():
        raise ValueError("ratings: every item needs at least one rating")
    n, raters = r.shape
    acc = {"epsilon_x": epsilon_scores, "epsilon_y": epsilon_ratings}

    def metric_stat(statistic, **kw):
        return lambda idx: leave_one_out(statistic, r[idx], against=s[idx], groups=idx, **kw)

    def mean_rating(idx):
        with _quiet_mean():
            return np.nanmean(r[idx], axis=1)

    metric = {
        "spearman": metric_stat(_spearman_grouped),
        "pairwise_accuracy": metric_stat(pairwise_accuracy, **acc),
        "signed_bias": lambda idx: signed_bias(s[idx], mean_rating(idx)),
        "krippendorff_alpha": lambda idx: krippendorff_alpha_interval(
            np.vstack([s[idx], r[idx].T])),
    }
    report = {"n_items": n, "n_raters": raters, "scale_warning": scale_warning(s, r),
              "metric_vs_raters": {k: _estimate(f, n, resamples, seed) for k, f in metric.items()},
              "rater_vs_rater": None}
    if raters >= 2:
        tie = {"epsilon_x": epsilon_ratings, "epsilon_y": epsilon_ratings}
        humans = {
            "spearman": lambda idx: leave_one_out(_spearman_grouped, r[idx], groups=idx),
            "pairwise_accuracy": lambda idx: leave_one_out(pairwise_accuracy, r[idx],
                                                           groups=idx, **tie),
            "krippendorff_alpha": lambda idx: krippendorff_alpha_interval(r[idx].T),
        }
        report["rater_vs_rater"] = {k: _estimate(f, n, resamples, seed)
                                    for k, f in humans.items()}
    return report


def scale_warning(scores, ratings) -> str | None:
    """A warning when the scores and the ratings use different scales (one lies in [0, 1],
    the other does not, e.g. mIoU against ratings from 1 to 5): signed bias and alpha then
    compare raw values that mean different things. None when the scales look alike."""
    s = np.asarray(scores, np.float64)
    r = np.asarray(ratings, np.float64)
    r = r[~np.isnan(r)]
    if not s.size or not r.size:
        return None
    unit_s = bool(s.min() >= 0 and s.max() <= 1)
    unit_r = bool(r.min() >= 0 and r.max() <= 1)
    if unit_s == unit_r:
        return None
    return (f"scores lie in [{s.min():g}, {s.max():g}] and ratings in [{r.min():g}, "
            f"{r.max():g}]: signed_bias and krippendorff_alpha compare raw values on different "
            "scales and mean little; rescale the ratings to [0, 1] (spearman and "
            "pairwise_accuracy do not depend on the scale)")


def _spearman_grouped(x, y, groups=None) -> float:
    return spearman(x, y)  # duplicates are fine for a rank correlation
