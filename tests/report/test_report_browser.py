"""The report of a full-size run (2,016 PaintBench problems + TinyGrafixBench, 4 models) in
headless Chromium: size, load, every table filled, selectors, sorting, sticky headers, and
a screenshot compared with a committed reference by a tolerant image diff.

Rows come from ``full_rows`` (no images, so no gallery): the page's tables, plots and
script are what is measured. Set ``PAINTKIT_UPDATE_REFERENCE=1`` to rewrite the reference
screenshot after an intended layout change (and look at it before committing).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from paintkit.cli.main import main
from tests.report.chromium import CHROMIUM, VIEWPORT, chromium_context

REFERENCE = Path(__file__).with_name("reference") / "report_top_1400.png"

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")


@pytest.fixture(scope="module")
def full_report(tmp_path_factory):
    from tests.support.full_rows import full_rows

    folder = tmp_path_factory.mktemp("full")
    rows = full_rows()
    (folder / "problem_stats.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["stats", "--results", str(folder), "--n-boot", "1000"]) == 0
    out = folder / "report.html"
    assert main(["report", "--results", str(folder), "--output", str(out), "--n-boot", "1000"]) == 0
    return out


@pytest.fixture(scope="module")
def browser():
    with chromium_context() as ctx:
        yield ctx


@pytest.fixture()
def page(browser, full_report):
    page = browser.new_page()
    page.errors, page.dialogs = [], []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.goto(full_report.as_uri())
    page.wait_for_load_state("load")
    yield page
    assert page.errors == [] and page.dialogs == []
    page.close()


def _texts(page, selector):
    return page.eval_on_selector_all(selector, "e => e.map(x => x.textContent)")


def test_size_and_load_time(full_report, page):
    size = full_report.stat().st_size
    assert size < 5e6, f"{size / 1e6:.2f} MB"
    load_ms = page.evaluate("() => { const t = performance.getEntriesByType('navigation')[0];"
                            " return t.loadEventEnd - t.startTime; }")
    # the target is 1 s (bench/report_size.py measures it); a shared test machine gets slack
    assert load_ms < 5000, f"{load_ms:.0f} ms"


def test_every_table_has_rows(page):
    empty = page.evaluate("() => [...document.querySelectorAll('table')].filter("
                          "t => t.querySelectorAll('tbody tr, tr').length < 2).map(t => t.id)")
    assert empty == []
    for table in ("board-PaintBench", "board-TinyGrafixBench"):
        assert len(_texts(page, f"#{table} tbody tr")) == 4
    assert len(_texts(page, "#paired-PaintBench tbody tr")) == 6
    assert "Pearson r" in page.text_content("#correlation")


def test_leaderboard_columns_coverage_and_order(page):
    heads = _texts(page, "#board-PaintBench thead th")
    assert heads[:4] == ["#", "model", "score", "geometric_transformation"]
    assert page.eval_on_selector("#board-PaintBench th[data-col='1']",
                                 "e => e.classList.contains('sorted-desc')")
    assert heads[4:7] == ["structural_manipulation", "color_change", "symbolic_reasoning"]
    assert heads[-2:] == ["problems", "outputs"]
    models = _texts(page, "#board-PaintBench tbody td:nth-child(2)")
    assert models == ["oracle-like", "strong", "middling", "weak"]
    weak = _texts(page, "#board-PaintBench tbody tr:last-child td")
    assert weak[-2] == "1,920/2,016" or weak[-2].startswith("2,016/2,016")
    assert "25 missing" in weak[-1] and "⚠" in weak[-1]
    assert page.eval_on_selector("#board-PaintBench tbody tr:last-child td:last-child",
                                 "e => e.classList.contains('warn')")


def test_selectors_change_the_leaderboard(page):
    score = "#board-PaintBench tbody td:nth-child(3)"
    before = _texts(page, score)
    page.select_option("#metric", "preservation_accuracy")
    after_metric = _texts(page, score)
    page.select_option("#tolerance", "0")
    after_tol = _texts(page, score)
    assert before != after_metric != after_tol
    page.select_option("#metric", "outputs")
    assert _texts(page, "#board-PaintBench tbody td:nth-child(3)")[-1].startswith("1,895/1,920")


def test_sorting(page):
    page.click("#board-PaintBench thead th[data-col='0']")  # model name, A-Z
    assert _texts(page, "#board-PaintBench tbody td:nth-child(2)") == [
        "middling", "oracle-like", "strong", "weak"]
    page.click("#board-PaintBench thead th[data-col='0']")  # again: Z-A
    assert _texts(page, "#board-PaintBench tbody td:nth-child(2)")[0] == "weak"
    page.click("#board-PaintBench thead th[data-col='1']")  # score, best first
    ranks = _texts(page, "#board-PaintBench tbody td:first-child")
    assert ranks == ["1.", "2.", "3.", "4."]
    page.click("#board-PaintBench thead th[data-col='1']")  # worst first; ranks stay
    assert _texts(page, "#board-PaintBench tbody td:first-child") == ["4.", "3.", "2.", "1."]


def test_empty_denominator_shows_a_dash(page):
    page.select_option("#metric", "edit_accuracy")
    unscored = "#hier-PaintBench tr.cat td[colspan]"
    page.click(unscored)
    cells = page.eval_on_selector_all(
        "#hier-PaintBench tr.task", "rows => rows.filter(r => !r.hidden && "
        "r.firstChild.textContent.includes('preservation')).map(r => "
        "[...r.querySelectorAll('td.val')].map(td => td.textContent))")
    assert cells and all(v == "–" for row in cells for v in row)


def test_sticky_header_below_the_controls(page):
    for k in range(4):  # open the categories: a table taller than the window
        page.click(f"#hier-PaintBench tr.cat[data-cat='{k}'] td")
    page.evaluate("() => { const t = document.getElementById('hier-PaintBench');"
                  " window.scrollTo(0, t.getBoundingClientRect().top + window.scrollY + 200); }")
    assert page.eval_on_selector("#hier-PaintBench", "e => e.getBoundingClientRect().bottom") > 300
    bar = page.eval_on_selector("#controls", "e => e.getBoundingClientRect().bottom")
    head = page.eval_on_selector("#hier-PaintBench thead th",
                                 "e => e.getBoundingClientRect().top")
    assert bar - 2 <= head <= bar  # tucked at most 2 px under it (never a gap of rows)


def _blocks(png: bytes, size: int = 8) -> np.ndarray:
    """Grey levels averaged over ``size`` x ``size`` blocks: glyph antialiasing averages out,
    a moved table or missing column does not."""
    import io

    from PIL import Image

    img = np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=np.float64)
    h, w = (img.shape[0] // size) * size, (img.shape[1] // size) * size
    return img[:h, :w].reshape(h // size, size, w // size, size).mean(axis=(1, 3))


#: Most of the tolerated change: blocks that differ, over the blocks with ink in either image.
#: Measured: a Gaussian blur of radius 1 (other antialiasing) 0%, the page moved by 3 px
#: 2.3%, one leaderboard column moved by 60 px 3.4%, a taller control bar 11.5%.
TOLERANCE = 0.025


def layout_difference(a: bytes, b: bytes) -> float:
    """Of the 8 x 8 blocks with ink in either image, the share whose mean grey level
    differs by more than 48 (of 255)."""
    x, y = _blocks(a), _blocks(b)
    if x.shape != y.shape:
        return 1.0
    ink = (x < 250) | (y < 250)
    return float((np.abs(x - y) > 48).sum() / max(1, ink.sum()))


def _page_font() -> str:
    """The font fontconfig gives the page's ``sans-serif`` ("" when fc-match is absent)."""
    import shutil
    import subprocess

    if not shutil.which("fc-match"):
        return ""
    return subprocess.run(["fc-match", "-f", "%{family}", "sans-serif"], capture_output=True,
                          text=True, check=False).stdout


def test_layout_matches_the_reference_screenshot(page):
    if "DejaVu Sans" not in _page_font():
        pytest.skip("the reference was taken with DejaVu Sans as sans-serif (fonts-dejavu-core)")
    page.evaluate("() => document.fonts.ready")
    shot = page.screenshot(clip={"x": 0, "y": 0, **VIEWPORT})
    if os.environ.get("PAINTKIT_UPDATE_REFERENCE") or not REFERENCE.exists():
        REFERENCE.parent.mkdir(exist_ok=True)
        REFERENCE.write_bytes(shot)
        if not os.environ.get("PAINTKIT_UPDATE_REFERENCE"):
            pytest.fail(f"no reference screenshot yet: wrote {REFERENCE}; look at it, commit it")
    diff = layout_difference(shot, REFERENCE.read_bytes())
    assert diff < TOLERANCE, f"{100 * diff:.1f}% of the page's blocks changed (see {REFERENCE.name})"


def test_the_layout_comparison_tells_layout_from_antialiasing(page):
    shot = page.screenshot(clip={"x": 0, "y": 0, **VIEWPORT})
    import io

    from PIL import Image, ImageFilter

    img = Image.open(io.BytesIO(shot)).convert("RGB")
    soft = io.BytesIO()
    img.filter(ImageFilter.GaussianBlur(0.7)).save(soft, format="PNG")  # like other antialiasing
    assert layout_difference(shot, soft.getvalue()) < TOLERANCE
    page.add_style_tag(content="table.board td:nth-child(3){padding-left:60px}")
    moved = page.screenshot(clip={"x": 0, "y": 0, **VIEWPORT})
    assert layout_difference(shot, moved) > TOLERANCE
