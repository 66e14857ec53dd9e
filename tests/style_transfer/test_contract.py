"""The problem contract of the style transfer family: at least one changed pixel, doing
nothing and copying the reference never pay (mIoU <= 0.05, by the public metric), the
standard metadata, the same bytes in any process and the pinned hashes."""

from __future__ import annotations

import json
import multiprocessing

import pytest

from tests.style_transfer.style_cases import (
    CHARTS,
    PINNED_SLOTS,
    TABLE,
    hashes_of,
    problem_hashes,
    style_problem,
)

PINNED = json.loads(TABLE.read_text())
SLOTS = [pytest.param(s, marks=() if s < 2 else pytest.mark.slow) for s in range(6)]


@pytest.mark.parametrize("slot", SLOTS)
@pytest.mark.parametrize("chart", CHARTS)
def test_neither_the_input_nor_the_reference_pays_when_returned(chart, slot):
    import paintkit

    problem = style_problem(chart, slot)
    assert (problem.input != problem.answer).any(axis=2).sum() >= 20
    copied, unchanged = paintkit.score([problem.references[0].image, problem.input],
                                       [problem.answer] * 2, [problem.input] * 2)
    assert copied.miou <= 0.05 and unchanged.miou <= 0.05
    assert problem.metadata["edit_pixels"] == copied.edit_pixels


@pytest.mark.parametrize("chart", CHARTS)
def test_the_metadata_holds_the_standard_fields_and_the_three_states(chart):
    problem = style_problem(chart, 0)
    meta = problem.metadata
    assert {"instruction", "task", "mode", "visual_condition", "category", "seed", "slot",
            "attempt", "namespace", "W", "H", "bg_colors", "edit_pixels", "params"} <= set(meta)
    assert (meta["task"], meta["chart"], meta["mode"], meta["visual_condition"]) == \
        (chart, chart, "default", "default")
    assert meta["category"] == "style_transfer" and meta["namespace"] == "style_transfer"
    assert meta["references"] == [{"role": "style"}]
    assert (meta["H"], meta["W"], 3) == problem.input.shape == problem.references[0].image.shape
    assert {"input_state", "reference_state", "answer_state"} <= set(meta)
    assert problem.problem_id == f"style_transfer-{chart}-default-default-000000"
    json.dumps(meta)  # JSON as it is


def test_the_pinned_table_covers_every_chart_type():
    assert set(PINNED) == {f"{c}/{s}" for c in CHARTS for s in PINNED_SLOTS}


@pytest.mark.parametrize("slot", [pytest.param(s, marks=() if s == 0 else pytest.mark.slow)
                                  for s in PINNED_SLOTS])
@pytest.mark.parametrize("chart", CHARTS)
def test_pinned_hashes(chart, slot):
    assert problem_hashes(style_problem(chart, slot)) == PINNED[f"{chart}/{slot}"], (
        "the style transfer bytes changed: if intended, run `python -m "
        "tests.style_transfer.style_cases` and say what changed in CHANGELOG.md")


def test_same_bytes_in_a_spawned_process():
    sample = [("network", 0)]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        spawned = pool.apply(hashes_of, (sample,))
    assert spawned == {f"{c}/{s}": PINNED[f"{c}/{s}"] for c, s in sample}
