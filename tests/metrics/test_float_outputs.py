"""Float outputs -> uint8 (SPEC 1.1 round(x * 255), half to even), Numba and torch paths."""

import numpy as np
import pytest
import torch

from paintkit.kernels.pixels import float_to_uint8
from paintkit.metrics.coerce import tensor_to_uint8_nhwc


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.round(x * 255).to(torch.uint8)


def test_numba_pass_equals_torch_round_including_ties(rng):
    x = torch.from_numpy(rng.random((2, 3, 17, 19), dtype=np.float32))
    ties = (torch.arange(256, dtype=torch.float32) + 0.5) / 255  # products near k + 0.5
    x.view(-1)[:256] = ties.clamp(max=1.0)
    x.view(-1)[256:258] = torch.tensor([0.0, 1.0])
    ours = tensor_to_uint8_nhwc(x, "outputs")  # NCHW -> NHWC view of the Numba result
    assert torch.equal(ours, reference(x).permute(0, 2, 3, 1))
    nhwc = x.permute(0, 2, 3, 1).contiguous()
    assert torch.equal(tensor_to_uint8_nhwc(nhwc, "outputs"), reference(nhwc))
    strided = x[:, :, ::2]  # not dense: the torch fallback
    assert torch.equal(tensor_to_uint8_nhwc(strided, "outputs"),
                       reference(strided).permute(0, 2, 3, 1))
    assert torch.equal(tensor_to_uint8_nhwc(x.double(), "outputs"),
                       reference(x.double()).permute(0, 2, 3, 1))


@pytest.mark.parametrize("bad", [float("nan"), 1.0001, -0.0001, float("inf")])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_values_outside_0_1_are_refused(bad, dtype):
    x = torch.full((1, 3, 4, 4), 0.5, dtype=dtype)
    x[0, 1, 2, 3] = bad
    with pytest.raises(ValueError, match=r"outputs: float images must lie in \[0, 1\] without "
                                         r"NaN; got 1 values outside"):
        tensor_to_uint8_nhwc(x, "outputs")


def test_float_to_uint8_needs_contiguous_float32():
    out, bad = float_to_uint8(np.array([0.0, 0.5, 1.0, 2.0], np.float32))
    assert out.tolist() == [0, 128, 255, 0] and bad == 1
    with pytest.raises(ValueError, match="C-contiguous float32"):
        float_to_uint8(np.zeros(4, np.float64))


def _ties(n):
    return ((torch.arange(n, dtype=torch.float32) % 256 + 0.5) / 255).clamp(max=1.0)


@pytest.mark.parametrize("layout", ["nchw", "nhwc", "strided"])
def test_torch_pass_in_steps_equals_torch_round(layout, rng):
    # More than one step of the CPU torch pass (2^18 values), ties in the last step.
    x = torch.from_numpy(rng.random((2, 3, 300, 301), dtype=np.float32))
    x.view(-1)[-300:] = _ties(300)
    x.view(-1)[:2] = torch.tensor([0.0, 1.0])
    if layout == "nhwc":
        x = x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
    elif layout == "strided":
        x = x[:, :, ::2]
    ours = tensor_to_uint8_nhwc(x, "outputs", numba=False)
    assert torch.equal(ours, reference(x).permute(0, 2, 3, 1))


@pytest.mark.parametrize("where", [0, -1])
def test_torch_pass_in_steps_refuses_values_outside_0_1(where):
    x = torch.full((1, 3, 400, 400), 0.5)
    x.view(-1)[where] = float("nan")
    with pytest.raises(ValueError, match=r"got 1 values outside"):
        tensor_to_uint8_nhwc(x, "outputs", numba=False)
