"""The differentiable surrogate: gradients flow, and it tends to the exact reward as tau -> 0."""
# Training from where an editing model starts (the unchanged input) is in
# test_surrogate_training.py.

import numpy as np
import pytest
import torch

from paintkit.metrics import prepare_targets, reward, soft_reward
from tests.support.metric_images import palette_pair


def batch(rng, n=3, h=16, w=20):
    pairs = [palette_pair(rng, h, w) for _ in range(n)]
    inp = torch.from_numpy(np.stack([p[0] for p in pairs]))
    ans = torch.from_numpy(np.stack([p[1] for p in pairs]))
    return inp, ans


def test_gradients_flow_to_the_outputs(rng):
    inp, ans = batch(rng)
    targets = prepare_targets(ans, inp)
    outputs = (inp.permute(0, 3, 1, 2).float() / 255).requires_grad_(True)
    value = soft_reward(outputs, targets, tau=1.0)
    assert value.shape == (3,)
    value.sum().backward()
    assert torch.isfinite(outputs.grad).all() and outputs.grad.abs().sum() > 0
    # one gradient step towards higher reward raises the reward
    with torch.no_grad():
        stepped = (outputs + 0.05 * outputs.grad.sign()).clamp(0, 1)
    assert soft_reward(stepped, targets, tau=1.0).mean() > value.mean()


def test_converges_to_the_exact_metric_as_tau_goes_to_zero(rng):
    inp, ans = batch(rng)
    noisy = ans.clone()
    noise = torch.from_numpy(rng.integers(-4, 5, noisy.shape)).int()
    noisy = (noisy.int() + noise).clamp(0, 255).to(torch.uint8)  # ΔE spread over 0..10
    targets = prepare_targets(ans, inp)
    outputs = noisy.permute(0, 3, 1, 2).double() / 255
    exact = reward(noisy, targets, backend="torch").double()
    gaps = [float((soft_reward(outputs, targets, tau=tau) - exact).abs().max())
            for tau in (1.0, 1e-2, 1e-4, 1e-7)]
    assert gaps[0] > 1e-2 and gaps[-1] < gaps[1] and gaps[-1] < 1e-3, gaps
    at_3 = soft_reward(outputs, targets, tau=1e-7, tolerance=3)
    np.testing.assert_allclose(at_3, reward(noisy, targets, tolerance=3).double(), atol=2e-3)


def test_bad_arguments(rng):
    inp, ans = batch(rng)
    outputs = ans.permute(0, 3, 1, 2).float() / 255
    with pytest.raises(ValueError, match="tau"):
        soft_reward(outputs, ans, inp, tau=0)
    with pytest.raises(ValueError, match="expected a uint8 or float image batch"):
        soft_reward(outputs[:, :2], ans, inp)
    with pytest.raises(ValueError, match="with fit='exact'"):
        soft_reward(outputs[..., :8], ans, inp, fit="exact")
    with pytest.raises(ValueError, match="fit"):
        soft_reward(outputs, ans, inp, fit="crop")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):  # [-1, 1] outputs, as reward refuses them
        soft_reward(outputs * 2 - 1, ans, inp)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        reward(outputs * 2 - 1, ans, inp)
