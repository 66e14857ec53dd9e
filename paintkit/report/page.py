"""Assemble the report page: leaderboard, hierarchy and condition tables with selectors,
inline SVG plots and the gallery. One HTML file, written atomically."""

from __future__ import annotations

import datetime
from pathlib import Path

import numpy as np

from paintkit._version import __version__
from paintkit.code_outputs import output_file
from paintkit.io.atomic import write_text_atomic
from paintkit.layout.benchmark import read_metadata
from paintkit.loader import load
from paintkit.report import plots
from paintkit.report.comparisons import comparisons_html
from paintkit.report.data import METRICS, ReportData, load_report_data, table_payload
from paintkit.report.diagnostics import diagnostics_html
from paintkit.report.explanations import (
    explanation_boxes,
    explanation_html,
    explanations_in_results,
    find_explanations,
    load_explanations,
)
from paintkit.report.gallery import gallery_card, pick_examples
from paintkit.report.state_diffs import state_diff_html, state_diffs_in_results
from paintkit.report.template import CSS, SCRIPT
from paintkit.report.text import h, script_json
from paintkit.stats.failure_modes import FAILURE_MODES, failure_mode_codes
from paintkit.subsets import describe_scope


def plural(n: int, word: str) -> str:
    """``1 model``, ``2 models``."""
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def _controls() -> str:
    tol = "".join(f'<option value="{t}">t = {t}</option>' for t in range(11))
    met = "".join(f'<option value="{k}">{v}</option>' for k, v in METRICS.items())
    return ('<div class="controls" id="controls"><label>tolerance <select id="tolerance">'
            f'<option value="mean" selected>mean over t = 0..10</option>{tol}</select></label>'
            f'<label>metric <select id="metric">{met}</select></label>'
            '<span class="ci">values in %, 95% bootstrap CI in brackets; – = not defined '
            '(empty denominator or no rows); click a column header to sort, a category or '
            'task to expand</span></div>')


def _namespace_note(bench: str, namespaces: dict | None) -> str:
    if not namespaces or bench not in namespaces:
        return ""
    found = namespaces[bench]
    own = bench.lower()
    if not found:  # a tree from another tool records no namespace: nothing to say
        return ""
    if found == {own}:
        return f'<p class="ok">{h(bench)}: problems of the benchmark\'s own seeds (namespace {h(own)}).</p>'
    names = ", ".join(sorted(found))
    return (f'<p class="warn">{h(bench)}: these problems come from seed namespace '
            f'{h(names)}, not the benchmark\'s ({h(own)}): the figures are not {h(bench)} '
            "scores.</p>")


def provenance_html(data: ReportData, command: str | None, input_path) -> str:
    """The reproducibility block: versions, metric, bootstrap, date, command, input."""
    prov = data.provenance
    formula = data.tables[0].delta_e.upper() if data.tables else "CIE76"
    if prov.get("n_boot"):
        boot = f"B = {prov['n_boot']:,}, seed {prov.get('seed')}"
    else:
        boot = "B and seed not recorded"
    where = (f"read from {prov['aggregate_file']}" if prov.get("aggregate_file")
             else "computed by this report")
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    items = [("paintkit", __version__),
             ("metric", "mIoU = mean over CIE76 tolerances t = 0..10 of the IoU at t; benchmark "
              "score = mean of the categories' scores, each the mean of its tasks (paintkit "
              f"{__version__}'s metric definition)"),
             ("metric version", str(prov.get("metric_version") or "unknown")),
             ("ΔE formula", formula),
             ("bootstrap", f"95% percentile CI over problems, {boot} ({where})"),
             ("date", date),
             *([("aggregate written by", f"{prov['command']} ({prov.get('date', '?')})")]
               if prov.get("aggregate_file") and prov.get("command") else []),
             ("input", str(input_path)),
             ("command", command or "paintkit report (API call)")]
    rows = "".join(f"<tr><th>{h(k)}</th><td>{h(v)}</td></tr>" for k, v in items)
    version = prov.get("metric_version")
    summary = (f"Provenance: paintkit {__version__} · metric version {version or '?'} · "
               f"ΔE {formula} · bootstrap {boot} · {date}")
    return (f'<details id="provenance"><summary>{h(summary)}</summary><table>{rows}</table>'
            "</details>")


def gallery_html(data: ReportData, benchmarks_root, outputs_root, per_model: int,
                 thumb: int, explanations: dict | None = None,
                 state_diffs: dict | None = None) -> str:
    problems = {(p.benchmark, p.task, p.idx): p for p in load(benchmarks_root, kind="benchmark").problems}
    roots = [Path(r) for r in ([outputs_root] if isinstance(outputs_root, (str, Path))
                               else outputs_root or [])]

    def model_root(model: str) -> Path | None:  # the first outputs root with the model's folder
        return next((r for r in roots if (r / model).is_dir()), roots[0] if roots else None)

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
                    root = model_root(tab.model)
                    out = output_file(problem.output_path(root, tab.model))[0] if root else None
                    card = gallery_card(problem, tab.model, out if out and out.exists() else None,
                                        tab.values[pos], FAILURE_MODES[codes[k]], thumb)
                    key = (tab.model, bench, task, int(tab.idx[pos]))
                    diff = (state_diffs or {}).get(key)
                    if diff is not None:  # a chart-state output: what its data got wrong
                        card.extras.append(state_diff_html(diff))
                    why = (explanations or {}).get(key)
                    if why is not None:  # object tags of 'paintkit explain'
                        card.extras.append(explanation_html(why))
                        card.boxes = explanation_boxes(why)
                    cards.append(card.html())
            if cards:
                first = " open" if not sections else ""  # the first opens: examples show
                sections.append(f"<details{first}><summary>{h(bench)} / {h(task)} "
                                f"({len(cards)} examples)</summary>{''.join(cards)}</details>")
    legend = ('<div class="legend">diff colours: <span style="background:#008000">changed, correct'
              '</span><span style="background:#0000ff">unchanged, correct</span><span '
              'style="background:#ff0000">changed, wrong</span><span style="background:#ffa500">'
              'unchanged, wrong</span> ("changed" = in the edit region); click an image to '
              "enlarge</div>")
    options = "".join(f'<option value="{h(m)}">{h(m)}</option>' for m in data.models)
    tools = ('<div class="gallery-tools"><label>model <select id="gallery-model">'
             f'<option value="">all models</option>{options}</select></label> '
             '<button type="button" id="gallery-expand">expand all</button></div>')
    overlay = ('<div id="overlay" hidden><figure><img alt=""><figcaption></figcaption>'
               "</figure></div>")
    return f'<div id="gallery">{legend}{tools}{"".join(sections)}</div>{overlay}'


def _baselines_note(models: list[str]) -> str:
    """Why the blank baseline scores above identity and noise, when the page shows them."""
    if "blank" not in models or not {"identity", "noise"} & set(models):
        return ""
    return ('<p class="ci" id="baseline-note">Why <b>blank</b> scores above identity and '
            "noise: blank paints every pixel the background colour, so wherever the answer is "
            "background (a removed shape, a cleared or cropped region) its edit pixels are "
            "right; identity changes no pixel, so its edit pixels are right only where the "
            "edit is within the tolerance, and noise is right by chance only. A model should "
            "beat all three.</p>")


def render_page(data: ReportData, gallery: str = "", *, command: str | None = None,
                input_path="", namespaces: dict | None = None, comparisons: str = "") -> str:
    """The whole page as text (user strings escaped, see :mod:`paintkit.report.text`)."""
    payload = script_json(table_payload(data))
    n_models = len(data.models)
    parts = ["<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
             "<meta name=viewport content='width=device-width,initial-scale=1'>"
             f"<title>paintkit report</title><style>{CSS}</style></head><body>",
             "<h1>paintkit report</h1>",
             f"<p>{plural(n_models, 'model')} · benchmarks: {h(', '.join(data.benchmarks))}"
             " · score = mIoU (mean IoU over CIE76 tolerances 0..10), macro-averaged over "
             "categories</p>"]
    parts += [_namespace_note(b, namespaces) for b in data.benchmarks]
    if data.provenance.get("subset"):

        parts.append(f'<p class="note" id="subset"><b>Scores of a '
                     f'{h(describe_scope(data.provenance["subset"]))}</b>, not of the whole '
                     "benchmark.</p>")
    parts += [provenance_html(data, command, input_path), _controls(),
              '<h2>Leaderboard</h2><div id="leaderboard">']
    for bench in data.benchmarks:
        parts.append(f'<h3>{h(bench)}</h3><table id="board-{h(bench)}" class="board"></table>')
    parts.append(_baselines_note(data.models))
    parts.append("</div>")
    if comparisons:
        parts.append(comparisons)
    for bench in data.benchmarks:
        parts.append(f"<h2>{h(bench)}: categories, tasks, modes</h2>"
                     f'<table id="hier-{h(bench)}" class="hier"></table>')
        if any(r["level"] == "visual_condition" and r["benchmark"] == bench for r in data.aggregate):
            parts.append(f"<h3>Visual conditions</h3><table id=\"cond-{h(bench)}\" "
                         "class=\"conds\"></table>")
        svgs = [plots.iou_vs_tolerance(data.aggregate, bench, data.models),
                plots.condition_bars(data.aggregate, bench, data.models),
                plots.miou_vs_edit_size(data.diagnostics, bench, data.models, data.tables),
                plots.failure_mode_shares(data.diagnostics, bench, data.models)]
        figures = "".join(plots.figure_html(s, f"{bench}-{k}") for k, s in enumerate(svgs) if s)
        parts.append(f"<h3>Plots</h3><div class=\"plots\">{figures}</div>")
        parts.append(diagnostics_html(data.diagnostics, bench, data.models))
    if gallery:
        parts.append(f"<h2>Gallery</h2>{gallery}")
    parts.append(f'<script type="application/json" id="report-data">{payload}</script>'
                 f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts)


def benchmark_namespaces(benchmarks_root) -> dict[str, set[str]]:
    """``{benchmark: seed namespaces}`` read from one problem's metadata per task (problems
    of trees from other tools record none: an empty set)."""
    found: dict[str, set[str]] = {}
    seen = set()
    for p in load(benchmarks_root, kind="benchmark").problems:
        found.setdefault(p.benchmark, set())
        if (p.benchmark, p.task) in seen:
            continue
        seen.add((p.benchmark, p.task))
        try:
            namespace = read_metadata(p).get("namespace")
        except (OSError, ValueError):
            continue
        if isinstance(namespace, str):
            found[p.benchmark].add(namespace)
    return found


def build_report(input_path, output_path, *, benchmarks_root=None, outputs_root=None,
                 n_boot: int = 10_000, seed: int = 0, gallery_per_model: int = 2,
                 thumb: int = 160, explanations=None, command: str | None = None,
                 subset=None) -> int:
    """Write the report of ``input_path`` to ``output_path``; returns its size in bytes.

    The gallery needs ``benchmarks_root`` (and ``outputs_root`` for output/diff images).
    ``explanations``: an ``explanations.jsonl`` of ``paintkit explain`` whose object tags go
    on the gallery cards (default: the one in the results folder, else the explanations in
    the results rows of ``paintkit eval --explain``, if any). ``command``: the command line
    shown in the provenance block. ``subset``: only the rows of this ``subset.json``'s
    problems (the page says so).
    """
    if outputs_root is not None and benchmarks_root is None:
        raise ValueError("--outputs needs --benchmarks too: the gallery shows each output "
                         "beside the problem's input and answer")
    data = load_report_data(input_path, n_boot=n_boot, seed=seed, subset=subset)
    gallery = ""
    namespaces = None
    if benchmarks_root is not None:
        namespaces = benchmark_namespaces(benchmarks_root)
    if benchmarks_root is not None and gallery_per_model > 0:
        found = explanations if explanations is not None else find_explanations(input_path)
        why = load_explanations(found) if found is not None else \
            explanations_in_results(input_path)
        gallery = gallery_html(data, benchmarks_root, outputs_root, gallery_per_model, thumb,
                               why, state_diffs_in_results(input_path))
    text = render_page(data, gallery, command=command, input_path=input_path,
                       namespaces=namespaces,
                       comparisons=comparisons_html(data, n_boot=n_boot, seed=seed))
    write_text_atomic(output_path, text)
    return len(text.encode("utf-8"))
