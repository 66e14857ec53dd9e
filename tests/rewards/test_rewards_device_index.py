"""Devices compare as torch resolves them: ``cpu:0`` is ``cpu`` (what ``accelerator.device``
is on a multi-process CPU run), an index of None is the current device of its kind."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import torch

from paintkit.metrics import device as devices
from paintkit.metrics import prepare_targets, reward
from paintkit.metrics.device import same_device
from paintkit.rewards import FlowFactoryPixelMIoU, flow_grpo_pixel_miou, stream_pixel_miou
from tests.support.metric_images import palette_pair

CPU0 = torch.device("cpu:0")


@pytest.fixture
def batch(rng):
    """Two problems; outputs near the answers as float (B, 3, H, W) on ``cpu:0`` (= ``cpu``)."""
    pairs = [palette_pair(rng, 12, 16) for _ in range(2)]
    outs = []
    for _inp, ans in pairs:
        out = ans.copy()
        noise = rng.random((12, 16)) < 0.4
        out[noise] = rng.integers(0, 256, (int(noise.sum()), 3), dtype=np.uint8)
        outs.append(torch.from_numpy(out).permute(2, 0, 1).float() / 255)
    images = torch.stack(outs).to(CPU0)
    assert images.device == torch.device("cpu")  # what torch does: no way to be "on cpu:0"
    expected = reward(images, [a for _, a in pairs], [i for i, _ in pairs])
    assert 0 < float(expected.min()) < 1
    return images, pairs, expected


def test_pixel_miou_on_the_accelerators_cpu0(batch):
    images, pairs, expected = batch
    scores, info = flow_grpo_pixel_miou(CPU0)(images, ["", ""], [{"answer": a, "image": i} for i, a in pairs])
    torch.testing.assert_close(scores, expected, rtol=0, atol=0)
    assert scores.device == torch.device("cpu")


def test_flow_factory_model_built_with_a_cpu0_accelerator(batch):
    images, pairs, expected = batch
    model = FlowFactoryPixelMIoU(SimpleNamespace(device=None), SimpleNamespace(device=CPU0))
    out = model(image=list(images), metadata=[{"answer": a, "input": i} for i, a in pairs])
    torch.testing.assert_close(out.rewards, expected, rtol=0, atol=0)
    # its .device is where the trainer moves images: a device tensors can be on
    assert images.to(model.device).device == model.device


def test_reward_with_targets_prepared_on_cpu0_shares_one_copy(batch):
    images, pairs, expected = batch
    targets = prepare_targets([a for _, a in pairs], [i for i, _ in pairs], device=CPU0)
    torch.testing.assert_close(reward(images, targets), expected, rtol=0, atol=0)
    torch.testing.assert_close(stream_pixel_miou(images, targets), expected, rtol=0, atol=0)
    assert targets.torch_groups("cpu") is targets.torch_groups(CPU0)


def test_a_tensor_on_another_kind_is_still_refused(batch):
    images, pairs, _ = batch
    fn = flow_grpo_pixel_miou("meta")
    with pytest.raises(ValueError, match="expected a tensor on meta"):
        fn(images, ["", ""], [{"answer": a, "image": i} for i, a in pairs])


def test_index_none_is_the_current_device(monkeypatch):
    cuda, cuda0, cuda1 = (torch.device("cuda"), torch.device("cuda", 0),
                          torch.device("cuda", 1))
    monkeypatch.setattr(devices, "_current_index", lambda kind: 1 if kind == "cuda" else None)
    assert same_device(cuda1, cuda) and same_device(cuda, cuda1)
    assert not same_device(cuda0, cuda) and not same_device(cuda1, cuda0)
    assert devices.canonical_device("cuda") == cuda1
    # no runtime to ask (a CPU-only machine): an index of None matches any index
    monkeypatch.setattr(devices, "_current_index", lambda kind: None)
    assert same_device(cuda0, cuda) and same_device(cuda1, cuda)
    assert not same_device(torch.device("cpu"), cuda)
    assert same_device(torch.device("cpu"), CPU0) and same_device(CPU0, "cpu")


def test_interleaved_problems_keep_their_order(batch):
    # samples of two problems interleaved (A, B, A, B): grouped per problem, put back in order
    images, pairs, expected = batch
    order = [0, 1, 0, 1]
    meta = [{"answer": pairs[k][1], "image": pairs[k][0], "problem_id": f"p{k}"} for k in order]
    scores, _ = flow_grpo_pixel_miou("cpu")(images[order], [""] * 4, meta)
    torch.testing.assert_close(scores, expected[order], rtol=0, atol=0)
