"""Byte-identical charts: pinned hashes, across processes (spawn), whatever the user's
matplotlib settings (issue 12, item 3)."""

from __future__ import annotations

import json
import multiprocessing

import pytest
from chart_cases import chart_problem
from chart_hashing import PINNED_SLOTS, TABLE, hashes_of, problem_hashes

from paintkit.tinygrafix import TINYGRAFIX_TASKS

PINNED = json.loads(TABLE.read_text())


def test_table_pins_every_task():
    assert {key.split("/")[0] for key in PINNED} == set(TINYGRAFIX_TASKS)


@pytest.mark.parametrize("name", TINYGRAFIX_TASKS)
@pytest.mark.parametrize("slot", [pytest.param(s, marks=() if s == 0 else pytest.mark.slow)
                                  for s in PINNED_SLOTS])
def test_pinned_hashes(name, slot):
    assert problem_hashes(chart_problem(name, slot)) == PINNED[f"{name}/{slot}"]


def test_same_bytes_in_a_spawned_process():
    sample = [("line_chart_filter_series", 0), ("network_swap_nodes", 0), ("heatmap_add_cell", 0)]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        spawned = pool.apply(hashes_of, (sample,))
    assert spawned == {f"{n}/{s}": PINNED[f"{n}/{s}"] for n, s in sample}


def test_user_rcparams_do_not_change_pixels():
    import matplotlib as mpl

    from paintkit.sources import generate

    with mpl.rc_context({"lines.linewidth": 7.0, "font.size": 21.0, "axes.facecolor": "red",
                         "font.family": "serif", "path.simplify": True, "axes.unicode_minus": True}):
        problem = generate("scatter_plot_swap_axes", 0, source="tinygrafixbench")
    assert problem_hashes(problem) == PINNED["scatter_plot_swap_axes/0"]


def test_text_uses_the_dejavu_sans_matplotlib_ships():
    import os

    from matplotlib import font_manager

    from paintkit.tinygrafix.render.canvas import bundled_font_path

    path = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans"))
    assert os.path.realpath(path) == os.path.realpath(bundled_font_path())
