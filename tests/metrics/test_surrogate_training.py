"""soft_reward trains from where an editing model starts: the unchanged input.

Adam ascent on the output pixels (projected back to [0, 1] after each step), scored by the
**hard** metric; the full table (more tasks and seeds) is produced by
``python -m bench.soft_reward_ascent`` and given in docs/rewards.md.
"""

import numpy as np
import pytest
import torch

import paintkit
from paintkit.kernels.normalize import normalize_output_torch, pillow_nearest_sources
from paintkit.metrics import prepare_targets, reward, soft_reward
from paintkit.metrics.fit import fit_output


def at_128(image: np.ndarray) -> np.ndarray:
    """A problem image at 128x128 (nearest neighbour: its colours unchanged)."""
    h, w = image.shape[:2]
    return image[pillow_nearest_sources(h, 128)][:, pillow_nearest_sources(w, 128)]


def problem_128(task: str, seed: int = 0):
    problem = paintkit.generate(task, seed, "baseline")
    inp, ans = (torch.from_numpy(at_128(x))[None] for x in (problem.input, problem.answer))
    return inp, ans


def ascend(inp, targets, steps=300, lr=0.03, every=10):
    """Steps until the hard mIoU reaches 0.9 (checked every ``every``), and that mIoU."""
    x = (inp.permute(0, 3, 1, 2).float() / 255).requires_grad_(True)
    optimizer = torch.optim.Adam([x], lr=lr)
    for step in range(steps + 1):
        if step % every == 0:
            hard = float(reward(x.detach(), targets, backend="torch"))
            if hard >= 0.9:
                return step, hard
        optimizer.zero_grad()
        (-soft_reward(x, targets).sum()).backward()
        optimizer.step()
        with torch.no_grad():
            x.clamp_(0, 1)
    return None, hard


@pytest.mark.parametrize("task", ["recolor", "flood_fill", "translation", "removal"])
def test_ascent_from_the_input_reaches_hard_miou_09_within_300_steps(task):
    inp, ans = problem_128(task)
    targets = prepare_targets(ans, inp)
    assert float(reward(inp, targets)) < 0.1  # the input is far from the answer
    start = (inp.permute(0, 3, 1, 2).float() / 255).requires_grad_(True)
    soft_reward(start, targets).sum().backward()
    assert start.grad.abs().sum() > 0  # a gradient where training starts
    steps, hard = ascend(inp, targets)
    assert steps is not None and hard >= 0.9, (task, hard)


def test_a_perfect_output_scores_exactly_one_at_the_defaults():
    inp, ans = problem_128("translation")
    targets = prepare_targets(ans, inp)
    for dtype in (torch.float32, torch.float64):
        perfect = ans.permute(0, 3, 1, 2).to(dtype) / 255
        assert soft_reward(perfect, targets).tolist() == [1.0], dtype


def test_low_precision_and_autocast_compute_in_float32():
    inp, ans = problem_128("recolor")
    targets = prepare_targets(ans, inp)
    x = inp.permute(0, 3, 1, 2).float() / 255
    x = (0.5 * x + 0.5 * ans.permute(0, 3, 1, 2).float() / 255).to(torch.bfloat16)
    exact = soft_reward(x.float(), targets)
    assert soft_reward(x, targets).dtype == torch.float32
    torch.testing.assert_close(soft_reward(x, targets), exact, rtol=0, atol=0)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        torch.testing.assert_close(soft_reward(x.float(), targets), exact, rtol=0, atol=0)


@pytest.mark.parametrize("fit", ["cover", "stretch"])
def test_answer_size_mismatch_goes_through_fit(fit):
    inp, ans = problem_128("recolor")
    targets = prepare_targets(ans, inp)
    small = torch.from_numpy(at_128(ans[0].numpy())[::2, ::3].copy())  # 64 x 43, uint8
    x = (small.permute(2, 0, 1)[None].double() / 255).requires_grad_(True)
    value = soft_reward(x, targets, fit=fit)
    nhwc = small[None].double() / 255
    mapped = normalize_output_torch(nhwc, (128, 128)) if fit == "cover" else \
        fit_output(nhwc, (128, 128), "stretch")
    torch.testing.assert_close(value, soft_reward(mapped, targets), rtol=0, atol=0)
    value.sum().backward()
    assert x.grad.abs().sum() > 0
    if fit == "cover":  # as tau -> 0 it is the exact reward, which normalises by cover
        torch.testing.assert_close(soft_reward(x.detach(), targets, tau=1e-9, fit="cover"),
                                   reward(small[None], targets, fit="cover").double(), rtol=0,
                                   atol=1e-6)


@pytest.mark.parametrize("start", ["grey", "half-right"])
def test_ascent_from_a_grey_or_half_right_output(start):
    inp, ans = problem_128("translation")
    targets = prepare_targets(ans, inp)
    if start == "grey":
        begin = torch.full_like(inp, 128)
    else:  # the left half edited right, the right half still the input
        begin = inp.clone()
        begin[:, :, :64] = ans[:, :, :64]
    steps, hard = ascend(begin, targets)
    assert steps is not None and hard >= 0.9, (start, hard)
