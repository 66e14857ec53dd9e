"""The report's diagnostics tables (the rows of ``paintkit stats --diagnostics``): pass
rates, condition deltas against ``baseline`` with their paired CIs, and the over-edit ratio
per edit-region size."""

from __future__ import annotations

from paintkit.report.text import finite, h
from paintkit.stats.table import PRESERVATION_TASK

#: The tolerance the pass rates are read at (the median tolerance, as the over-edit ratio).
PASS_TOLERANCE = 5


def _pct(x) -> str:
    x = finite(x)
    return "–" if x is None else f"{100 * x:.1f}"


def _pp(x) -> str:
    x = finite(x)
    return "–" if x is None else f"{round(100 * x, 1) + 0.0:+.1f}"  # + 0.0: no "-0.0"


def _table(kind: str, benchmark: str, head: str, body: list[str]) -> str:
    """A diagnostics table ``<kind>-<benchmark>``: a model column, then ``head``'s cells."""
    return (f'<table class="diag" id="{kind}-{h(benchmark)}"><thead><tr><th>model</th>{head}'
            f"</tr></thead><tbody>{''.join(body)}</tbody></table>")


def pass_rate_table(rows: list[dict], benchmark: str, models: list[str]) -> str:
    mine = [r for r in rows if r["kind"] == "pass_rate" and r["benchmark"] == benchmark
            and r["task"] != PRESERVATION_TASK]
    if not mine:
        return ""
    block = f"cie76_{PASS_TOLERANCE}"
    thresholds = list(mine[0]["pass_rates"][block])
    body = []
    for model in models:
        tasks = [r for r in mine if r["model"] == model]
        if not tasks:
            continue
        cells = "".join(
            f"<td>{_pct(sum(r['pass_rates'][block][k] for r in tasks) / len(tasks))}</td>"
            for k in thresholds)
        body.append(f"<tr><td>{h(model)}</td>{cells}</tr>")
    head = "".join(f"<th>IoU ≥ {h(k)}</th>" for k in thresholds)
    return (f"<h4>Pass rates</h4><p class=\"ci\">Share of problems (%) whose IoU at t = "
            f"{PASS_TOLERANCE} reaches each threshold, mean over tasks.</p>"
            + _table("pass", benchmark, head, body))


def condition_delta_table(rows: list[dict], benchmark: str, models: list[str]) -> str:
    mine = [r for r in rows if r["kind"] == "condition_delta" and r["benchmark"] == benchmark]
    if not mine:
        return ""
    conds = list(dict.fromkeys(r["visual_condition"] for r in mine))
    by = {(r["model"], r["visual_condition"]): r for r in mine}
    body = []
    for model in models:
        if not any(m == model for m, _ in by):
            continue
        cells = []
        for c in conds:
            r = by.get((model, c))
            if r is None:
                cells.append("<td>–</td>")
                continue
            low, high = finite(r.get("ci95_delta_iou_low")), finite(r.get("ci95_delta_iou_high"))
            ci = f' <span class="ci">[{_pp(low)}, {_pp(high)}]</span>' if low is not None else ""
            worse = ' class="warn"' if high is not None and high < 0 else ""
            cells.append(f"<td{worse}>{_pp(r.get('delta_iou'))}{ci}</td>")
        body.append(f"<tr><td>{h(model)}</td>{''.join(cells)}</tr>")
    head = "".join(f"<th>{h(c)}</th>" for c in conds)
    return ("<h4>Visual conditions against baseline</h4><p class=\"ci\">mIoU difference "
            "(percentage points) from the baseline condition, with the paired 95% CI "
            "(problems paired by slot); highlighted where the whole CI is below 0.</p>"
            + _table("delta", benchmark, head, body))


def over_edit_table(rows: list[dict], benchmark: str, models: list[str]) -> str:
    mine = [r for r in rows if r["kind"] == "edit_size_bucket" and r["benchmark"] == benchmark]
    if not mine:
        return ""
    buckets = sorted({(r["bucket"], r["edit_pixels_low"], r["edit_pixels_high"]) for r in mine})
    by = {(r["model"], r["bucket"]): r for r in mine}
    body = []
    for model in models:
        if not any(m == model for m, _ in by):
            continue
        cells = []
        for b, _, _ in buckets:
            x = finite((by.get((model, b)) or {}).get("median_over_edit_ratio"))
            cells.append(f"<td>{'–' if x is None else f'{x:.2f}'}</td>")
        body.append(f"<tr><td>{h(model)}</td>{''.join(cells)}</tr>")
    head = "".join(f"<th>{lo:.0f}–{hi:.0f} px</th>" for _, lo, hi in buckets)
    return ("<h4>Over-edit ratio</h4><p class=\"ci\">Median of changed pixels at t = 5 over "
            "the edit-region size, per edit-region size quarter (1 = changed exactly as much "
            "as asked; above 1 = changed more).</p>"
            + _table("overedit", benchmark, head, body))


def diagnostics_html(rows: list[dict], benchmark: str, models: list[str]) -> str:
    """The three tables of ``benchmark`` (those with rows), under one heading; or ""."""
    parts = [pass_rate_table(rows, benchmark, models),
             condition_delta_table(rows, benchmark, models),
             over_edit_table(rows, benchmark, models)]
    body = "".join(p for p in parts if p)
    return f"<h3>Diagnostics</h3>{body}" if body else ""
