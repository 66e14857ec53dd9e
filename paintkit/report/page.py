"""Assemble the report page: leaderboard, hierarchy and condition tables with selectors,
inline SVG plots and the gallery. One HTML file, written atomically."""

from __future__ import annotations

import html
import json
from pathlib import Path

import numpy as np

from paintkit.io.atomic import write_text_atomic
from paintkit.report import plots
from paintkit.report.data import METRICS, ReportData, leaderboard, load_report_data, table_payload
from paintkit.report.template import CSS, SCRIPT
from paintkit.stats.failure_modes import FAILURE_MODES, failure_mode_codes


def _pct(x) -> str:
    return "" if x is None else f"{100 * x:.1f}"


def leaderboard_html(data: ReportData) -> str:
    benches = data.benchmarks
    head = "".join(f"<th>{html.escape(b)} mIoU [95% CI]</th>" for b in benches)
    body = []
    for rank, entry in enumerate(leaderboard(data), 1):
        cells = []
        for b in benches:
            s = entry["scores"].get(b)
            if s is None:
                cells.append("<td>–</td>")
            else:
                ci = f' <span class="ci">[{_pct(s[1])}, {_pct(s[2])}]</span>' if s[1] is not None else ""
                cells.append(f"<td>{_pct(s[0])}{ci}</td>")
        body.append(f"<tr><td>{rank}. {html.escape(entry['model'])}</td>{''.join(cells)}</tr>")
    return (f'<table id="leaderboard"><thead><tr><th>model</th>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def _controls() -> str:
    tol = "".join(f'<option value="{t}">t = {t}</option>' for t in range(11))
    met = "".join(f'<option value="{k}">{v}</option>' for k, v in METRICS.items())
    return ('<div class="controls"><label>tolerance <select id="tolerance">'
            f'<option value="mean" selected>mean over t</option>{tol}</select></label>'
            f'<label>metric <select id="metric">{met}</select></label>'
            '<span class="ci">values in %, 95% bootstrap CI in brackets; click a category or '
            'task to expand</span></div>')


def gallery_html(data: ReportData, benchmarks_root, outputs_root, per_model: int,
                 thumb: int, explanations: dict | None = None) -> str:
    from paintkit.evaluate.discovery import discover_problems
    from paintkit.report.explanations import explanation_html
    from paintkit.report.gallery import gallery_card, pick_examples

    problems = {(p.benchmark, p.task, p.idx): p for p in discover_problems(benchmarks_root)}
    sections = []
    for bench in data.benchmarks:
        tasks = list(dict.fromkeys(t for tab in data.tables if tab.benchmark == bench
                                   for t in tab.tasks()))
        for task in tasks:
            cards = []
            for tab in data.tables:
                if tab.benchmark != bench:
                    continue
                sel = np.flatnonzero(tab.task == task)
                codes = failure_mode_codes(tab.values[sel, :11, 0], tab.values[sel, :11, 1])
                for k in pick_examples(codes, tab.idx[sel], per_model):
                    pos = sel[k]
                    problem = problems.get((bench, task, int(tab.idx[pos])))
                    if problem is None:
                        continue
                    out = problem.output_path(Path(outputs_root), tab.model) if outputs_root else None
                    card = gallery_card(problem, tab.model, out if out and out.exists() else None,
                                        tab.values[pos], FAILURE_MODES[codes[k]], thumb)
                    why = (explanations or {}).get((tab.model, bench, task, int(tab.idx[pos])))
                    if why is not None:  # object tags of 'paintkit explain'
                        card.extras.append(explanation_html(why))
                    cards.append(card.html())
            if cards:
                sections.append(f"<details><summary>{html.escape(bench)} / {html.escape(task)} "
                                f"({len(cards)} examples)</summary>{''.join(cards)}</details>")
    legend = ('<div class="legend">diff colours: <span style="background:#008000">changed, correct'
              '</span><span style="background:#0000ff">unchanged, correct</span><span '
              'style="background:#ff0000">changed, wrong</span><span style="background:#ffa500">'
              'unchanged, wrong</span> ("changed" = in the edit region)</div>')
    return legend + "".join(sections)


def render_page(data: ReportData, gallery: str = "") -> str:
    payload = json.dumps(table_payload(data), separators=(",", ":")).replace("</", "<\\/")
    parts = [f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
             f"<meta name=viewport content='width=device-width,initial-scale=1'>"
             f"<title>paintkit report</title><style>{CSS}</style></head><body>",
             "<h1>paintkit report</h1>",
             f"<p>{len(data.models)} models · benchmarks: {html.escape(', '.join(data.benchmarks))}"
             " · score = mIoU (mean IoU over CIE76 tolerances 0..10), macro-averaged over "
             "categories</p>",
             "<h2>Leaderboard</h2>", leaderboard_html(data), _controls()]
    for bench in data.benchmarks:
        parts.append(f"<h2>{html.escape(bench)}: categories, tasks, modes</h2>"
                     f'<table id="hier-{html.escape(bench)}" class="hier"></table>')
        if any(r["level"] == "visual_condition" and r["benchmark"] == bench for r in data.aggregate):
            parts.append(f"<h3>Visual conditions</h3><table id=\"cond-{html.escape(bench)}\" "
                         "class=\"conds\"></table>")
        svgs = [plots.iou_vs_tolerance(data.aggregate, bench),
                plots.condition_bars(data.aggregate, bench),
                plots.miou_vs_edit_size(data.diagnostics, bench),
                plots.failure_mode_shares(data.diagnostics, bench)]
        parts.append(f"<h3>Plots</h3><div class=\"plots\">{''.join(s for s in svgs if s)}</div>")
    if gallery:
        parts.append(f"<h2>Gallery</h2>{gallery}")
    parts.append(f'<script type="application/json" id="report-data">{payload}</script>'
                 f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts)


def build_report(input_path, output_path, *, benchmarks_root=None, outputs_root=None,
                 n_boot: int = 10_000, seed: int = 0, gallery_per_model: int = 2,
                 thumb: int = 160, explanations=None) -> int:
    """Write the report of ``input_path`` to ``output_path``; returns its size in bytes.

    The gallery needs ``benchmarks_root`` (and ``outputs_root`` for output/diff images).
    ``explanations``: an ``explanations.jsonl`` of ``paintkit explain`` whose object tags go
    on the gallery cards (default: the one in the results folder, else the explanations in
    the results rows of ``paintkit eval --explain``, if any).
    """
    from paintkit.report.explanations import (
        explanations_in_results,
        find_explanations,
        load_explanations,
    )

    data = load_report_data(input_path, n_boot=n_boot, seed=seed)
    gallery = ""
    if benchmarks_root is not None and gallery_per_model > 0:
        found = explanations if explanations is not None else find_explanations(input_path)
        why = load_explanations(found) if found is not None else \
            explanations_in_results(input_path)
        gallery = gallery_html(data, benchmarks_root, outputs_root, gallery_per_model, thumb,
                               why)
    text = render_page(data, gallery)
    write_text_atomic(output_path, text)
    return len(text.encode("utf-8"))
