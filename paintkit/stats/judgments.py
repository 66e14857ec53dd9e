"""Read paintkit scores and external ratings from JSONL and match them by problem.

Scores: ``problem_stats.jsonl`` rows (docs/file-layout.md); the value is read at a dotted path, by default
the problem's mIoU under the colour difference the rows were scored with
(``output.cie76_mean.iou``, or ``output.ciede2000_mean.iou`` for rows of
``paintkit eval --delta-e ciede2000``). Judgments: one JSON object per line holding
the problem key, a rating and optionally a rater, e.g.
``{"model": "m", "benchmark": "PaintBench", "task": "recolor", "idx": 3, "rater": "h1",
"rating": 4}``. Rows without a rater belong to one rater named ``"judge"``.

The key is made of the fields among ``model, benchmark, task, idx`` present in every row of
both files (so judgments without ``model`` match a single-model results file). Bad rows
(not JSON, a missing or non-numeric field, a repeated key) are recorded with their line
number and skipped; the rest are used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from paintkit.layout.readers import SKIP, read_jsonl
from paintkit.layout.rows import KEY_FIELDS

DEFAULT_SCORE_FIELD = None  # the mIoU under the rows' own colour difference
DEFAULT_RATER = "judge"


@dataclass
class MatchedRatings:
    """Scores and ratings of the problems both files cover.

    ``keys`` (one tuple per item, in the order of ``key_fields``), ``scores`` ``(items,)``,
    ``ratings`` ``(items, raters)`` with NaN where a rater skipped an item, ``raters``;
    ``skipped`` lists ``"file:line: why"`` for every bad row; ``unmatched`` counts keys
    found in one file only.
    """

    key_fields: tuple[str, ...]
    keys: list
    scores: np.ndarray
    ratings: np.ndarray
    raters: list
    skipped: list = field(default_factory=list)
    unmatched: dict = field(default_factory=dict)
    score_field: str = "output.cie76_mean.iou"


def miou_field(rows: list[dict], source) -> str:
    """The dotted path of the mIoU in ``rows``: ``output.<formula>_mean.iou`` for the one
    colour difference they were scored with (a row without ``delta_e`` is CIE76)."""
    formulas = sorted({str(row.get("delta_e") or "cie76") for row in rows})
    if len(formulas) > 1:
        raise ValueError(f"{source} mixes rows scored with several colour differences "
                         f"({', '.join(formulas)}); pick one with --score-field, e.g. "
                         f"output.{formulas[0]}_mean.iou")
    return f"output.{formulas[0] if formulas else 'cie76'}_mean.iou"


def _object(row, where: str) -> None:
    if not isinstance(row, dict):
        raise ValueError(f"expected a JSON object, got {type(row).__name__}")


def _rows(path: Path, skipped: list) -> list[tuple[int, dict]]:
    """The objects of ``path`` under the ``skip`` policy (:mod:`paintkit.layout.readers`):
    each damaged line is added to ``skipped`` as ``file:line: why`` and left out."""
    read = read_jsonl(path, SKIP, _object, error=ValueError)
    skipped.extend(d.located(path) for d in read.damaged)
    return read.rows


class _BadKey(TypeError):
    """A key field (or the rater) holds a list or an object: the row cannot be matched."""


def _key(row: dict, key_fields: tuple[str, ...]) -> tuple:
    values = tuple(row[f] for f in key_fields)
    for name, value in zip(key_fields, values, strict=True):
        if isinstance(value, dict | list):
            raise _BadKey(f"key field {name!r} is a {type(value).__name__}, not a name or "
                          "number")
    return values


def _dotted(row: dict, path: str):
    value = row
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            raise KeyError(path)
        value = value[part]
    return value


def _number(value) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise TypeError(value)
    return float(value)


def load_matched(scores_path, judgments_path, *, score_field: str | None = DEFAULT_SCORE_FIELD,
                 rating_field: str = "rating", rater_field: str = "rater") -> MatchedRatings:
    """Read both files and keep the problems rated at least once that have a score.

    ``score_field``: dotted path of the score in each results row; None for the mIoU under
    the rows' colour difference (:func:`miou_field`).

    Raises ``ValueError`` when a file cannot be read, no key field is shared by every row,
    no problem is in both files, or (default ``score_field``) the rows mix colour differences.
    """
    skipped: list[str] = []
    score_rows = _rows(Path(scores_path), skipped)
    if score_field is None:
        score_field = miou_field([row for _, row in score_rows], scores_path)
    judgment_rows = _rows(Path(judgments_path), skipped)
    key_fields = tuple(f for f in KEY_FIELDS
                       if all(f in row for _, row in score_rows + judgment_rows))
    if not key_fields:
        raise ValueError(f"no key field ({', '.join(KEY_FIELDS)}) is present in every row of "
                         f"{scores_path} and {judgments_path}; add 'task' and 'idx' at least")

    scores: dict = {}
    for number, row in score_rows:
        try:
            key = _key(row, key_fields)
            value = _number(_dotted(row, score_field))
        except KeyError:
            skipped.append(f"{scores_path}:{number}: no field {score_field!r}")
            continue
        except _BadKey as exc:
            skipped.append(f"{scores_path}:{number}: {exc}")
            continue
        except TypeError as exc:
            skipped.append(f"{scores_path}:{number}: {score_field} is not a finite number: "
                           f"{exc.args[0]!r}")
            continue
        if key in scores:
            skipped.append(f"{scores_path}:{number}: repeated problem {key} (first kept)")
            continue
        scores[key] = value

    ratings: dict = {}
    raters: dict = {}
    for number, row in judgment_rows:
        try:
            key = _key(row, key_fields)
            rater = row.get(rater_field, DEFAULT_RATER)
            if isinstance(rater, dict | list):
                raise _BadKey(f"{rater_field} is a {type(rater).__name__}, not a name")
            rater = str(rater)
            value = _number(row[rating_field])
        except KeyError:
            skipped.append(f"{judgments_path}:{number}: no field {rating_field!r}")
            continue
        except _BadKey as exc:
            skipped.append(f"{judgments_path}:{number}: {exc}")
            continue
        except TypeError as exc:
            skipped.append(f"{judgments_path}:{number}: {rating_field} is not a finite number: "
                           f"{exc.args[0]!r}")
            continue
        if (key, rater) in ratings:
            skipped.append(f"{judgments_path}:{number}: rater {rater!r} rated {key} twice "
                           "(first kept)")
            continue
        ratings[(key, rater)] = value
        raters.setdefault(rater, None)

    judged = {key for key, _ in ratings}
    keys = [k for k in scores if k in judged]
    try:
        keys.sort()
    except TypeError:  # mixed value types in one key field: any fixed order will do
        keys.sort(key=repr)
    if not keys:
        why = ""
        if skipped:
            shown = "; ".join(skipped[:3]) + (f"; ... {len(skipped) - 3} more" if
                                               len(skipped) > 3 else "")
            why = f"; {len(skipped)} row(s) were skipped: {shown}"
        raise ValueError(f"no problem is both in {scores_path} and in {judgments_path} "
                         f"(key fields: {', '.join(key_fields)}){why}")
    rater_list = list(raters)
    matrix = np.full((len(keys), len(rater_list)), np.nan)
    for i, key in enumerate(keys):
        for j, rater in enumerate(rater_list):
            matrix[i, j] = ratings.get((key, rater), np.nan)
    return MatchedRatings(
        key_fields=key_fields, keys=keys, scores=np.array([scores[k] for k in keys]),
        ratings=matrix, raters=rater_list, skipped=skipped,
        unmatched={"scores_only": len(scores.keys() - judged),
                   "judgments_only": len(judged - scores.keys())},
        score_field=score_field)
