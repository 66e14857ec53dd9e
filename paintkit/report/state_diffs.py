"""What a chart-state output got wrong in its data, on the report's gallery cards.

A model that answers a TinyGrafixBench problem with an edited chart state
(``NNNN_output.json``) gets, in its results row, ``"state_diff"``: the fields of its state
that differ from the answer state, counted by kind (data values, colours, labels, order;
:func:`paintkit.tinygrafix.state_output.state_difference`). The card of such an output shows
those counts and the first fields, beside the pixels, so a reader sees whether a low score
is wrong data or a wrong style.
"""

from __future__ import annotations

from paintkit.layout.readers import SKIP, read_jsonl
from paintkit.layout.results import problem_stats_path
from paintkit.layout.rows import row_key
from paintkit.report.text import h

__all__ = ["SHOW_FIELDS", "state_diff_html", "state_diffs_in_results"]

#: Fields named on a card; the rest are counted.
SHOW_FIELDS = 5
_KINDS = ("values", "colors", "labels", "order")


def _check_state_diff(row: object, where: str) -> None:
    if not isinstance(row, dict) or not isinstance(row.get("state_diff"), dict):
        raise ValueError("no state_diff")
    row_key(row)


def state_diffs_in_results(input_path) -> dict[tuple, dict] | None:
    """``{(model, benchmark, task, idx): state_diff}`` of the results rows that carry one
    (``input_path`` is the results folder or its ``problem_stats.jsonl``), or None."""
    path = problem_stats_path(input_path)
    if not path.is_file():
        return None
    try:
        read = read_jsonl(path, SKIP, _check_state_diff)
    except ValueError:
        return None
    found = {row_key(row): dict(row["state_diff"]) for _, row in read.rows}
    return found or None


def _count(diff: dict, key: str) -> int:
    value = diff.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def state_diff_html(diff: dict) -> str:
    """The card's block: exact, or the counts by kind and the first fields that differ.
    Every string from the row is escaped (the file may come from anywhere)."""
    if diff.get("exact") is True:
        return '<div class="explain"><b>chart state</b>: equal to the answer state</div>'
    counts = ", ".join(f"{_count(diff, k)} {k}" for k in _KINDS if _count(diff, k))
    fields = diff.get("fields") if isinstance(diff.get("fields"), list) else []
    items = "".join(f"<li>{h(str(f))}</li>" for f in fields[:SHOW_FIELDS])
    more = _count(diff, "fields_differ") - min(len(fields), SHOW_FIELDS)
    if more > 0:
        items += f"<li>... and {more} more</li>"
    return (f'<div class="explain"><b>chart state</b>: {_count(diff, "fields_differ")} '
            f'field(s) differ from the answer state ({counts or "none counted"})'
            f'{f"<ul>{items}</ul>" if items else ""}</div>')
