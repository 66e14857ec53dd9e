"""soft_reward takes what reward takes: samples_per_problem, lists, uint8, arrays, PIL images,
mixed canvas sizes, read by the same coercion code (``paintkit.metrics.coerce``)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.metrics import prepare_targets, reward, soft_reward
from paintkit.metrics.coerce import float_images


def problem(h, w, colour):
    inp = np.zeros((h, w, 3), np.uint8)
    inp[..., 2] = 180
    ans = inp.copy()
    ans[2:h // 2, 3:w // 2] = colour
    return inp, ans


def chw(image):
    return torch.from_numpy(np.ascontiguousarray(image)).permute(2, 0, 1).double() / 255


@pytest.fixture
def two():
    """Two problems of different canvas sizes, their targets, and 4 samples of each."""
    (i1, a1), (i2, a2) = problem(16, 24, (250, 10, 10)), problem(20, 12, (10, 250, 10))
    samples = [a1, i1, (a1 // 2 + i1 // 2), a1, a2, i2, a2, (a2 // 2 + i2 // 2)]
    return prepare_targets([a1, a2], [i1, i2]), samples


def test_samples_per_problem_over_mixed_sizes_equals_one_call_per_output(two):
    targets, samples = two
    outputs = [chw(s).requires_grad_(True) for s in samples]
    value = soft_reward(outputs, targets, samples_per_problem=4)
    assert value.shape == (8,) and value.dtype == torch.float64
    pairs = [targets.numpy_pair(k // 4) for k in range(8)]
    alone = torch.cat([soft_reward(chw(s)[None], a[None], i[None])
                       for s, (a, i) in zip(samples, pairs, strict=True)])
    torch.testing.assert_close(value.detach(), alone, rtol=0, atol=1e-12)
    assert value[[0, 3, 4, 6]].tolist() == [1.0] * 4  # the answers score exactly 1
    value.sum().backward()
    assert all(o.grad is not None and o.grad.abs().sum() > 0 for o in outputs[1:3])
    hard = reward(samples, targets, samples_per_problem=4)
    assert torch.equal(hard == 1, value.detach().float() == 1)


def test_uint8_arrays_pil_and_float_give_the_same_value(two):
    targets, samples = two
    floats = soft_reward([chw(s).float() for s in samples], targets, samples_per_problem=4)
    for form in ([torch.from_numpy(s) for s in samples], samples,
                 [Image.fromarray(s) for s in samples]):
        torch.testing.assert_close(soft_reward(form, targets, samples_per_problem=4), floats,
                                   rtol=0, atol=1e-6)
    a, i = targets.numpy_pair(0)
    batch = np.stack([samples[0], samples[1]])  # a uint8 (B, H, W, 3) array, one size
    one = prepare_targets(a[None], i[None])
    torch.testing.assert_close(soft_reward(batch, one, samples_per_problem=2), floats[:2],
                               rtol=0, atol=1e-6)
    torch.testing.assert_close(soft_reward(torch.from_numpy(batch).permute(0, 3, 1, 2), one,
                                           samples_per_problem=2), floats[:2], rtol=0, atol=1e-6)


def test_a_batch_of_the_wrong_length_names_both_counts(two):
    targets, samples = two
    with pytest.raises(ValueError, match=r"expected a batch of 8 \(2 problems x 4 samples\), "
                                         r"got 6"):
        soft_reward(samples[:6], targets, samples_per_problem=4)
    with pytest.raises(ValueError, match="samples_per_problem"):
        soft_reward(samples, targets, samples_per_problem=0)


def test_float_images_keeps_float_tensors_as_views():
    x = torch.rand(2, 3, 5, 7, requires_grad=True)
    images, device = float_images(x, "outputs")
    assert device == x.device and images[0].shape == (5, 7, 3)
    assert images[0].data_ptr() == x.data_ptr()  # no copy: the gradient reaches x
    images, _ = float_images([np.zeros((4, 6, 3), np.uint8)], "outputs")
    assert images[0].dtype == torch.float32 and images[0].shape == (4, 6, 3)
