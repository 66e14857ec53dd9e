"""The report's fine print in headless Chromium (issue 37, item 14), one test per item: the
failure modes have distinct colours (and the page draws them), every plot at one scale,
condition labels do not touch, the tolerance selector shows its whole text, a long model
name stays in the content column, no rows show between the toolbar and a stuck header, the
gallery opens on its first examples, the blank baseline's place is explained."""

from __future__ import annotations

import json
import shutil
from itertools import combinations

import numpy as np
import pytest

from paintkit.cli.main import main
from paintkit.report.plots import MODE_COLORS
from tests.report.chromium import chromium_context, needs_chromium

LONG = "noise-" + "x" * 150


def _lab_plain(hex_colour: str) -> np.ndarray:
    """CIE L*a*b* (D65) of an sRGB colour: the textbook formulas."""
    rgb = np.array([int(hex_colour[k:k + 2], 16) / 255 for k in (1, 3, 5)])
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ lin / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_failure_mode_colours_are_far_apart():
    """Distinct at a glance: ΔE > 25 for every pair, and two coloured (not grey) modes differ
    in hue by 45 degrees or more (two blues of different lightness read as one)."""
    for (a, ca), (b, cb) in combinations(MODE_COLORS.items(), 2):
        la, lb = _lab_plain(ca), _lab_plain(cb)
        assert float(np.linalg.norm(la - lb)) > 25, (a, b)
        if np.hypot(*la[1:]) > 15 and np.hypot(*lb[1:]) > 15:
            turn = abs(np.degrees(np.arctan2(la[2], la[1]) - np.arctan2(lb[2], lb[1]))) % 360
            assert min(turn, 360 - turn) >= 45, (a, b, turn)


@pytest.fixture(scope="module")
def pages(pipeline, tmp_path_factory):
    root = tmp_path_factory.mktemp("fine")
    results = shutil.copytree(pipeline["results"], root / "results")
    (results / "aggregate_stats.jsonl").unlink(missing_ok=True)
    rows = [json.loads(line) for line in (results / "problem_stats.jsonl").open()]
    for row in rows:
        row["model"] = LONG if row["model"] == "noise" else row["model"]
    (results / "problem_stats.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    long_page = root / "long.html"
    assert main(["report", "--results", str(results), "--output", str(long_page),
                 "--n-boot", "50"]) == 0
    gallery_page = root / "gallery.html"
    assert main(["report", "--results", str(pipeline["results"]), "--output",
                 str(gallery_page), "--n-boot", "50", "--benchmarks", str(pipeline["bench"]),
                 "--outputs", str(pipeline["outputs"])]) == 0
    from tests.support.full_rows import full_rows  # every visual condition

    every = root / "every"
    every.mkdir()
    few = full_rows(per_cell=1, per_task=1)
    two = sorted({r["model"] for r in few})[:2]  # few models: the narrowest plot
    (every / "problem_stats.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in few if r["model"] in two))
    conditions_page = root / "conditions.html"
    assert main(["report", "--results", str(every), "--output", str(conditions_page),
                 "--n-boot", "20"]) == 0
    wide = root / "wide"  # twelve models: tables wider than the content column
    wide.mkdir()
    noise = [r for r in rows if r["model"] == LONG]
    (wide / "problem_stats.jsonl").write_text("".join(
        json.dumps({**r, "model": f"model-number-{k:02d}"}) + "\n" for k in range(12)
        for r in noise))
    wide_page = root / "wide.html"
    assert main(["report", "--results", str(wide), "--output", str(wide_page),
                 "--n-boot", "20"]) == 0
    return {"long": long_page, "gallery": gallery_page, "conditions": conditions_page,
            "wide": wide_page}


@pytest.fixture(scope="module")
def browser():
    with chromium_context() as ctx:
        yield ctx


def _open(browser, path):
    page = browser.new_page()
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page


@needs_chromium
@pytest.mark.parametrize("width", [1000, 1400, 2600])  # below ~1000 its columns alone overflow
def test_a_long_model_name_stays_in_the_content_column(browser, pages, width):
    page = _open(browser, pages["long"])
    page.set_viewport_size({"width": width, "height": 900})
    page.wait_for_timeout(100)
    right = page.evaluate("""() => {
        const body = document.body.getBoundingClientRect(), s = getComputedStyle(document.body);
        const board = document.querySelector('table.board').getBoundingClientRect();
        return [board.right, body.right - parseFloat(s.paddingRight)];}""")
    assert right[0] <= right[1] + 1, right
    cell = page.eval_on_selector_all("table.board td:nth-child(2)", "e => e.map(x => x.textContent)")
    assert LONG in cell  # wrapped, not cut
    page.close()


@needs_chromium
def test_the_failure_mode_legend_draws_the_distinct_colours(browser, pages):
    """The page's failure-mode plots use MODE_COLORS (checked far apart above), all of them."""
    page = _open(browser, pages["conditions"])
    fills = page.evaluate("""() => [...document.querySelectorAll('figure.plot')].map(f =>
        [...new Set([...f.querySelectorAll('g[id^="legend"] path, g[id^="legend"] rect')]
            .map(p => getComputedStyle(p).fill))])""")
    want = {f"rgb({int(c[1:3], 16)}, {int(c[3:5], 16)}, {int(c[5:7], 16)})"
            for c in MODE_COLORS.values()}
    legends = [set(f) & want for f in fills if set(f) & want]
    assert legends and all(found == want for found in legends), (legends, want)
    page.close()


@needs_chromium
def test_condition_labels_do_not_touch(browser, pages):
    page = _open(browser, pages["conditions"])
    boxes = page.evaluate("""() => {
        const fig = [...document.querySelectorAll('figure.plot')].find(
            f => f.textContent.includes('mIoU per visual condition'));
        return [...fig.querySelectorAll('g[id^="xtick"] text')].map(t => {
            const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];});}""")
    assert len(boxes) == 8
    for a, b in combinations(boxes, 2):
        apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
        assert apart, (a, b)
    page.close()


@needs_chromium
def test_the_gallery_opens_on_its_first_examples_and_the_blank_baseline_is_explained(
        browser, pages):
    page = _open(browser, pages["gallery"])
    opened = page.eval_on_selector_all("#gallery details", "e => e.map(d => d.open)")
    assert len(opened) > 1 and opened[0] and not any(opened[1:])
    assert page.is_visible("#gallery details .card")
    note = page.text_content("#baseline-note")
    assert "blank" in note and "identity" in note and "noise" in note
    page.close()


@needs_chromium
def test_the_tolerance_selector_says_what_it_averages_and_counts_have_commas(browser, pages):
    page = _open(browser, pages["long"])
    shown = page.eval_on_selector("#tolerance", "e => e.options[e.selectedIndex].text")
    assert shown == "mean over t = 0..10"
    fits = page.eval_on_selector("#tolerance", """e => {
        const probe = document.createElement('span'); probe.style.font = getComputedStyle(e).font;
        probe.textContent = e.options[e.selectedIndex].text; document.body.appendChild(probe);
        const w = probe.getBoundingClientRect().width; probe.remove();
        return e.getBoundingClientRect().width > w;}""")
    assert fits
    page.close()


#: What may show in the band from the toolbar's bottom to a stuck header's first text line:
#: the toolbar's white, the header's grey, the header's border.
HEADER_BAND = {(255, 255, 255), (0xF4, 0xF4, 0xF4), (0xDD, 0xDD, 0xDD)}


@needs_chromium
@pytest.mark.parametrize("width", [700, 1400, 2600])  # toolbars of 1 to 3 lines
def test_no_rows_show_between_the_toolbar_and_a_stuck_header(browser, pages, width):
    """Rows scrolling under a stuck table header never show above it: the pixels from the
    toolbar's bottom to the header's top are the toolbar's or the header's, for every table
    with a header, at several scroll positions (a 1-pixel line of each passing row showed:
    the collapsed border's band at the top of a sticky cell is painted by no one)."""
    from io import BytesIO

    from PIL import Image

    for name in ("conditions", "long", "wide"):
        page = _open(browser, pages[name])
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        count = page.evaluate("() => document.querySelectorAll('table thead th').length > 0 ? "
                              "[...document.querySelectorAll('table')].length : 0")
        checked = 0
        for k in range(count):
            for dy in (3, 11, 40):
                box = page.evaluate("""([k, dy]) => {
                    const t = document.querySelectorAll('table')[k], th = t.querySelector('thead th');
                    if (!th || t.tBodies.length === 0 || !t.offsetParent) return null;
                    window.scrollTo(0, t.getBoundingClientRect().top + window.scrollY + dy);
                    const bar = document.getElementById('controls').getBoundingClientRect();
                    const h = th.getBoundingClientRect(), r = t.getBoundingClientRect();
                    if (r.bottom < h.bottom + 20) return null;  // the header is leaving
                    return {x: r.left, right: Math.min(r.right, innerWidth), bar: bar.bottom,
                            barRight: bar.right, top: h.top,
                            pad: parseFloat(getComputedStyle(th).paddingTop)};}""", [k, dy])
                if box is None or box["top"] > box["bar"] + 1:
                    continue  # not stuck (yet)
                bottom = int(box["top"] + box["pad"])  # down to the header text's top
                # under the toolbar; and, for a table wider than it, beside it to the top
                bands = [(box["x"], box["right"], int(box["bar"]))]
                if box["right"] > box["barRight"] + 1:
                    bands.append((box["barRight"], box["right"], 0))
                for left, right, top in bands:
                    shot = page.screenshot(clip={"x": left, "y": top, "width": right - left,
                                                 "height": max(1, bottom - top)})
                    rgb = np.asarray(Image.open(BytesIO(shot)).convert("RGB")).reshape(-1, 3)
                    pixels = {tuple(p) for p in rgb.tolist()}
                    assert pixels <= HEADER_BAND, (name, k, dy, box, left, top,
                                                   sorted(pixels - HEADER_BAND)[:5])
                checked += 1
        assert checked >= 3, (name, checked)
        page.close()


@needs_chromium
@pytest.mark.parametrize("width", [700, 1400, 2600])  # narrower than a plot: all shrink
def test_every_plot_is_drawn_at_one_scale(browser, pages, width):
    """Plots shrunk to fit a flex column came out with smaller fonts than their neighbours."""
    page = _open(browser, pages["conditions"])
    page.set_viewport_size({"width": width, "height": 900})
    page.wait_for_timeout(100)
    scales = page.evaluate("""() => [...document.querySelectorAll('.plots figure.plot > svg')]
        .map(s => s.getBoundingClientRect().width / (parseFloat(s.getAttribute('width')) * 4 / 3))""")
    assert len(scales) >= 4 and max(scales) - min(scales) < 0.02, scales
    page.close()
