"""The report's fine print: one spelling per name on a page, perfect outputs tagged
"solved" (not failure mode "none"), and the comparison's count says what it counts."""

from paintkit.report.comparisons import paired_table
from paintkit.report.gallery import card_failure_mode
from paintkit.report.plots import condition_bars, failure_mode_shares, mode_label
from paintkit.report.template import SCRIPT
from paintkit.stats.failure_modes import FAILURE_MODES


def test_a_perfect_output_is_solved_not_failure_mode_none():
    assert card_failure_mode("none", 1.0) == "solved"
    assert card_failure_mode("none", 0.5) == "unclassified_failure"
    assert card_failure_mode("execution_omission", 0.0) == "execution_omission"
    assert mode_label("none") == "solved or unclassified"
    assert mode_label("color_imprecision") == "color imprecision"


def test_the_failure_mode_plot_never_says_none():
    rows = [{"kind": "failure_modes", "benchmark": "PaintBench", "model": "oracle",
             "counts": {mode: int(mode == "none") for mode in FAILURE_MODES}}]
    svg = failure_mode_shares(rows, "PaintBench", ["oracle"])
    assert "solved or unclassified" in svg and ">none<" not in svg


def test_names_keep_one_spelling_on_the_page():
    # the leaderboard's column heads and the tables below both show the names as they are
    # (geometric_transformation), never a second spelling with spaces
    assert "replace(/_/g" not in SCRIPT
    rows = [{"level": "visual_condition", "benchmark": "PaintBench", "visual_condition": c,
             "model": "oracle", "cie76_mean": {"mean_iou": 1.0}} for c in ("n_xhigh", "n_med")]
    svg = condition_bars(rows, "PaintBench", ["oracle"])
    assert "n_xhigh" in svg and "n xhigh" not in svg


def test_the_comparison_says_its_problems_are_the_scored_ones():
    row = {"kind": "paired_difference", "benchmark": "PaintBench", "model_a": "oracle",
           "model_b": "identity", "diff": 1.0, "ci95_low": 1.0, "ci95_high": 1.0,
           "share_a_better": 1.0, "n_shared": 320, "n_boot": 10_000}
    text = paired_table([row], "PaintBench")
    assert "on the 320 scored problems every model has (preservation problems are not " \
           "scored; the leaderboard counts them)" in text
