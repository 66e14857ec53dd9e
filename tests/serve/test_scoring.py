"""A batch of the service's items -> rewards (``paintkit.serve.scoring.score_items``): on the
CPU one call per tolerance whatever the problems, each reward the in-process one bit for bit,
and a problem that fails its call fails only its own items."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import paintkit.serve.scoring as scoring
from paintkit.metrics import prepare_targets, reward, tolerance_statistics
from paintkit.serve.scoring import ScoreItem, score_items

CPU = torch.device("cpu")


def _problem(rng, size=(24, 32)):
    inp = rng.integers(0, 256, (*size, 3), dtype=np.uint8)
    answer = inp.copy()
    answer[4:12, 6:20] = rng.integers(0, 256, 3, dtype=np.uint8)
    return answer, inp


def _noisy(rng, answer):
    return np.clip(answer.astype(np.int16) + rng.integers(-4, 5, answer.shape), 0, 255
                   ).astype(np.uint8)


@pytest.fixture
def items():
    """Ten items of four problems (two sizes), two tolerances, figures on some."""
    rng = np.random.default_rng(7)
    problems = [_problem(rng), _problem(rng), _problem(rng, (16, 16)), _problem(rng)]
    targets = [prepare_targets([a], [i]) for a, i in problems]
    found = []
    for k, (p, tolerance, figures) in enumerate([(0, None, False), (1, None, True), (2, None, False),
                                                 (0, None, False), (3, 3, False), (1, 3, True),
                                                 (2, None, True), (3, None, False), (0, 3, False),
                                                 (3, None, False)]):
        answer = problems[p][0]
        image = answer if k % 3 == 0 else _noisy(rng, answer)
        found.append(ScoreItem(f"p{p}", targets[p], image, tolerance=tolerance, figures=figures))
    return found


def _alone(item):
    """The item's reward (and IoUs) scored alone in-process."""
    value = float(reward(item.image[None], item.target, tolerance=item.tolerance)[0])
    iou = tolerance_statistics(item.image[None], item.target).stats.figures(torch.float64)["iou"]
    return value, [float(v) for v in iou[0].to(torch.float32)]


def test_one_call_per_tolerance_and_every_reward_is_the_one_scored_alone(items, monkeypatch):
    calls = []
    real = scoring.score_group

    def spy(images, target, *args, **kwargs):
        calls.append(len(images))
        return real(images, target, *args, **kwargs)

    monkeypatch.setattr(scoring, "score_group", spy)
    results = score_items(items, CPU)
    assert sorted(calls) == [3, 7]  # mIoU items of four problems, IoU_3 items of three
    for item, result in zip(items, results, strict=True):
        value, iou = _alone(item)
        assert result["problem_id"] == item.problem_id
        assert np.float32(result["reward"]).tobytes() == np.float32(value).tobytes()
        assert ("iou" in result) == item.figures
        if item.figures:
            assert result["iou"] == iou


def test_a_problem_that_fails_its_call_fails_only_its_own_items(items):
    rng = np.random.default_rng(3)
    broken = prepare_targets([np.zeros((24, 32, 3), np.uint8)], [np.zeros((24, 32, 3), np.uint8)])
    broken.inputs = [np.zeros((8, 8, 3), np.uint8)]  # answer and input disagree: reward raises
    items = [*items[:3], ScoreItem("broken", broken, _noisy(rng, items[0].image)), *items[3:]]
    results = score_items(items, CPU)
    assert isinstance(results[3], Exception)
    for k, (item, result) in enumerate(zip(items, results, strict=True)):
        if k != 3:
            assert result["reward"] == pytest.approx(_alone(item)[0], abs=0)


def test_a_wrong_size_fails_its_item_before_any_call(items):
    wrong = ScoreItem("p0", items[0].target, np.zeros((5, 5, 3), np.uint8))
    results = score_items([wrong, *items[1:3]], CPU)
    assert isinstance(results[0], ValueError) and "5" in str(results[0])
    assert [r["problem_id"] for r in results[1:]] == ["p1", "p2"]


def test_the_kernel_counts_each_image_in_place_on_the_cpu(items, monkeypatch):
    """No copy of an image, nor of a problem's answer and input per sample: a stacked batch
    cost a 1024x1024 request ~0.3 ms of the service's CPU."""
    import paintkit.metrics.counts as histograms

    seen = []
    real = histograms.tolerance_histograms_numba

    def spy(outputs, answers, inputs, **kwargs):
        seen.append((outputs, answers, inputs))
        return real(outputs, answers, inputs, **kwargs)

    monkeypatch.setattr(histograms, "tolerance_histograms_numba", spy)
    same_problem = [ScoreItem("p0", items[0].target, _noisy(np.random.default_rng(k), items[0].image))
                    for k in range(3)]
    score_items([*items[:3], *same_problem], CPU)
    images = [item.image for item in [*items[:3], *same_problem]]
    assert len(seen) == len(images)  # one count per image, each against its own problem
    assert all(outputs.shape[0] == 1 for outputs, _, _ in seen)
    for image in images:
        counted = [(a, i) for outputs, a, i in seen if np.shares_memory(outputs, image)]
        assert len(counted) == 1
    for image in images[3:]:  # the G samples read their problem's answer and input in place
        answers, inputs = next((a, i) for o, a, i in seen if np.shares_memory(o, image))
        assert np.shares_memory(answers, items[0].target.answers[0])
        assert np.shares_memory(inputs, items[0].target.inputs[0])
