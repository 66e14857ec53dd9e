"""`paintkit report`: one self-contained file; checked as text and in headless Chromium."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest

from paintkit.cli.main import main

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"]


@pytest.fixture(scope="module")
def report(pipeline, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    assert main(["report", "--results", str(pipeline["results"]), "--output", str(out),
                 "--benchmarks", str(pipeline["bench"]), "--outputs", str(pipeline["outputs"]),
                 "--n-boot", "300"]) == 0
    return out


def test_report_is_self_contained(report):
    text = report.read_text(encoding="utf-8")
    # nothing fetched from anywhere: no external src/href, no CDN
    assert not re.search(r'(src|href)\s*=\s*["\']?(https?:)?//', text)
    assert "<svg" in text and "data:image/png;base64," in text
    # the tree is the benchmark's own problems (seed namespace paintbench)
    assert "problems of the benchmark's own seeds (namespace paintbench)" in text
    assert text.count('class="board"') == 1  # one leaderboard table per benchmark
    assert 'id="provenance"' in text
    assert report.stat().st_size < 20e6


def test_report_without_gallery_or_aggregate(pipeline, tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    shutil.copy(pipeline["results"] / "problem_stats.jsonl", results)
    out = tmp_path / "r.html"
    assert main(["report", "--results", str(results), "--output", str(out), "--n-boot", "200"]) == 0
    text = out.read_text(encoding="utf-8")
    assert "Gallery" not in text and 'id="leaderboard"' in text


def _chromium_context(playwright, user_dir):
    return playwright.chromium.launch_persistent_context(
        user_dir, executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS, headless=True,
        accept_downloads=True)


@pytest.mark.skipif(not CHROMIUM.exists(),
                    reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
def test_report_in_headless_chromium(report):
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="needs Playwright for Python (pip install -e '.[dev]')")
    errors: list[str] = []
    with sync_api.sync_playwright() as pw, tempfile.TemporaryDirectory() as user_dir:
        ctx = _chromium_context(pw, user_dir)
        try:
            page = ctx.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(report.as_uri())
            page.wait_for_load_state("load")
            assert errors == []
            # every image resolves (data URIs decoded by the browser)
            page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
            n_img = page.eval_on_selector_all(".card img", "els => els.length")
            broken = page.eval_on_selector_all(
                ".card img", "els => els.filter(e => !(e.complete && e.naturalWidth > 0)).length")
            assert n_img > 0 and broken == 0
            # the leaderboard has one row per model
            assert page.eval_on_selector_all("#board-PaintBench tbody tr", "els => els.length") == 4
            # the selectors change the numbers shown
            cells = "#hier-PaintBench tbody tr td.val"

            def shown():
                return page.eval_on_selector_all(cells, "els => els.map(e => e.textContent)")

            before = shown()
            page.select_option("#metric", "preservation_accuracy")
            after_metric = shown()
            page.select_option("#tolerance", "0")
            after_tol = shown()
            page.select_option("#metric", "outputs")
            outputs = page.eval_on_selector_all(
                "#hier-PaintBench tbody tr td:not(:first-child)", "els => els.map(e => e.textContent)")
            assert before != after_metric != after_tol
            assert outputs and all(re.fullmatch(r"\d+/\d+", t) for t in outputs), set(outputs)
            # categories expand to their tasks on click
            count_hidden = "els => els.filter(e => e.hidden).length"
            hidden = page.eval_on_selector_all("#hier-PaintBench tr.task", count_hidden)
            page.click("#hier-PaintBench tr.cat[data-cat='0'] td")
            hidden_after = page.eval_on_selector_all("#hier-PaintBench tr.task", count_hidden)
            assert hidden_after < hidden
            # the gallery: click to enlarge, Esc closes, a model filter, expand all
            page.click("#gallery-expand")  # all open (above): collapses all
            assert page.eval_on_selector_all("#gallery details", "e => e.every(d => !d.open)")
            page.click("#gallery-expand")
            assert page.eval_on_selector_all("#gallery details", "e => e.every(d => d.open)")
            page.click(".card img.zoom >> nth=0")
            assert not page.eval_on_selector("#overlay", "e => e.hidden")
            page.keyboard.press("Escape")
            assert page.eval_on_selector("#overlay", "e => e.hidden")
            page.select_option("#gallery-model", "blank")
            shown = page.eval_on_selector_all(
                ".card", "e => e.filter(c => !c.hidden).map(c => c.dataset.model)")
            assert shown and set(shown) == {"blank"}
            # each plot downloads as SVG and as PNG (drawn from the SVG)
            for link, magic in (("a[download]", b"<svg"), ("a.png", b"\x89PNG")):
                with page.expect_download() as download:
                    page.click(f"figure.plot {link} >> nth=0")
                assert Path(download.value.path()).read_bytes().startswith(magic)
            assert errors == []
        finally:
            ctx.close()


def test_report_from_foreign_rows_with_tinygrafixbench(tmp_path):
    import json

    from tests.support.rows_factory import paintbench_rows, tinygrafix_rows

    rows = paintbench_rows(models=("weak", "strong"), per_cell=2) + \
        tinygrafix_rows(models=("weak", "strong"), per_task=3)
    for r in rows:  # make "strong" clearly better on PaintBench
        if r["model"] == "strong" and r["has_output"]:
            r["output"]["cie76_mean"]["iou"] = 0.99
    (tmp_path / "problem_stats.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "r.html"
    assert main(["report", "--results", str(tmp_path), "--output", str(out), "--n-boot", "100"]) == 0
    text = out.read_text(encoding="utf-8")
    assert 'id="hier-PaintBench"' in text and 'id="hier-TinyGrafixBench"' in text
    assert 'id="cond-TinyGrafixBench"' not in text  # no condition rows for charts
    from paintkit.report.data import leaderboard, load_report_data

    board = leaderboard(load_report_data(tmp_path, n_boot=50))
    assert [e["model"] for e in board] == ["strong", "weak"]
