"""``problem_stats.jsonl`` rows -> one columnar :class:`ProblemTable` per (model, benchmark).

Rows may come from paintkit or any tool using the same schema. Missing outputs count as
zeros (docs/metric-definition.md §8), never dropped. The figures of a problem are kept as a float64 array
``(n, 12, 4)``: blocks ``cie76_0`` .. ``cie76_10`` then ``cie76_mean``, figures in
:data:`FIGURES` order.

Rows are read under the ``strict`` policy of :mod:`paintkit.layout.readers`: the first
damaged line stops the command, naming ``file:line`` (an aggregate over a silently
shortened file would be wrong). Each row's category is its own ``category`` field (written
by ``paintkit eval``), else :func:`paintkit.stats.order.task_category`.

Rows scored with another colour difference (``paintkit eval --delta-e``: a ``"delta_e"``
field and ``<formula>_threshold`` blocks) are read from their own blocks; one table set
holds one formula (:func:`build_tables` refuses a mix unless one is chosen), and
:func:`name_blocks` renames the aggregate blocks after it (``ciede2000_0`` ...).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from paintkit.errors import PaintkitError
from paintkit.layout.readers import STRICT, read_jsonl
from paintkit.layout.results import PROBLEM_STATS_NAME, problem_stats_path
from paintkit.layout.rows import TINYGRAFIX, row_delta_e, row_key
from paintkit.stats.order import task_category

__all__ = ["BLOCKS", "CI_FIGURES", "FIGURES", "MAX_IDX", "PRESERVATION_TASK",
           "TINYGRAFIX", "TOLERANCES", "ProblemTable", "StatsInputError", "build_tables",
           "check_one_metric_version", "check_row", "choose_delta_e", "load_tables",
           "name_blocks", "read_problem_rows", "row_delta_e", "task_category"]

TOLERANCES = tuple(range(11))
#: Tolerance blocks of the aggregate schema, in output order.
BLOCKS: tuple[str, ...] = tuple(f"cie76_{t}" for t in TOLERANCES) + ("cie76_mean",)
#: Per-problem figures, in array order; the first three get bootstrap CIs.
FIGURES: tuple[str, ...] = ("edit_accuracy", "preservation_accuracy", "iou", "changed_pixels")
CI_FIGURES = FIGURES[:3]
#: The task that only checks preservation (answer = input): a task row, no roll-up.
PRESERVATION_TASK = "preservation"


class StatsInputError(PaintkitError, ValueError):
    """A ``problem_stats.jsonl`` is missing or a row breaks the results schema (docs/file-layout.md)."""


@dataclass
class ProblemTable:
    """Every problem of one (model, benchmark), sorted by (task, idx).

    Attributes:
        values: float64 ``(n, 12, 4)``: blocks x :data:`FIGURES` (zeros for missing outputs).
        task, mode, condition, category: str arrays ``(n,)``.
        idx: int64 ``(n,)``; has_output, correct_size: bool ``(n,)``;
        edit_pixels: int64 ``(n,)`` (|E|, -1 when the row does not say).
    """

    model: str
    benchmark: str
    values: np.ndarray
    task: np.ndarray
    mode: np.ndarray
    condition: np.ndarray
    category: np.ndarray
    idx: np.ndarray
    has_output: np.ndarray
    correct_size: np.ndarray
    edit_pixels: np.ndarray
    delta_e: str = "cie76"

    def __len__(self) -> int:
        return len(self.idx)

    def tasks(self) -> list[str]:
        return list(dict.fromkeys(self.task.tolist()))


def _figures(row: dict, where: str, delta_e: str = "cie76") -> np.ndarray:
    out = np.zeros((len(BLOCKS), len(FIGURES)))
    if not row.get("has_output", False):
        return out
    output = row.get("output")
    name = f"{delta_e}_threshold"
    if not isinstance(output, dict) or name not in output:
        raise StatsInputError(f"{where}: has_output is true but 'output.{name}' is "
                              "missing (docs/file-layout.md)")
    per_t = output[name]
    try:
        for t in TOLERANCES:
            block = per_t[str(t)]
            out[t] = [float(block[f]) for f in FIGURES]
        mean = output.get(f"{delta_e}_mean")
        out[-1] = ([float(mean[f]) for f in FIGURES] if isinstance(mean, dict)
                   else out[:-1].mean(axis=0))
    except (KeyError, TypeError, ValueError) as exc:
        raise StatsInputError(f"{where}: bad 'output.{name}' block ({exc!r}); "
                              "expected keys '0'..'10' each with " + ", ".join(FIGURES)) from exc
    return out


def choose_delta_e(rows: list[dict], delta_e: str | None = None) -> tuple[str, list[dict]]:
    """``(formula, its rows)``: the rows' one formula, or ``delta_e``'s rows when given.

    Raises:
        StatsInputError: rows of several formulas and no choice, or none of the chosen one.
    """
    found = sorted({row_delta_e(r) for r in rows})
    if delta_e is None:
        if len(found) > 1:
            raise StatsInputError(f"rows scored with several delta_e formulas ({', '.join(found)})"
                                  "; choose one with --delta-e")
        return (found[0] if found else "cie76"), rows
    chosen = [r for r in rows if row_delta_e(r) == delta_e]
    if not chosen:
        raise StatsInputError(f"no rows scored with delta_e {delta_e} (the rows use "
                              f"{', '.join(found)})")
    return delta_e, chosen


def check_one_metric_version(rows: list[dict]) -> None:
    """Refuse rows scored by different metric versions (docs/metric-definition.md §9): their
    counts may differ in a few cells, so their means do not mix.

    Raises:
        StatsInputError: naming the versions found and how to rescore.
    """
    # heavy: the metrics package imports numba (about 1 s); 'paintkit --help' imports this
    from paintkit.metrics.version import row_metric_version

    versions = sorted({row_metric_version(r) for r in rows}, key=str)
    if len(versions) > 1:
        raise StatsInputError(f"rows scored with several metric versions "
                              f"({', '.join(map(str, versions))}); rescore them with one "
                              "paintkit ('paintkit eval --overwrite') before aggregating")


def name_blocks(value, delta_e: str):
    """``value`` (aggregate or diagnostics rows) with ``cie76_*`` keys renamed after
    ``delta_e`` (unchanged for CIE76: ``cie76_*`` only ever means CIE76)."""
    if delta_e == "cie76":
        return value
    if isinstance(value, list):
        return [name_blocks(v, delta_e) for v in value]
    if isinstance(value, dict):
        return {(f"{delta_e}_" + k[6:] if isinstance(k, str) and k.startswith("cie76_") else k):
                name_blocks(v, delta_e) for k, v in value.items()}
    return value


def _edit_pixels(row: dict) -> int:
    output = row.get("output")
    if isinstance(output, dict) and output.get("edit_pixels") is not None:
        return int(output["edit_pixels"])
    return -1


#: Largest ``idx`` accepted (problems are numbered 0000, 0001, ... in their task folder).
MAX_IDX = 2**31 - 1


def _check_score(value, where: str, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise StatsInputError(f"{where}: '{name}' must be a number in [0, 1], got "
                              f"{json.dumps(value)[:40]}")
    if not 0.0 <= value <= 1.0:  # NaN fails this too
        raise StatsInputError(f"{where}: '{name}' must lie in [0, 1], got {_shown(value)}")


def _shown(value) -> str:
    """``value`` as the row wrote it (``NaN``, ``Infinity``, ``1.5``)."""
    return json.dumps(value)[:40]


def check_row(row, where: str) -> None:
    """Refuse a row that breaks the results schema (docs/file-layout.md), naming ``where``.

    The key fields must be strings and ``idx`` an integer in ``[0, MAX_IDX]`` (a float
    ``1.7``, a bool, ``null`` or a string is refused, never truncated); ``has_output`` a
    bool when present; every figure of the ``output`` blocks a number in [0, 1]
    (``changed_pixels`` any finite number >= 0), never a string, a bool, NaN or infinity
    (fields stats does not read may hold anything).
    """
    if not isinstance(row, dict):
        raise StatsInputError(f"{where}: expected a JSON object, got {type(row).__name__}")
    missing = [k for k in ("model", "benchmark", "task", "idx") if k not in row]
    if missing:
        raise StatsInputError(f"{where}: missing {', '.join(missing)} (docs/file-layout.md)")
    for key in ("model", "benchmark", "task"):
        if not isinstance(row[key], str) or not row[key]:
            raise StatsInputError(f"{where}: '{key}' must be a non-empty string, got "
                                  f"{json.dumps(row[key])[:40]}")
    idx = row["idx"]
    if isinstance(idx, bool) or not isinstance(idx, int) or not 0 <= idx <= MAX_IDX:
        raise StatsInputError(f"{where}: 'idx' must be an integer from 0 to {MAX_IDX}, got "
                              f"{json.dumps(idx)[:40]}")
    if "has_output" in row and not isinstance(row["has_output"], bool):
        raise StatsInputError(f"{where}: 'has_output' must be true or false, got "
                              f"{json.dumps(row['has_output'])[:40]}")
    output = row.get("output")
    if not row.get("has_output") or not isinstance(output, dict):
        return
    for name, blocks in output.items():
        if name.endswith("_threshold") and isinstance(blocks, dict):
            items = [(f"output.{name}.{t}", b) for t, b in blocks.items()]
        elif name.endswith("_mean"):
            items = [(f"output.{name}", blocks)]
        else:
            continue
        for label, block in items:
            if not isinstance(block, dict):
                continue
            for figure in FIGURES:
                if figure in block:
                    value = block[figure]
                    if figure == "changed_pixels":
                        if isinstance(value, bool) or not isinstance(value, int | float) \
                                or not 0 <= value < float("inf"):
                            raise StatsInputError(f"{where}: '{label}.{figure}' must be a "
                                                  f"number >= 0, got {_shown(value)}")
                    else:
                        _check_score(value, where, f"{label}.{figure}")


def read_problem_rows(path) -> list[dict]:
    """Rows of ``path`` (a ``problem_stats.jsonl`` or a folder holding one), read under the
    ``strict`` policy (:mod:`paintkit.layout.readers`); each row gets ``"_where"``
    (``file:line``) for later messages.

    Raises:
        StatsInputError: the file is missing or unreadable, a line is not UTF-8 or not
            JSON, or a row breaks the schema (:func:`check_row`), naming ``file:line``.
    """
    path = problem_stats_path(path)
    if not path.is_file():
        raise StatsInputError(f"{path}: no such file; expected a {PROBLEM_STATS_NAME} or a "
                              "results folder holding one (written by 'paintkit eval')")
    read = read_jsonl(path, STRICT, check_row, error=StatsInputError)
    rows = []
    for number, row in read.rows:
        row["_where"] = f"{path}:{number}"
        rows.append(row)
    if not rows:
        raise StatsInputError(f"{path}: holds no rows")
    return rows


def build_tables(rows: list[dict], delta_e: str | None = None) -> list[ProblemTable]:
    """Group rows into one :class:`ProblemTable` per (model, benchmark), sorted by name.

    A repeated (model, benchmark, task, idx) keeps the last row (a rescored problem).
    ``delta_e``: read the rows of this formula only (default: the rows' one formula; a mix
    is refused, see :func:`choose_delta_e`).
    """
    delta_e, rows = choose_delta_e(rows, delta_e)
    check_one_metric_version(rows)
    latest: dict[tuple, dict] = {}
    for row in rows:
        latest[row_key(row)] = row
    groups: dict[tuple[str, str], list[tuple]] = {}
    for key in sorted(latest):
        groups.setdefault(key[:2], []).append(key)
    categories: dict[tuple[str, str], str] = {}
    tables = []
    for (model, benchmark), keys in groups.items():
        sel = [latest[k] for k in keys]
        cats = []
        for k, row in zip(keys, sel, strict=True):
            ck = (benchmark, k[2])
            if ck not in categories:
                categories[ck] = task_category(benchmark, k[2], row.get("category"))
            cats.append(categories[ck])
        tables.append(ProblemTable(
            model=model, benchmark=benchmark,
            values=np.stack([_figures(r, r.get("_where", "row"), delta_e) for r in sel]),
            task=np.array([k[2] for k in keys]),
            mode=np.array([str(r.get("mode") or "default") for r in sel]),
            condition=np.array([str(r.get("visual_condition") or "baseline") for r in sel]),
            category=np.array(cats),
            idx=np.array([k[3] for k in keys], dtype=np.int64),
            has_output=np.array([bool(r.get("has_output", False)) for r in sel]),
            correct_size=np.array([bool(r.get("correct_output_size", False)) for r in sel]),
            edit_pixels=np.array([_edit_pixels(r) for r in sel], dtype=np.int64),
            delta_e=delta_e,
        ))
    return tables


def load_tables(path, delta_e: str | None = None) -> list[ProblemTable]:
    """:func:`read_problem_rows` then :func:`build_tables`."""
    return build_tables(read_problem_rows(path), delta_e)
