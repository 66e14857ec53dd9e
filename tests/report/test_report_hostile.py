"""User-controlled strings on the report page: escaped everywhere, in a real browser.

One tiny tree whose every name is hostile: model folders (``<!--<script>x``, markup,
matplotlib math text, ``_nolegend_``, a name that is not UTF-8), a benchmark and a task
folder with markup, instructions, modes, conditions and categories with script, and an
``explanations.jsonl`` whose tags, ids and notes carry script. Chromium loads the report:
no dialog opens, no injected element exists, every table has its rows and the names show as
text.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from paintkit.cli.main import main
from paintkit.eval.synthetic import write_synthetic_tree
from paintkit.report.explanations import explanation_html
from paintkit.report.text import plot_text, script_json

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"]

NON_UTF8 = os.fsdecode(b"bad\xffname")
MODELS = ("<!--<script>x", "<img src=x onerror=alert(1)>", "$\\foo{$", "_nolegend_",
          "price$5 vs $6", "\"'><svg onload=alert(2)>", NON_UTF8)
BENCH = "Bench<!--<b>"
TASK = "<img src=x onerror=alert(3)>"
HOSTILE = "<img src=x onerror=alert(4)>"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    bench, outputs = write_synthetic_tree(root, problems=6, tasks=2, width=24, height=24,
                                          models=MODELS, benchmark=BENCH, missing_every=5,
                                          corrupt_every=0, resized_every=0)
    for side in (bench / BENCH, *(outputs / m / BENCH for m in MODELS)):
        (side / "task_0").rename(side / TASK)
    for meta in (bench / BENCH / TASK).glob("*.json"):
        data = json.loads(meta.read_text())
        data.update(instruction=f"paint it {HOSTILE} & </script><script>alert(5)</script>",
                    mode="<script>alert(6)</script>", visual_condition=f"c{HOSTILE}",
                    task=TASK, namespace="train<i>")
        meta.write_text(json.dumps(data))
    results = root / "results"
    assert main(["eval", "--benchmarks", str(bench), "--outputs", str(outputs), "--results",
                 str(results), "--jobs", "1", "--quiet"]) == 0
    stats = results / "problem_stats.jsonl"
    rows = [json.loads(line) for line in stats.read_text().splitlines()]
    explanations = []
    for r in rows:  # a foreign tool's rows may carry a category
        r["category"] = "<script>alert(7)</script>"
        explanations.append({
            "model": r["model"], "benchmark": r["benchmark"], "task": r["task"],
            "idx": r["idx"], "has_output": True, "tolerance": "<b>5</b>",
            "tags": {"damaged": HOSTILE, f"t{HOSTILE}": 2},
            "objects": [{"id": HOSTILE, "tag": HOSTILE, "offset": ["<i>", 2], "bbox": [1, 1, 5, 5]},
                        {"id": "e1", "tag": "wrong_colour", "delta_e": HOSTILE},
                        {"id": "e2", "tag": "damaged", "share": "x"}],
            "notes": [HOSTILE], "spurious": {"segments": HOSTILE, "pixels": 3}})
    stats.write_text("".join(json.dumps(r) + "\n" for r in rows))
    (results / "explanations.jsonl").write_text(
        "".join(json.dumps(e) + "\n" for e in explanations))
    out = root / "report.html"
    assert main(["report", "--results", str(results), "--output", str(out), "--benchmarks",
                 str(bench), "--outputs", str(outputs), "--n-boot", "50",
                 "--gallery-per-model", "1"]) == 0
    return out


def test_no_raw_markup_in_the_file(hostile):
    text = hostile.read_text(encoding="utf-8")
    for needle in ("<img src=x", "<svg onload", "<script>alert", "<!--<", "<i>", "<b>5"):
        assert needle not in text, needle
    assert text.count("<script") == 2  # the data block and the page script
    assert 'paint-order="stroke">&lt;img src=x' in text  # an object id drawn on the images
    assert "\ufffd" in text  # the non-UTF-8 folder name, shown with a replacement character
    # problems of another seed namespace are not called the benchmark's
    assert "seed namespace train&lt;i&gt;, not the benchmark" in text


def test_json_block_escapes_lt_and_never_emits_nan():
    text = script_json({"a<!--b": "</script><!--", "x": float("nan"), "y": [float("inf")]})
    assert "<" not in text and ">" not in text and "NaN" not in text and "Infinity" not in text
    assert json.loads(text) == {"a<!--b": "</script><!--", "x": None, "y": [None]}


def test_plot_text_is_literal():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    for name in MODELS:
        ax.plot([0, 1], [0, 1], label=plot_text(name))
    ax.legend()
    fig.canvas.draw()  # "$\foo{$" would raise a ParseFatalException as math text
    shown = [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close(fig)
    assert len(shown) == len(MODELS)  # "_nolegend_" kept
    assert not any(t.count("$") - t.count("\\$") for t in shown)  # no math mode


def test_explanation_block_escapes_every_field():
    block = explanation_html({"has_output": True, "tolerance": "<b>", "tags": {"x": HOSTILE},
                              "objects": [{"id": HOSTILE, "tag": "misplaced",
                                           "offset": ["<i>", None]},
                                          {"id": "e", "tag": "damaged", "share": HOSTILE}],
                              "notes": [HOSTILE], "spurious": {"segments": "<", "pixels": 1}})
    assert "<img" not in block and "<i>" not in block and block.count("<b>") == 1  # ours
    assert "&lt;img" in block and "(t=&lt;b&gt;)" in block


@pytest.mark.skipif(not CHROMIUM.exists(),
                    reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)")
def test_hostile_report_in_chromium(hostile):
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="needs Playwright for Python (pip install -e '.[dev]')")
    errors: list[str] = []
    dialogs: list[str] = []
    with sync_api.sync_playwright() as pw, tempfile.TemporaryDirectory() as user_dir:
        ctx = pw.chromium.launch_persistent_context(
            user_dir, executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS, headless=True)
        try:
            page = ctx.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(hostile.as_uri())
            page.wait_for_load_state("load")
            page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
            page.wait_for_timeout(300)
            assert dialogs == []
            # nothing injected became an element
            assert page.eval_on_selector_all("script", "e => e.length") == 2
            assert page.eval_on_selector_all("img[onerror], svg[onload], i, b > b",
                                             "e => e.length") == 0
            # errors other than the broken x image would mean the script died
            assert [e for e in errors if "ERR_FILE_NOT_FOUND" not in e] == []
            board = f"[id='board-{BENCH}'] tbody tr"
            assert page.eval_on_selector_all(board, "e => e.length") == len(MODELS)
            names = page.eval_on_selector_all(f"{board} td:nth-child(2)",
                                              "e => e.map(x => x.textContent)")
            expected = {m if m != NON_UTF8 else "bad\ufffdname" for m in MODELS}
            assert set(names) == expected
            hier = page.eval_on_selector_all(f"[id='hier-{BENCH}'] tbody tr", "e => e.length")
            assert hier > 3
            tasks = page.eval_on_selector_all(f"[id='hier-{BENCH}'] tr.task td:first-child",
                                              "e => e.map(x => x.textContent)")
            assert f"▸ {TASK}" in tasks
            cards = page.eval_on_selector_all(".card .instr", "e => e.map(x => x.textContent)")
            assert cards and all(HOSTILE in c for c in cards if c.startswith("paint it"))
            assert page.eval_on_selector_all(".explain", "e => e.length") > 0
        finally:
            ctx.close()
