"""Object tags on the report's gallery cards: from ``paintkit explain``
(``explanations.jsonl``) or from the rows of ``paintkit eval --explain``.

Rows are keyed by ``(model, benchmark, task, idx)``; each card whose problem has a row gets a
short list through the :func:`~paintkit.report.gallery.gallery_card` hook's ``extras``: the
tag counts, then one line per object that is not ``correct`` (its figure: offset, ΔE,
share) and the spurious changes outside every object.
"""

from __future__ import annotations

from pathlib import Path

from paintkit.layout.readers import SKIP, STRICT, read_jsonl
from paintkit.layout.results import EXPLANATIONS_NAME, explanations_path, problem_stats_path
from paintkit.layout.rows import row_key
from paintkit.report.text import finite, h

__all__ = ["EXPLANATIONS_NAME", "SHOW_OBJECTS", "explanation_boxes", "explanation_html",
           "explanations_in_results", "find_explanations", "load_explanations"]

#: Objects listed one by one on a card before "... and N more".
SHOW_OBJECTS = 6


def find_explanations(input_path) -> Path | None:
    """``explanations.jsonl`` beside the results (``input_path`` is the results folder or
    its ``problem_stats.jsonl``), or None."""
    path = explanations_path(input_path)
    return path if path.is_file() else None


def _check_keyed(row, where: str) -> None:
    try:
        row_key(row)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where}: expected a JSON object with model, benchmark, task and "
                         f"idx ({exc!r})") from None


def load_explanations(path) -> dict[tuple, dict]:
    """``{(model, benchmark, task, idx): row}`` of an ``explanations.jsonl``, read under the
    ``strict`` policy (:mod:`paintkit.layout.readers`): the user named this file.

    Raises:
        ValueError: the file is missing, or a line is not a JSON object with the key
            fields (naming ``file:line``).
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file; expected the explanations.jsonl written by "
                         "'paintkit explain'")
    read = read_jsonl(path, STRICT, _check_keyed, error=ValueError)
    return {row_key(row): row for _, row in read.rows}


def _check_explained(row, where: str) -> None:
    if not isinstance(row, dict) or "explanation" not in row:
        raise ValueError("no explanation")
    try:
        row_key(row)
        dict(row["explanation"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a keyed explanation ({exc!r})") from None


def explanations_in_results(input_path) -> dict[tuple, dict] | None:
    """``{(model, benchmark, task, idx): explanation}`` of the results rows that carry one
    (``paintkit eval --explain``; ``input_path`` is the results folder or its
    ``problem_stats.jsonl``), or None when none does. Read under the ``skip`` policy: the
    rows are read strictly by the stats loader, which names a damaged line."""
    path = problem_stats_path(input_path)
    if not path.is_file():
        return None
    try:
        read = read_jsonl(path, SKIP, _check_explained)
    except ValueError:
        return None
    found = {row_key(row): dict(row["explanation"]) for _, row in read.rows}
    return found or None


def _int(value) -> int | None:
    x = finite(value)
    return None if x is None or x != int(x) else int(x)


def _object_line(obj: dict) -> str:
    """One object that is not correct; a field that is not a number is left out."""
    tag = str(obj.get("tag", "?"))
    detail = ""
    offset = obj.get("offset")
    if tag == "misplaced" and isinstance(offset, (list, tuple)) and len(offset) == 2:
        dx, dy = (_int(v) for v in offset)
        if dx is not None and dy is not None:
            detail = f" by ({dx:+d}, {dy:+d}) px"
    elif tag == "wrong_colour" and finite(obj.get("delta_e")) is not None:
        detail = f", ΔE {finite(obj['delta_e']):.1f}"
    elif tag in ("damaged", "missing") and finite(obj.get("share")) is not None:
        detail = f", {100 * finite(obj['share']):.0f}% right"
    return f"{h(obj.get('id', '?'))}: {h(tag.replace('_', ' '))}{detail}"


def explanation_html(row: dict) -> str:
    """The card's block: tag counts, the objects that are not correct, spurious changes and
    notes. Every string from the row is escaped (the file may come from anywhere)."""
    if "has_output" not in row:  # the problem's own files were broken
        return f'<div class="explain">explain: {h(row.get("error", "no row"))}</div>'
    if not row["has_output"]:
        return '<div class="explain">objects: no output</div>'
    tags = row.get("tags") if isinstance(row.get("tags"), dict) else {}
    head = ", ".join(f"{h(n)} {h(str(t).replace('_', ' '))}" for t, n in sorted(tags.items()))
    objects = row.get("objects") if isinstance(row.get("objects"), list) else []
    wrong = [o for o in objects if isinstance(o, dict) and o.get("tag") != "correct"]
    items = [_object_line(o) for o in wrong[:SHOW_OBJECTS]]
    if len(wrong) > SHOW_OBJECTS:
        items.append(f"... and {len(wrong) - SHOW_OBJECTS} more")
    spurious = row.get("spurious") if isinstance(row.get("spurious"), dict) else {}
    pixels, segments = _int(spurious.get("pixels")), _int(spurious.get("segments"))
    if pixels:
        items.append(f"spurious changes: {segments if segments is not None else '?'} "
                     f"segment(s), {pixels} px")
    notes = row.get("notes") if isinstance(row.get("notes"), list) else []
    items += [f"note: {h(n)}" for n in notes[:SHOW_OBJECTS]]
    body = "".join(f"<li>{item}</li>" for item in items)
    t = row.get("tolerance")
    return (f'<div class="explain"><b>objects</b> (t={h(t)}): '
            f'{head or "none tagged"}{f"<ul>{body}</ul>" if body else ""}</div>')


def explanation_boxes(row: dict) -> list[tuple[str, list[int]]]:
    """``(id, [left, top, width, height])`` of the objects the card lists (those not
    ``correct``, at most :data:`SHOW_OBJECTS`), for outlining on the images; boxes that are
    not four numbers are left out."""
    objects = row.get("objects") if isinstance(row.get("objects"), list) else []
    wrong = [o for o in objects if isinstance(o, dict) and o.get("tag") != "correct"]
    boxes = []
    for obj in wrong[:SHOW_OBJECTS]:
        box = obj.get("bbox")
        if isinstance(box, (list, tuple)) and len(box) == 4:
            nums = [_int(v) for v in box]
            if all(v is not None for v in nums) and nums[2] > 0 and nums[3] > 0:
                boxes.append((str(obj.get("id", "?")), nums))
    return boxes
