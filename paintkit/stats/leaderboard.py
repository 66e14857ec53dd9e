"""The leaderboard as text: the table ``eval`` and ``stats`` print at the end, and the
``paintkit stats --format md|csv|latex|json`` export for papers and scripts.

One row per (benchmark, model), best first within a benchmark: the benchmark score (mIoU,
mean over tolerances, in %) with its 95% CI, one column per category (in the registry's
order), the problems scored and the outputs present over the problems any model has in that
benchmark. A score that is not a finite number prints as "–" (LaTeX: "--").
"""

from __future__ import annotations

import csv
import io
import json
import math
from typing import TYPE_CHECKING

from paintkit.layout.names import display
from paintkit.stats.order import category_key

if TYPE_CHECKING:  # numpy: 'paintkit stats --help' reads FORMATS without it
    from paintkit.stats.table import ProblemTable

FORMATS = ("text", "md", "csv", "latex", "json")


def _finite(x) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return None
    return float(x)


def _category_key(name: str) -> tuple:
    return category_key("", name)


def leaderboard_rows(aggregate: list[dict], tables: list[ProblemTable],
                     block: str = "cie76_mean") -> list[dict]:
    """``[{"benchmark", "model", "score", "low", "high", "categories": {name: score},
    "problems", "outputs", "expected"}]``, best first within each benchmark (scores in 0..1,
    None when absent or not finite); ``block``: the aggregate block to read."""
    expected: dict[str, set] = {}
    for t in tables:
        expected.setdefault(t.benchmark, set()).update(
            zip(t.task.tolist(), t.idx.tolist(), strict=True))
    by_key = {(t.benchmark, t.model): t for t in tables}
    rows: dict[tuple, dict] = {}
    for r in aggregate:
        key = (r["benchmark"], r["model"])
        if key not in rows:
            t = by_key.get(key)
            rows[key] = {"benchmark": key[0], "model": key[1], "score": None, "low": None,
                         "high": None, "categories": {},
                         "problems": len(t) if t is not None else None,
                         "outputs": int(t.has_output.sum()) if t is not None else None,
                         "expected": len(expected.get(key[0], ()))}
        b = r.get(block) or {}
        if r["level"] == "benchmark":
            rows[key].update(score=_finite(b.get("mean_iou")), low=_finite(b.get("ci95_iou_low")),
                             high=_finite(b.get("ci95_iou_high")))
        elif r["level"] == "category":
            rows[key]["categories"][r["category"]] = _finite(b.get("mean_iou"))
    for row in rows.values():  # the registry's order, every run
        row["categories"] = dict(sorted(row["categories"].items(), key=lambda c: _category_key(c[0])))
    benches = list(dict.fromkeys(k[0] for k in rows))
    out = []
    for bench in benches:
        mine = [v for k, v in rows.items() if k[0] == bench]
        mine.sort(key=lambda v: (v["score"] is None, -(v["score"] or 0.0), v["model"]))
        out += mine
    return out


def _pct(x, dash: str = "–") -> str:
    return dash if x is None else f"{100 * x:.1f}"


def _table(rows: list[dict], dash: str = "–") -> tuple[list[str], list[list[str]]]:
    """(header, cells) of ``rows`` (one benchmark, or several sharing the columns)."""
    cats = sorted({c for r in rows for c in r["categories"]}, key=_category_key)
    header = ["rank", "model", "mIoU %", "95% CI", *cats, "problems", "outputs"]
    cells, rank, last = [], 0, None
    for r in rows:
        rank = rank + 1 if r["benchmark"] == last else 1
        last = r["benchmark"]
        ci = (f"{_pct(r['low'])}–{_pct(r['high'])}" if r["low"] is not None
              and r["high"] is not None else dash)
        cov = [f"{r['problems']}/{r['expected']}" if r["problems"] is not None else dash,
               f"{r['outputs']}/{r['expected']}" if r["outputs"] is not None else dash]
        if r["outputs"] is not None and r["outputs"] < r["expected"]:
            cov[1] += f" ({r['expected'] - r['outputs']} missing)"
        cells.append([str(rank), display(r["model"]), _pct(r["score"], dash), ci,
                      *(_pct(r["categories"].get(c), dash) for c in cats), *cov])
    return header, cells


def _by_benchmark(rows: list[dict]) -> list[tuple[str, list[dict]]]:
    benches = list(dict.fromkeys(r["benchmark"] for r in rows))
    return [(b, [r for r in rows if r["benchmark"] == b]) for b in benches]


def _latex_escape(text: str) -> str:
    table = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
             "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
             "^": r"\textasciicircum{}", "–": "--"}
    return "".join(table.get(c, c) for c in text)


def format_leaderboard(rows: list[dict], fmt: str = "text", subset: dict | None = None) -> str:
    """``rows`` of :func:`leaderboard_rows` as an aligned text table, Markdown, CSV, a
    LaTeX ``tabular`` (booktabs rules) or a JSON list of the rows; names are escaped for
    the format. ``subset`` (``{"file", "problems", "of"}``): the rows are a subset's, said
    under the table (a ``subset`` field of each row in JSON and CSV)."""
    if fmt not in FORMATS:
        raise ValueError(f"format: expected one of {', '.join(FORMATS)}, got {fmt!r}")
    if subset is not None and fmt in ("json", "csv"):
        rows = [{**r, "subset": _scope_line(subset)} for r in rows]
    if fmt == "json":  # for scripts: the rows as they are (scores in 0..1, None when absent)
        return json.dumps(rows, indent=1) + "\n"
    if not rows:
        return ""
    board = _format_table(rows, fmt)
    if subset is None or fmt == "csv":
        return board
    line = f"Scores of a {_scope_line(subset)}, not of the whole benchmark."
    return board + {"latex": f"% {_latex_escape(line)}\n", "md": f"\n_{line}_\n"}.get(
        fmt, f"\n{line}\n")


def _scope_line(subset: dict) -> str:
    from paintkit.subsets import describe_scope  # numpy: only for a subset's leaderboard

    return describe_scope(subset)


def _format_table(rows: list[dict], fmt: str) -> str:
    if fmt == "csv":  # one table, numbers unrounded in 0..1, for spreadsheets and plots
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        cats = sorted({c for r in rows for c in r["categories"]}, key=_category_key)
        scoped = ["subset"] if "subset" in rows[0] else []
        writer.writerow(["benchmark", "rank", "model", "miou", "ci95_low", "ci95_high", *cats,
                         "problems", "outputs", "expected", *scoped])
        rank, last = 0, None
        for r in rows:
            rank = rank + 1 if r["benchmark"] == last else 1
            last = r["benchmark"]
            writer.writerow([display(r["benchmark"]), rank, display(r["model"]),
                             *("" if r[k] is None else r[k] for k in ("score", "low", "high")),
                             *("" if r["categories"].get(c) is None else r["categories"][c]
                               for c in cats),
                             *("" if r[k] is None else r[k]
                               for k in ("problems", "outputs", "expected")),
                             *(r[k] for k in scoped)])
        return buf.getvalue()
    blocks = []
    for bench, mine in _by_benchmark(rows):
        header, cells = _table(mine)
        header = [c.replace("_", " ") for c in header]
        title = display(bench)
        if fmt == "md":
            esc = [[c.replace("|", "\\|") for c in line] for line in cells]
            lines = [f"**{title}**", "", "| " + " | ".join(header) + " |",
                     "|" + "|".join("---" if k < 2 else "---:" for k in range(len(header))) + "|"]
            blocks.append("\n".join(lines + ["| " + " | ".join(line) + " |" for line in esc]))
        elif fmt == "latex":
            cols = "rl" + "r" * (len(header) - 2)
            body = [" & ".join(_latex_escape(c) for c in header) + r" \\", r"\midrule"]
            body += [" & ".join(_latex_escape(c) for c in line) + r" \\" for line in cells]
            blocks.append(f"% {_latex_escape(title)}\n\\begin{{tabular}}{{{cols}}}\n\\toprule\n"
                          + "\n".join(body) + "\n\\bottomrule\n\\end{tabular}")
        else:
            widths = [max(len(header[k]), *(len(line[k]) for line in cells))
                      for k in range(len(header))]

            def fmt_line(line, widths=widths):
                return "  ".join(c.ljust(w) if k == 1 else c.rjust(w)
                                 for k, (c, w) in enumerate(zip(line, widths, strict=True))).rstrip()

            blocks.append("\n".join([title, fmt_line(header), "  ".join("-" * w for w in widths)]
                                     + [fmt_line(line) for line in cells]))
    return "\n\n".join(blocks) + "\n"
