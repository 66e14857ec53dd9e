"""Repeating patterns of labels: minimal periods and whether visible cells pin down the rest.

A pattern is a sequence of integer labels (cells of a grid in row-major order, or positions
around a circle) of which some are *visible*. A candidate period assigns every cell a
*class* key; it is **consistent** when all visible cells of a class share one label. Under
a consistent candidate, a hidden cell is completed with its class's visible label, or is
undetermined when its class has no visible cell. The visible cells determine the pattern
uniquely among a set of candidates when every consistent candidate determines every
hidden cell and all of them give the same completion.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence


def completion(labels: Sequence[int], visible: Sequence[bool],
               keys: Sequence[Hashable]) -> list[int | None] | None:
    """Labels of the hidden cells under one candidate (class ``keys[i]`` for cell ``i``).

    Returns ``None`` when the candidate is inconsistent with the visible cells, else a list
    over the hidden cells (in cell order) holding the completed label, or ``None`` for a
    cell whose class has no visible cell.
    """
    seen: dict[Hashable, int] = {}
    for label, shown, key in zip(labels, visible, keys, strict=True):
        if shown and seen.setdefault(key, label) != label:
            return None
    return [seen.get(key) for shown, key in zip(visible, keys, strict=True) if not shown]


def uniquely_determined(labels: Sequence[int], visible: Sequence[bool],
                        candidates: Iterable[Sequence[Hashable]]) -> bool:
    """True when every consistent candidate completes every hidden cell, all to ``labels``.

    ``labels`` is the intended full pattern; it must itself be consistent with one of the
    candidates (its true period), else this returns False.
    """
    truth = [label for label, shown in zip(labels, visible, strict=True) if not shown]
    found = False
    for keys in candidates:
        done = completion(labels, visible, keys)
        if done is None:
            continue
        if done != truth:
            return False
        found = True
    return found


def grid_keys(rows: int, cols: int, row_period: int, col_period: int) -> list[tuple[int, int]]:
    """Class keys of a ``rows`` x ``cols`` grid (row-major) under a rectangular period."""
    return [(i % row_period, j % col_period) for i in range(rows) for j in range(cols)]


def cyclic_keys(n: int, period: int) -> list[int]:
    """Class keys of ``n`` positions around a circle under a period dividing ``n``."""
    if n % period:
        raise ValueError(f"a cyclic period must divide the number of positions; {period} does "
                         f"not divide {n}")
    return [k % period for k in range(n)]


def _least(limit: int, holds: Callable[[int], bool]) -> int:
    return next(p for p in range(1, limit + 1) if holds(p))


def grid_min_periods(grid: Sequence[Sequence[int]]) -> tuple[int, int]:
    """Least row period and least column period of a full grid of labels: the smallest
    ``a`` with ``grid[i][j] == grid[i + a][j]`` wherever both exist, and likewise ``b``
    along rows (``a`` = number of rows when nothing smaller repeats)."""
    rows, cols = len(grid), len(grid[0])
    a = _least(rows, lambda p: all(grid[i][j] == grid[i + p][j]
                                   for i in range(rows - p) for j in range(cols)))
    b = _least(cols, lambda p: all(grid[i][j] == grid[i][j + p]
                                   for i in range(rows) for j in range(cols - p)))
    return a, b


def cyclic_min_period(sequence: Sequence[int]) -> int:
    """Least ``q`` dividing ``len(sequence)`` with ``sequence[k] == sequence[(k + q) % n]``."""
    n = len(sequence)
    return _least(n, lambda q: n % q == 0 and all(sequence[k] == sequence[(k + q) % n]
                                                  for k in range(n)))


def visible_per_class(visible: Sequence[bool], keys: Sequence[Hashable]) -> dict[Hashable, int]:
    """Number of visible cells in each class (classes with none map to 0)."""
    out: dict[Hashable, int] = dict.fromkeys(keys, 0)
    for shown, key in zip(visible, keys, strict=True):
        out[key] += bool(shown)
    return out
