"""Condition variants for custom suites: another canvas size or other object counts.

A variant keeps the condition's name (its palette, background and count level) and changes
the canvas (``--size WxH``: square conditions get ``W x H``, ``horizontal`` and ``vertical``
keep their 1024:576 aspect) and/or the object-count tables (``--counts``). Its seeds use a
*condition key* that names what changed, e.g. ``baseline@512x512`` or ``n_med@n12``, so a
variant never reuses the scenes of the standard benchmark; a variant that changes nothing
for a task keeps the plain condition name (and the benchmark's problems).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from paintkit.conditions import COUNT_LEVELS, COUNTS, Condition, get_condition

MIN_SIDE, MAX_SIDE = 128, 8192
_STANDARD_LONG, _STANDARD_SHORT = 1024, 576
_SIZE = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


@dataclass(frozen=True)
class VariantCondition(Condition):
    """A :class:`Condition` with its own object-count tables.

    ``counts`` is a tuple of ``(table, (baseline, n_med, n_high, n_xhigh))`` pairs that
    replace the rows of :data:`paintkit.conditions.COUNTS` of the same name.
    """

    counts: tuple[tuple[str, tuple[int, int, int, int]], ...] = ()

    def object_count(self, task: str = "default") -> int:
        for table, levels in self.counts:
            if table == task:
                return levels[COUNT_LEVELS.index(self.count_level)]
        return super().object_count(task)


def parse_size(text: str) -> tuple[int, int]:
    """``"512x384"`` -> ``(512, 384)`` (W, H); ``ValueError`` for anything else."""
    match = _SIZE.match(str(text))
    if match is None:
        raise ValueError(f"size must look like WxH (e.g. 512x512), got {text!r}")
    size = int(match.group(1)), int(match.group(2))
    check_size(size)
    return size


def check_size(size: tuple[int, ...]) -> None:
    if len(size) != 2 or not all(isinstance(v, int) and MIN_SIDE <= v <= MAX_SIDE for v in size):
        raise ValueError(f"size sides must be ints in [{MIN_SIDE}, {MAX_SIDE}], got {size!r}")


def parse_counts(items: Iterable[str]) -> dict[str, tuple[int, int, int, int]]:
    """Count-table overrides from ``"B,M,H,X"`` / ``"N"`` (the ``default`` table) or
    ``"TABLE=B,M,H,X"`` strings: counts at the baseline, n_med, n_high and n_xhigh levels."""
    tables: dict[str, tuple[int, int, int, int]] = {}
    for item in items:
        table, _, numbers = item.rpartition("=")
        table = table.strip() or "default"
        try:
            values = tuple(int(v) for v in numbers.split(","))
        except ValueError:
            values = ()
        if len(values) == 1:
            values = values * 4
        if len(values) != 4:
            raise ValueError(f"counts must look like B,M,H,X or TABLE=B,M,H,X (counts at the "
                             f"{', '.join(COUNT_LEVELS)} levels), got {item!r}")
        tables[table] = values
    check_counts(tables)
    return tables


def check_counts(tables: Mapping[str, tuple[int, ...]]) -> None:
    for table, values in tables.items():
        if table not in COUNTS:
            raise ValueError(f"unknown count table {table!r}; allowed: {', '.join(COUNTS)}")
        if len(values) != 4 or not all(isinstance(v, int) and 1 <= v <= 500 for v in values):
            raise ValueError(f"counts of table {table!r} must be 4 ints in [1, 500], got {values!r}")


def variant_condition(name: str, size: tuple[int, int] | None = None,
                      counts: Mapping[str, tuple[int, int, int, int]] | None = None) -> Condition:
    """Condition ``name`` with the canvas of ``size`` and the count tables ``counts``.

    Without overrides this is exactly :func:`paintkit.conditions.get_condition`.
    """
    base = get_condition(name)
    if size is None and not counts:
        return base
    width, height = base.width, base.height
    if size is not None:
        check_size(size)
        width, height = size
        if name == "horizontal":
            height = max(MIN_SIDE // 2, round(size[1] * _STANDARD_SHORT / _STANDARD_LONG))
        elif name == "vertical":
            width = max(MIN_SIDE // 2, round(size[0] * _STANDARD_SHORT / _STANDARD_LONG))
    return VariantCondition(name=base.name, width=width, height=height, palette=base.palette,
                            striped=base.striped, count_level=base.count_level,
                            counts=tuple(sorted((counts or {}).items())))


def condition_key(condition: Condition, table: str = "default") -> str:
    """The condition part of the seed key: the name, plus ``@WxH`` / ``@nK`` for whatever
    this variant changes for a task using count table ``table``."""
    base = get_condition(condition.name)
    key = condition.name
    if (condition.width, condition.height) != (base.width, base.height):
        key += f"@{condition.width}x{condition.height}"
    count = condition.object_count(table)
    if count != base.object_count(table):
        key += f"@n{count}"
    return key
