"""Object tags on the report's gallery cards: from ``paintkit explain``
(``explanations.jsonl``) or from the rows of ``paintkit eval --explain``.

Rows are keyed by ``(model, benchmark, task, idx)``; each card whose problem has a row gets a
short list through the :func:`~paintkit.report.gallery.gallery_card` hook's ``extras``: the
tag counts, then one line per object that is not ``correct`` (its figure: offset, ΔE,
share) and the spurious changes outside every object.
"""

from __future__ import annotations

import html
from pathlib import Path

from paintkit.io.jsonl import parse_json

EXPLANATIONS_NAME = "explanations.jsonl"
#: Objects listed one by one on a card before "... and N more".
SHOW_OBJECTS = 6


def find_explanations(input_path) -> Path | None:
    """``explanations.jsonl`` beside the results (``input_path`` is the results folder or
    its ``problem_stats.jsonl``), or None."""
    folder = Path(input_path)
    folder = folder if folder.is_dir() else folder.parent
    path = folder / EXPLANATIONS_NAME
    return path if path.is_file() else None


def load_explanations(path) -> dict[tuple, dict]:
    """``{(model, benchmark, task, idx): row}`` of an ``explanations.jsonl``.

    Raises:
        ValueError: the file is missing or a line is not a JSON object with the key fields.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path}: no such file; expected the explanations.jsonl written by "
                         "'paintkit explain'")
    rows = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = parse_json(line)
                key = (str(row["model"]), str(row["benchmark"]), str(row["task"]), int(row["idx"]))
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{path}:{n}: expected a JSON object with model, benchmark, "
                                 f"task and idx ({exc!r})") from exc
            rows[key] = row
    return rows


def explanations_in_results(input_path) -> dict[tuple, dict] | None:
    """``{(model, benchmark, task, idx): explanation}`` of the results rows that carry one
    (``paintkit eval --explain``; ``input_path`` is the results folder or its
    ``problem_stats.jsonl``), or None when none does. Unreadable lines are left to the
    results loader, which reports them."""
    from paintkit.report.data import _results_file

    path = _results_file(Path(input_path))
    if not path.is_file():
        return None
    found = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if '"explanation"' not in line:
                continue
            try:
                row = parse_json(line)
                key = (str(row["model"]), str(row["benchmark"]), str(row["task"]), int(row["idx"]))
                explanation = dict(row["explanation"])
            except (ValueError, KeyError, TypeError):
                continue
            found[key] = explanation
    return found or None


def _object_line(obj: dict) -> str:
    tag = str(obj.get("tag", "?"))
    detail = ""
    if tag == "misplaced" and obj.get("offset") is not None:
        dx, dy = obj["offset"]
        detail = f" by ({dx:+d}, {dy:+d}) px"
    elif tag == "wrong_colour" and obj.get("delta_e") is not None:
        detail = f", ΔE {float(obj['delta_e']):.1f}"
    elif tag in ("damaged", "missing") and obj.get("share") is not None:
        detail = f", {100 * float(obj['share']):.0f}% right"
    return f"{html.escape(str(obj.get('id', '?')))}: {html.escape(tag.replace('_', ' '))}{detail}"


def explanation_html(row: dict) -> str:
    """The card's block: tag counts, the objects that are not correct, spurious changes."""
    if "has_output" not in row:  # the problem's own files were broken
        return f'<div class="explain">explain: {html.escape(str(row.get("error", "no row")))}</div>'
    if not row["has_output"]:
        return '<div class="explain">objects: no output</div>'
    tags = row.get("tags") or {}
    head = ", ".join(f"{n} {html.escape(t.replace('_', ' '))}" for t, n in sorted(tags.items()))
    wrong = [o for o in row.get("objects") or [] if o.get("tag") != "correct"]
    items = [_object_line(o) for o in wrong[:SHOW_OBJECTS]]
    if len(wrong) > SHOW_OBJECTS:
        items.append(f"... and {len(wrong) - SHOW_OBJECTS} more")
    spurious = row.get("spurious") or {}
    if spurious.get("pixels"):
        items.append(f"spurious changes: {int(spurious.get('segments', 0))} segment(s), "
                     f"{int(spurious['pixels'])} px")
    body = "".join(f"<li>{item}</li>" for item in items)
    t = row.get("tolerance")
    return (f'<div class="explain"><b>objects</b> (t={html.escape(str(t))}): '
            f'{head or "none tagged"}{f"<ul>{body}</ul>" if body else ""}</div>')
