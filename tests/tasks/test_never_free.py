"""Doing nothing is never rewarded: the unchanged input scores mIoU <= 0.05 on every problem.

The rule lives in the task contract (:meth:`paintkit.tasks.base.TaskContext.problem`), so the
checks here run on every (task, mode, condition) and on the seeds that used to break it.
"""

import numpy as np
import pytest

from paintkit.errors import RejectedSeed
from paintkit.metrics import score
from paintkit.seeds import paintbench_seed
from paintkit.sources import generate
from paintkit.tasks import task_module
from paintkit.tasks.base import MAX_IDENTITY_MIOU, identity_miou
from tests.support import metric_oracle as oracle


def test_doing_nothing_is_never_rewarded(task, mode, condition, grid_facts):
    miou = grid_facts(task, mode, condition).identity_miou
    assert miou <= MAX_IDENTITY_MIOU, f"the unchanged input scores mIoU {miou:.3f}"


@pytest.mark.parametrize("case", [
    ("point_operations", "grayscale", "nonstandard"),
    ("blending", "default", "baseline"),
    ("border", "default", "striped"),
])
def test_identity_miou_equals_the_oracle_and_the_metric(case):
    task, mode, condition = case
    p = generate(task, 0, condition, mode)
    expected = oracle.problem_stats(p.input, p.answer, p.input)["cie76_mean"]["iou"]
    assert identity_miou(p.input, p.answer) == pytest.approx(expected, abs=1e-9)
    assert score([p.input], [p.answer], [p.input])[0].miou == pytest.approx(expected, abs=1e-9)


def test_identity_miou_counts_near_colours():
    """Edit pixels whose input colour is within t of the answer count as correct at t."""
    inp = np.zeros((4, 4, 3), np.uint8)
    inp[:] = 128
    ans = inp.copy()
    ans[0, :2] = 127          # ΔE ≈ 0.4: correct at every t >= 1
    ans[1, :2] = (0, 0, 255)  # far: never correct
    expected = oracle.problem_stats(inp, ans, inp)["cie76_mean"]["iou"]
    assert identity_miou(inp, ans) == pytest.approx(expected, abs=1e-12)
    assert identity_miou(inp, ans) == pytest.approx(0.5 * 10 / 11)
    assert identity_miou(inp, inp) == 0.0


@pytest.mark.parametrize("case", [
    # invert on mid-gray #808080 gives #7F7F7F: the unchanged input scored 0.91.
    ("point_operations", "invert", "n_med", 4),
    # grayscale of near-grays (silver, jet black, ivory white) scored 0.82.
    ("point_operations", "grayscale", "nonstandard", 0),
])
def test_near_identity_seeds_are_rejected(case):
    task, mode, condition, slot = case
    seed = paintbench_seed(task, condition, mode, slot, 0)
    with pytest.raises(RejectedSeed, match="unchanged input would score"):
        task_module(task).generate(seed, condition, mode)
