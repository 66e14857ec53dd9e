"""Size, build time and Chromium load time of the report of a full-size run.

    python -m bench.report_size [--n-boot 1000] [--runs 5]

Rows shaped like the full benchmarks (2,016 PaintBench problems per model and 200
TinyGrafixBench problems, 4 models; ``tests/support/full_rows.py``, no images, so no gallery)
go through ``paintkit stats`` and ``paintkit report``; the page is then opened ``--runs``
times in headless Chromium (/usr/bin/chromium) and the median time from navigation start to
the end of the load event is printed, with the time the page's script takes to fill every
table. Each gallery card adds about 8 kB (160 px thumbnails; see docs/report.md).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from paintkit.cli.main import main as paintkit
    from tests.support.full_rows import full_rows

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = full_rows()
        (folder / "problem_stats.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        start = time.perf_counter()
        paintkit(["stats", "--input", str(folder), "--n-boot", str(args.n_boot),
                  "--format", "csv"])
        stats_s = time.perf_counter() - start
        out = folder / "report.html"
        start = time.perf_counter()
        paintkit(["report", "--input", str(folder), "--output", str(out), "--n-boot",
                  str(args.n_boot)])
        report_s = time.perf_counter() - start
        size = out.stat().st_size
        loads, scripts = [], []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                         args=["--no-sandbox", "--disable-gpu"])
            for _ in range(args.runs):
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(out.as_uri())
                page.wait_for_load_state("load")
                loads.append(page.evaluate(
                    "() => { const t = performance.getEntriesByType('navigation')[0];"
                    " return t.loadEventEnd - t.startTime; }"))
                scripts.append(page.evaluate(
                    "() => { const t0 = performance.now(); document.getElementById('metric')"
                    ".dispatchEvent(new Event('change')); return performance.now() - t0; }"))
                page.close()
            browser.close()
        n = len({(r["model"], r["benchmark"], r["task"], r["idx"]) for r in rows})
    print(f"{n:,} (model, problem) rows, 4 models: stats {stats_s:.1f} s, report "
          f"{report_s:.1f} s (B = {args.n_boot:,})", file=sys.stderr)
    print(f"report.html: {size / 1e6:.2f} MB", file=sys.stderr)
    print(f"page load (median of {args.runs}): {statistics.median(loads):.0f} ms; "
          f"refilling every table on a selector change: {statistics.median(scripts):.0f} ms",
          file=sys.stderr)


if __name__ == "__main__":
    main()
