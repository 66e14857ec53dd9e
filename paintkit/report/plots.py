"""The report's plots as inline SVG strings (matplotlib, Agg; no files, no fonts to fetch).

Each function takes aggregate / diagnostics rows and returns ``<svg ...>...</svg>`` text,
or "" when there is nothing to draw.
"""

from __future__ import annotations

import io

from paintkit.stats.failure_modes import FAILURE_MODES

_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#ad494a", "#637939"]


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _svg(fig, salt: str) -> str:
    import matplotlib

    plt = _pyplot()
    buf = io.StringIO()
    # A per-plot salt keeps element ids unique across the page's inline SVGs, and fixed
    # metadata keeps the bytes reproducible.
    with matplotlib.rc_context({"svg.hashsalt": salt, "svg.fonttype": "path"}):
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def iou_vs_tolerance(aggregate: list[dict], benchmark: str) -> str:
    """Benchmark-level IoU_t against t, one line per model, CI band shaded."""
    rows = [r for r in aggregate if r["level"] == "benchmark" and r["benchmark"] == benchmark]
    if not rows:
        return ""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ts = list(range(11))
    for k, r in enumerate(rows):
        color = _COLORS[k % len(_COLORS)]
        mean = [r[f"cie76_{t}"]["mean_iou"] for t in ts]
        ax.plot(ts, mean, marker="o", ms=3, color=color, label=r["model"])
        if "ci95_iou_low" in r["cie76_0"]:
            ax.fill_between(ts, [r[f"cie76_{t}"]["ci95_iou_low"] for t in ts],
                            [r[f"cie76_{t}"]["ci95_iou_high"] for t in ts], color=color, alpha=0.15)
    ax.set(xlabel="CIE76 tolerance t", ylabel="IoU_t", title=f"{benchmark}: IoU against tolerance",
           xticks=ts, ylim=(0, 1))
    ax.legend(fontsize=7, ncol=2)
    return _svg(fig, f"iou-{benchmark}")


def condition_bars(aggregate: list[dict], benchmark: str) -> str:
    """mIoU per visual condition, grouped bars per model with CI whiskers."""
    rows = [r for r in aggregate if r["level"] == "visual_condition" and r["benchmark"] == benchmark]
    if not rows:
        return ""
    plt = _pyplot()
    conds = list(dict.fromkeys(r["visual_condition"] for r in rows))
    models = list(dict.fromkeys(r["model"] for r in rows))
    fig, ax = plt.subplots(figsize=(max(6.4, 0.9 * len(conds) * max(1, len(models)) / 3), 3.6))
    width = 0.8 / len(models)
    for m, model in enumerate(models):
        by = {r["visual_condition"]: r["cie76_mean"] for r in rows if r["model"] == model}
        present = [c for c in conds if c in by]
        xs = [conds.index(c) + m * width for c in present]
        ys = [by[c]["mean_iou"] for c in present]
        err = None
        if all("ci95_iou_low" in by[c] for c in present):
            err = [[y - by[c]["ci95_iou_low"] for y, c in zip(ys, present, strict=True)],
                   [by[c]["ci95_iou_high"] - y for y, c in zip(ys, present, strict=True)]]
        ax.bar(xs, ys, width, yerr=err, capsize=2, color=_COLORS[m % len(_COLORS)], label=model)
    ax.set_xticks([c + 0.4 - width / 2 for c in range(len(conds))], conds, rotation=20, fontsize=8)
    ax.set(ylabel="mIoU", title=f"{benchmark}: mIoU per visual condition (95% CI)")
    ax.legend(fontsize=7, ncol=2)
    return _svg(fig, f"cond-{benchmark}")


def miou_vs_edit_size(diagnostics: list[dict], benchmark: str) -> str:
    """mIoU per edit-region-size bucket (quantiles of |E|), one line per model."""
    rows = [d for d in diagnostics if d["kind"] == "edit_size_bucket" and d["benchmark"] == benchmark
            and d["miou"] is not None]
    if not rows:
        return ""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    models = list(dict.fromkeys(d["model"] for d in rows))
    for m, model in enumerate(models):
        mine = sorted((d for d in rows if d["model"] == model), key=lambda d: d["bucket"])
        ax.plot([d["bucket"] for d in mine], [d["miou"] for d in mine], marker="o",
                color=_COLORS[m % len(_COLORS)], label=model)
    first = sorted((d for d in rows if d["model"] == models[0]), key=lambda d: d["bucket"])
    ax.set_xticks([d["bucket"] for d in first],
                  [f"{d['edit_pixels_low']:.0f}-{d['edit_pixels_high']:.0f}" for d in first],
                  fontsize=8)
    ax.set(xlabel="edit region size |E| (pixels, quantile buckets)", ylabel="mIoU",
           title=f"{benchmark}: mIoU against edit-region size")
    ax.legend(fontsize=7, ncol=2)
    return _svg(fig, f"size-{benchmark}")


def failure_mode_shares(diagnostics: list[dict], benchmark: str) -> str:
    """Share of each failure mode per task (all models pooled), stacked horizontal bars."""
    rows = [d for d in diagnostics if d["kind"] == "failure_modes" and d["benchmark"] == benchmark]
    if not rows:
        return ""
    plt = _pyplot()
    tasks = list(dict.fromkeys(d["task"] for d in rows))
    totals = {t: [0] * len(FAILURE_MODES) for t in tasks}
    for d in rows:
        for k, mode in enumerate(FAILURE_MODES):
            totals[d["task"]][k] += d["counts"][mode]
    fig, ax = plt.subplots(figsize=(6.4, 0.3 * len(tasks) + 1.2))
    left = [0.0] * len(tasks)
    colors = ["#d62728", "#7f7f7f", "#ff7f0e", "#9467bd", "#2ca02c"]
    for k, mode in enumerate(FAILURE_MODES):
        share = [totals[t][k] / max(1, sum(totals[t])) for t in tasks]
        ax.barh(tasks, share, left=left, color=colors[k], label=mode.replace("_", " "))
        left = [a + b for a, b in zip(left, share, strict=True)]
    ax.set(xlabel="share of problems", xlim=(0, 1),
           title=f"{benchmark}: failure modes per task (all models)")
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=7)
    ax.legend(fontsize=7, loc="lower right")
    return _svg(fig, f"fail-{benchmark}")
