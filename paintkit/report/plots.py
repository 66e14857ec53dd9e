"""The report's plots as inline SVG strings (matplotlib, Agg; no files, no fonts to fetch).

Each function takes aggregate / diagnostics rows and the page's model list (one colour per
model on every plot, from a colour-blind-safe palette) and returns ``<svg ...>...</svg>``
text, or "" when there is nothing to draw. Text stays text in the SVG (selectable, small);
every user string goes through :func:`paintkit.report.text.plot_text`.
"""

from __future__ import annotations

import base64
import io

import numpy as np

from paintkit.report.text import h, plot_text
from paintkit.stats.failure_modes import FAILURE_MODES
from paintkit.stats.table import PRESERVATION_TASK

#: Okabe & Ito's colour-blind-safe palette, then Paul Tol's "muted" for more models.
MODEL_COLORS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
                "#000000", "#332288", "#88CCEE", "#117733", "#999933", "#AA4499", "#882255"]
#: Failure modes: greys and a sequential blue scale, distinct from the model colours' use.
MODE_COLORS = {"structural_catastrophe": "#3b3b3b", "execution_omission": "#8c8c8c",
               "color_imprecision": "#e08a2c", "structural_imprecision": "#2171b5",
               "none": "#e6e6e6"}
#: How a failure mode is named on the page: "none" is no failure pattern (a solved problem,
#: or a failed one whose curves fit no pattern), never a mode of its own.
MODE_LABELS = {"none": "solved or unclassified"}


def mode_label(mode: str) -> str:
    """``execution_omission`` -> ``execution omission``; ``none`` -> ``solved or unclassified``."""
    return MODE_LABELS.get(mode, mode.replace("_", " "))


#: Line styles and markers, so series that coincide stay visible (drawn in turn, offset).
_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def model_color(models: list[str], model: str) -> str:
    return MODEL_COLORS[models.index(model) % len(MODEL_COLORS)] if model in models else "#777777"


def _pyplot():
    import matplotlib  # heavy (about 0.5 s): only when a plot is drawn

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _svg(fig, salt: str) -> str:
    import matplotlib  # heavy (about 0.5 s): only when a plot is drawn

    plt = _pyplot()
    buf = io.StringIO()
    # A per-plot salt keeps element ids unique across the page's inline SVGs, and fixed
    # metadata keeps the bytes reproducible. fonttype "none": text stays <text>.
    with matplotlib.rc_context({"svg.hashsalt": salt, "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def figure_html(svg: str, name: str) -> str:
    """A plot with download links: the SVG itself, and a PNG the page draws from it on click."""
    uri = "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")
    slug = "".join(c if c.isalnum() else "_" for c in name)
    return (f'<figure class="plot">{svg}<figcaption><a download="{h(slug)}.svg" '
            f'href="{uri}">SVG</a> · <a href="#" class="png" data-name="{h(slug)}">PNG'
            "</a></figcaption></figure>")


def _dodge(k: int, n: int, width: float) -> float:
    """Horizontal offset of series ``k`` of ``n``: equal values side by side, none hidden."""
    return (k - (n - 1) / 2) * width / max(1, n)


def _legend_outside(ax) -> None:
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0,
              frameon=False)


def iou_vs_tolerance(aggregate: list[dict], benchmark: str, models: list[str]) -> str:
    """Benchmark-level IoU at each tolerance t, one line per model, CI band shaded."""
    rows = [r for r in aggregate if r["level"] == "benchmark" and r["benchmark"] == benchmark]
    if not rows:
        return ""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5.0, 3.0))
    ts = list(range(11))
    for k, r in enumerate(rows):
        color = model_color(models, r["model"])
        mean = [100 * r[f"cie76_{t}"]["mean_iou"] for t in ts]
        # Coinciding lines (e.g. two baselines at 0) stay visible: markers differ, later
        # lines are thinner and drawn on top.
        xs = [t + _dodge(k, len(rows), 0.5) for t in ts]
        ax.plot(xs, mean, marker=_MARKERS[k % len(_MARKERS)], ms=4, lw=max(0.8, 2.4 - 0.4 * k),
                color=color, label=plot_text(r["model"]), clip_on=False, zorder=3 + k)
        if "ci95_iou_low" in r["cie76_0"]:
            ax.fill_between(xs, [100 * r[f"cie76_{t}"]["ci95_iou_low"] for t in ts],
                            [100 * r[f"cie76_{t}"]["ci95_iou_high"] for t in ts], color=color,
                            alpha=0.15)
    ax.set(xlabel="colour tolerance t (CIE76 ΔE)", ylabel="IoU at tolerance t (%)",
           title=plot_text(f"{benchmark}: IoU against colour tolerance"), xticks=ts,
           ylim=(-2, 102))
    _legend_outside(ax)
    return _svg(fig, f"iou-{benchmark}")


def condition_bars(aggregate: list[dict], benchmark: str, models: list[str]) -> str:
    """mIoU per visual condition, grouped bars per model with CI whiskers."""
    rows = [r for r in aggregate if r["level"] == "visual_condition" and r["benchmark"] == benchmark]
    if not rows:
        return ""
    plt = _pyplot()
    conds = list(dict.fromkeys(r["visual_condition"] for r in rows))
    present = [m for m in models if any(r["model"] == m for r in rows)]
    fig, ax = plt.subplots(figsize=(min(7.0, max(5.0, 0.25 * len(conds) * len(present))), 3.0))
    width = 0.8 / max(1, len(present))
    for m, model in enumerate(present):
        by = {r["visual_condition"]: r["cie76_mean"] for r in rows if r["model"] == model}
        have = [c for c in conds if c in by]
        xs = [conds.index(c) + m * width for c in have]
        ys = [100 * by[c]["mean_iou"] for c in have]
        err = None
        if all("ci95_iou_low" in by[c] for c in have):
            # max(0, .): a CI bound a rounding error past the mean is drawn as no whisker
            err = [[max(0.0, y - 100 * by[c]["ci95_iou_low"]) for y, c in zip(ys, have, strict=True)],
                   [max(0.0, 100 * by[c]["ci95_iou_high"] - y) for y, c in zip(ys, have, strict=True)]]
        ax.bar(xs, ys, width, yerr=err, capsize=2, color=model_color(models, model),
               label=plot_text(model))
    ax.set_xticks([c + 0.4 - width / 2 for c in range(len(conds))],
                  [plot_text(c) for c in conds], rotation=90, fontsize=8)
    ax.set(ylabel="mIoU (%)", ylim=(0, 102),
           title=plot_text(f"{benchmark}: mIoU per visual condition (95% CI)"))
    _legend_outside(ax)
    return _svg(fig, f"cond-{benchmark}")


def _bucket_cis(table, rows: list[dict], n_boot: int = 1000, seed: int = 0) -> dict[int, tuple]:
    """``{bucket: (low, high)}``: 95% percentile bootstrap CI of the mIoU of ``table``'s
    problems in each edit-size bucket of ``rows`` (the buckets of the diagnostics)."""
    mine = sorted(rows, key=lambda d: d["bucket"])
    edges = np.array([d["edit_pixels_low"] for d in mine] + [mine[-1]["edit_pixels_high"]])
    scored = (table.task != PRESERVATION_TASK) & (table.edit_pixels >= 0)
    bucket = np.clip(np.searchsorted(edges, table.edit_pixels, side="right") - 1, 0,
                     len(edges) - 2)
    rng = np.random.default_rng(seed)
    out = {}
    for d in mine:
        values = table.values[scored & (bucket == d["bucket"]), -1, 2]
        if len(values) < 2:
            continue
        means = values[rng.integers(0, len(values), size=(n_boot, len(values)))].mean(axis=1)
        out[d["bucket"]] = tuple(np.percentile(means, [2.5, 97.5]))
    return out


def miou_vs_edit_size(diagnostics: list[dict], benchmark: str, models: list[str],
                      tables=None) -> str:
    """mIoU per edit-region-size bucket (quantiles of |E|), one line per model, with 95%
    bootstrap CIs over the bucket's problems when ``tables`` are given."""
    rows = [d for d in diagnostics if d["kind"] == "edit_size_bucket" and d["benchmark"] == benchmark
            and d["miou"] is not None]
    if not rows:
        return ""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5.0, 3.0))
    present = [m for m in models if any(d["model"] == m for d in rows)]
    by_model = {t.model: t for t in tables or () if t.benchmark == benchmark}
    for k, model in enumerate(present):
        mine = sorted((d for d in rows if d["model"] == model), key=lambda d: d["bucket"])
        xs = [d["bucket"] + _dodge(k, len(present), 0.3) for d in mine]
        ys = [100 * d["miou"] for d in mine]
        err = None
        if model in by_model:
            cis = _bucket_cis(by_model[model], [d for d in diagnostics if d["kind"] ==
                                                "edit_size_bucket" and d["model"] == model
                                                and d["benchmark"] == benchmark])
            err = [[max(0.0, y - 100 * cis.get(d["bucket"], (y / 100, y / 100))[0])
                    for y, d in zip(ys, mine, strict=True)],
                   [max(0.0, 100 * cis.get(d["bucket"], (y / 100, y / 100))[1] - y)
                    for y, d in zip(ys, mine, strict=True)]]
        ax.errorbar(xs, ys, yerr=err, marker=_MARKERS[k % len(_MARKERS)],
                    lw=max(0.8, 2.4 - 0.4 * k), capsize=2, clip_on=False,
                    color=model_color(models, model), label=plot_text(model), zorder=3 + k)
    first = sorted((d for d in rows if d["model"] == present[0]), key=lambda d: d["bucket"])
    ax.set_xticks([d["bucket"] for d in first],
                  [f"{d['edit_pixels_low']:.0f}-{d['edit_pixels_high']:.0f}" for d in first],
                  fontsize=8)
    ax.set(xlabel="edit region size (pixels; quarters of the problems)", ylabel="mIoU (%)",
           ylim=(-2, 102),
           title=plot_text(f"{benchmark}: mIoU against edit-region size (95% CI)"))
    _legend_outside(ax)
    return _svg(fig, f"size-{benchmark}")


def failure_mode_shares(diagnostics: list[dict], benchmark: str, models: list[str]) -> str:
    """Share of each failure mode per model (all tasks of the benchmark), stacked bars."""
    rows = [d for d in diagnostics if d["kind"] == "failure_modes" and d["benchmark"] == benchmark]
    if not rows:
        return ""
    plt = _pyplot()
    present = [m for m in models if any(d["model"] == m for d in rows)]
    totals = {m: [0] * len(FAILURE_MODES) for m in present}
    for d in rows:
        for k, mode in enumerate(FAILURE_MODES):
            totals[d["model"]][k] += d["counts"][mode]
    fig, ax = plt.subplots(figsize=(5.0, 0.35 * len(present) + 1.4))
    labels = [plot_text(m) for m in present]
    left = [0.0] * len(present)
    for k, mode in enumerate(FAILURE_MODES):
        share = [100 * totals[m][k] / max(1, sum(totals[m])) for m in present]
        ax.barh(labels, share, left=left, color=MODE_COLORS[mode], edgecolor="white",
                linewidth=0.5, label=mode_label(mode))
        left = [a + b for a, b in zip(left, share, strict=True)]
    ax.set(xlabel="share of problems (%)", xlim=(0, 100),
           title=plot_text(f"{benchmark}: failure modes per model"))
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=8)
    _legend_outside(ax)
    return _svg(fig, f"fail-{benchmark}")


def cross_benchmark_scatter(row: dict, models: list[str]) -> str:
    """One point per model: the two benchmark scores (a cross-benchmark correlation row)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(4.6, 3.6))
    for model, x, y in zip(row["models"], row["scores_first"], row["scores_second"], strict=True):
        ax.scatter([100 * x], [100 * y], s=36, color=model_color(models, model), label=plot_text(model),
                   clip_on=False, zorder=3)
    ax.set(xlabel=plot_text(f"{row['first']} score (mIoU, %)"),
           ylabel=plot_text(f"{row['second']} score (mIoU, %)"), xlim=(-2, 102),
           ylim=(-2, 102), title="benchmark scores per model")
    ax.plot([0, 100], [0, 100], color="#bbbbbb", lw=0.8, zorder=1)
    _legend_outside(ax)
    return _svg(fig, "cross-benchmark")
