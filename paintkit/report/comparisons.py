"""The report's comparisons: "is A better than B" per benchmark (paired bootstrap on the
shared problems) and the PaintBench / TinyGrafixBench correlation with its scatter plot
(see :mod:`paintkit.stats.compare`)."""

from __future__ import annotations

from paintkit.report import plots
from paintkit.report.text import h
from paintkit.stats.bootstrap import DEFAULT_N_BOOT
from paintkit.stats.compare import cross_benchmark_correlation, paired_differences

#: The leaderboard's precision in percentage points: a smaller difference is a tie.
TIE_PP = 0.1
#: The most decimals a difference is shown with (0.001 pp).
MAX_DECIMALS = 3


def decimals(value: float) -> int:
    """Decimals (1 .. :data:`MAX_DECIMALS`) that show ``value`` (a fraction in 0..1, shown in
    percentage points) as a nonzero number when it is not zero."""
    pp = abs(100 * value)
    for d in range(1, MAX_DECIMALS + 1):
        if pp == 0 or round(pp, d) != 0:
            return d
    return MAX_DECIMALS


def _pp(x: float, d: int = 1) -> str:
    return f"{round(100 * x, d) + 0.0:+.{d}f}"  # + 0.0: no "-0.0"


def verdict(row: dict) -> str:
    """``"A better"``, ``"B better"``, ``"tie"`` (the CI excludes 0 but the difference is
    below the leaderboard's :data:`TIE_PP`) or ``"not distinguishable"`` (the CI holds 0)."""
    if row["ci95_low"] <= 0 <= row["ci95_high"]:
        return "not distinguishable"
    if abs(100 * row["diff"]) < TIE_PP / 2:  # shows as +0.0 in the leaderboard
        return f"tie (below {TIE_PP} pp)"
    return f"{row['model_a'] if row['ci95_low'] > 0 else row['model_b']} better"


def paired_table(rows: list[dict], benchmark: str) -> str:
    mine = [r for r in rows if r["kind"] == "paired_difference" and r["benchmark"] == benchmark]
    if not mine:
        return ""
    body = []
    for r in mine:
        d = decimals(r["diff"])
        body.append(f"<tr><td>{h(r['model_a'])}</td><td>{h(r['model_b'])}</td>"
                    f"<td>{_pp(r['diff'], d)} <span class=\"ci\">[{_pp(r['ci95_low'], d)}, "
                    f"{_pp(r['ci95_high'], d)}]</span></td>"
                    f"<td>{100 * r['share_a_better']:.1f}%</td>"
                    f"<td class=\"verdict\">{h(verdict(r))}</td></tr>")
    n = mine[0]["n_shared"]
    return (f"<h3>{h(benchmark)}: is A better than B?</h3><p class=\"ci\">Benchmark score "
            f"difference A − B in percentage points on the {n:,} scored problems every model "
            "has (preservation problems are not scored; the leaderboard counts them), "
            f"with its 95% paired-bootstrap CI ({mine[0]['n_boot']:,} resamples of the problems "
            "within each task, the same for both models); P(A better) = share of resamples "
            f"in which A scores higher; a difference below {TIE_PP} pp (the leaderboard's "
            "precision) is a tie.</p>"
            f'<table class="paired" id="paired-{h(benchmark)}"><thead><tr><th>A</th><th>B</th>'
            "<th>A − B (pp) [95% CI]</th><th>P(A better)</th><th>verdict</th></tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")


def correlation_html(row: dict | None, models: list[str]) -> str:
    if not row:
        return ""
    r = row["pearson_r"]
    ci = (f" [95% CI {row['ci95_low']:.2f}, {row['ci95_high']:.2f}]"
          if row["ci95_low"] is not None else "")
    text = "undefined (scores do not vary)" if r is None else f"{r:.2f}{ci}"
    svg = plots.cross_benchmark_scatter(row, models)
    return (f"<h3>{h(row['first'])} against {h(row['second'])}</h3>"
            f'<p id="correlation">Pearson r across the {len(row["models"])} models in both: '
            f"<b>{h(text)}</b> (CI from {row['n_boot']:,} resamples of both benchmarks' "
            "problems).</p>"
            f'<div class="plots">{plots.figure_html(svg, "cross-benchmark") if svg else ""}</div>')


def comparisons_html(data, n_boot: int = DEFAULT_N_BOOT, seed: int = 0) -> str:
    """The section, or "" when there is nothing to compare (one model, one benchmark)."""
    rows = paired_differences(data.tables, n_boot=n_boot, seed=seed)
    corr = cross_benchmark_correlation(data.tables, n_boot=n_boot, seed=seed)
    parts = [paired_table(rows, b) for b in data.benchmarks]
    parts.append(correlation_html(corr, data.models))
    body = "".join(p for p in parts if p)
    return f'<h2>Comparisons</h2><div id="comparisons">{body}</div>' if body else ""
