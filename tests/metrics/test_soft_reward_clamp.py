"""soft_reward(clamp=True): a straight-through clamp, so a loop with the clamp in its forward
pass (a decoder's ``(x / 2 + 0.5).clamp(0, 1)``) still trains when it hands soft_reward the
values before the clamp. ``python -m bench.soft_reward_ascent --loops ...`` gives the table in
docs/rewards.md."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import paintkit
from paintkit.kernels.normalize import pillow_nearest_sources
from paintkit.metrics import prepare_targets, reward, soft_reward


def at_128(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    return image[pillow_nearest_sources(h, 128)][:, pillow_nearest_sources(w, 128)]


def test_forward_is_the_clamp_and_the_gradient_passes_straight_through():
    rng = np.random.default_rng(0)
    inp = rng.integers(0, 256, (1, 12, 10, 3), dtype=np.uint8)
    ans = inp.copy()
    ans[0, 2:6, 2:7] = (240, 20, 20)
    x = (torch.from_numpy(inp).permute(0, 3, 1, 2).double() / 255 * 1.4 - 0.2)
    x.requires_grad_(True)
    value = soft_reward(x, ans, inp, clamp=True)
    y = x.detach().clamp(0, 1).requires_grad_(True)
    expected = soft_reward(y, ans, inp)
    torch.testing.assert_close(value, expected, rtol=0, atol=0)
    value.sum().backward()
    expected.sum().backward()
    torch.testing.assert_close(x.grad, y.grad, rtol=0, atol=0)  # the identity, not 0
    outside = (x.detach() < 0) | (x.detach() > 1)
    assert outside.any() and (x.grad[outside] != 0).any()
    clamped = x.detach().clone().requires_grad_(True)  # behind a real clamp: exactly 0
    soft_reward(clamped.clamp(0, 1), ans, inp).sum().backward()
    assert (clamped.grad[outside] == 0).all()


def test_out_of_range_without_clamp_is_refused_naming_it():
    inp = np.zeros((1, 4, 4, 3), np.uint8)
    with pytest.raises(ValueError, match="clamp=True"):
        soft_reward(torch.full((1, 3, 4, 4), 1.5), inp, inp)
    with pytest.raises(ValueError, match="NaN"):
        soft_reward(torch.full((1, 3, 4, 4), float("nan")), inp, inp, clamp=True)


def ascend(inp, targets, straight_through, steps=300, lr=0.03):
    z = (inp.permute(0, 3, 1, 2).float() / 255 * 2 - 1).requires_grad_(True)
    optimizer = torch.optim.Adam([z], lr=lr)
    for _ in range(steps):
        optimizer.zero_grad()
        if straight_through:
            value = soft_reward(z / 2 + 0.5, targets, clamp=True)
        else:
            value = soft_reward((z / 2 + 0.5).clamp(0, 1), targets)
        (-value.sum()).backward()
        optimizer.step()
    return float(reward((z.detach() / 2 + 0.5).clamp(0, 1), targets))


def test_a_clamp_in_the_forward_pass_trains_through_the_straight_through_clamp():
    problem = paintkit.generate("recolor", 0, "baseline")
    inp, ans = (torch.from_numpy(at_128(x))[None] for x in (problem.input, problem.answer))
    targets = prepare_targets(ans, inp)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the figures of docs/rewards.md
    try:
        assert ascend(inp, targets, straight_through=True) == 1.0
        assert ascend(inp, targets, straight_through=False) < 0.9  # the stall it fixes
    finally:
        torch.set_num_threads(threads)
