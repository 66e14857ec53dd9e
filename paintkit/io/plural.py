"""Counts in messages: ``1 file``, ``2,016 files`` (thousands separated, the noun agreeing)."""

from __future__ import annotations


def count_of(n: int, noun: str, plural: str | None = None) -> str:
    """``"1 file"``, ``"0 files"``, ``"2,016 files"``; ``plural`` when it is not noun + s.

    >>> count_of(1, "pair"), count_of(2016, "row"), count_of(2, "(model, benchmark) pair")
    ('1 pair', '2,016 rows', '2 (model, benchmark) pairs')
    """
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"
