"""Comparisons that agree with themselves: enough digits for the difference, a difference
below the leaderboard's precision is a tie, and one B for every leaderboard of a results
folder (issue 37 item 5)."""

from __future__ import annotations

import re

import pytest

from paintkit.report.comparisons import TIE_PP, decimals, paired_table, verdict
from paintkit.stats.bootstrap import DEFAULT_N_BOOT


def _row(diff, low, high, share=1.0):
    return {"kind": "paired_difference", "benchmark": "PaintBench", "model_a": "noise",
            "model_b": "identity", "diff": diff, "ci95_low": low, "ci95_high": high,
            "share_a_better": share, "n_shared": 96, "n_boot": DEFAULT_N_BOOT}


def test_a_tiny_gap_is_shown_with_digits_and_called_a_tie():
    html = paired_table([_row(3e-5, 2e-5, 4e-5)], "PaintBench")
    cells = re.findall(r"<td[^>]*>(.*?)</td>", html)
    assert cells[2].startswith("+0.003 ") and "[+0.002, +0.004]" in cells[2]
    assert cells[4] == f"tie (below {TIE_PP} pp)"
    assert "better" not in cells[4]


@pytest.mark.parametrize("row, says", [
    (_row(0.02, 0.01, 0.03), "noise better"),
    (_row(-0.02, -0.03, -0.01), "identity better"),
    (_row(0.02, -0.01, 0.05, 0.8), "not distinguishable"),
    (_row(0.0004, 0.0002, 0.0006), f"tie (below {TIE_PP} pp)"),
    (_row(0.0006, 0.0002, 0.0009), "noise better"),  # 0.06 pp shows as +0.1
])
def test_verdicts(row, says):
    assert verdict(row) == says


@pytest.mark.parametrize("value, d", [(0.0, 1), (0.012, 1), (0.0004, 2), (3e-5, 3),
                                      (1e-9, 3), (-3e-5, 3)])
def test_decimals_show_the_difference(value, d):
    assert decimals(value) == d


def test_one_bootstrap_b_everywhere():
    from paintkit.cli.main import build_parser
    from paintkit.full_run.steps import BenchConfig
    from paintkit.report.comparisons import comparisons_html
    from paintkit.report.write import write_report

    parser = build_parser()
    stats = parser.parse_args(["stats", "--results", "r"])
    report = parser.parse_args(["report", "--results", "r"])
    assert stats.n_boot == report.n_boot == DEFAULT_N_BOOT
    assert BenchConfig(out="x").n_boot == DEFAULT_N_BOOT
    assert write_report.__kwdefaults__["n_boot"] == DEFAULT_N_BOOT
    assert comparisons_html.__defaults__[0] == DEFAULT_N_BOOT
