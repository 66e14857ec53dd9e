"""The fused CUDA counting kernel on a real GPU (skipped without one; the simulator proof is
``test_counts_cuda_sim.py``): counts equal the oracle's, tensors are read in place."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.metrics.test_exact_counts_torch import adversarial_problems, oracle_counts

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(),
                                reason="needs a CUDA device (none on this machine)")


def test_cuda_fused_counts_equal_the_oracle_next_to_every_integer(rng):
    from paintkit.kernels.counting.bins import counts_from_histograms
    from paintkit.kernels.counting.cie76_cuda import tolerance_histograms_cuda

    outs, answers, inputs = adversarial_problems(rng)
    o, a, i = (torch.from_numpy(x).cuda() for x in (outs, answers, inputs))
    hist, outside = tolerance_histograms_cuda(o, a, i)
    assert hist.is_cuda and outside.tolist() == [0, 0, 0]
    counts = counts_from_histograms(hist.cpu())
    for k in range(len(outs)):
        ce, cp, changed = oracle_counts(outs[k], answers[k], inputs[k])
        assert counts["edit_correct"][k].tolist() == ce
        assert counts["preservation_correct"][k].tolist() == cp
        assert counts["changed"][k].tolist() == changed


def test_cuda_fused_float_nchw_views_and_samples_equal_uint8(rng):
    from paintkit.kernels.counting.cie76_cuda import tolerance_histograms_cuda

    answers = torch.from_numpy(rng.integers(0, 256, (2, 33, 47, 3), dtype=np.uint8)).cuda()
    inputs = answers.clone()
    inputs[:, 5:20] = 17
    outputs = answers.repeat_interleave(3, dim=0)
    outputs[1::3] = inputs.repeat_interleave(1, dim=0)[:, None].expand(-1, 1, -1, -1, -1)[:, 0]
    planar = outputs.permute(0, 3, 1, 2).float() / 255  # (6, 3, H, W) float32
    bytes_hist, _ = tolerance_histograms_cuda(outputs, answers, inputs, samples=3)
    float_hist, outside = tolerance_histograms_cuda(planar.permute(0, 2, 3, 1), answers, inputs,
                                                    samples=3)
    assert torch.equal(bytes_hist, float_hist) and int(outside.sum()) == 0
    planar[0, 0, 0, 0] = 2.0
    assert tolerance_histograms_cuda(planar.permute(0, 2, 3, 1), answers, inputs,
                                     samples=3)[1].tolist() == [1, 0, 0, 0, 0, 0]

def test_cuda_every_memory_layout_counts_the_oracle(rng):
    """Contiguous NHWC words, planar words (a permuted contiguous NCHW batch), strided uint8
    values and float32 values: each kernel the layout picks gives the oracle's counts."""
    from paintkit.kernels.counting.bins import counts_from_histograms
    from paintkit.kernels.counting.cie76_cuda import memory_layout, tolerance_histograms_cuda

    inputs = (rng.integers(0, 4, (2, 32, 48, 1)) * np.array([60, 30, 90])).astype(np.uint8)
    answers = inputs.copy()
    answers[:, 8:20, 10:30] = [200, 10, 120]
    noise = rng.integers(-9, 10, (4, 32, 48, 3))
    outs = np.clip(answers[[0, 0, 1, 1]].astype(np.int64) + noise, 0, 255).astype(np.uint8)
    outs[3, 2:4] = rng.integers(0, 256, (2, 48, 3))
    o, a, i = (torch.from_numpy(x).cuda() for x in (outs, answers, inputs))
    wide = torch.zeros((4, 32, 96, 3), dtype=torch.uint8, device="cuda")
    wide[:, :, ::2] = o
    batches = {"words": o, "planar": o.permute(0, 3, 1, 2).contiguous().permute(0, 2, 3, 1),
               "values": wide[:, :, ::2]}
    for layout, batch in {**batches, "float": o.float() / 255}.items():
        assert memory_layout(batch, a, i) == ("values" if layout == "float" else layout)
        hist, _ = tolerance_histograms_cuda(batch, a, i, samples=2)
        counts = counts_from_histograms(hist.cpu())
        for n in range(4):
            ce, cp, changed = oracle_counts(outs[n], answers[n // 2], inputs[n // 2])
            assert counts["edit_correct"][n].tolist() == ce, (layout, n)
            assert counts["preservation_correct"][n].tolist() == cp, (layout, n)
            assert counts["changed"][n].tolist() == changed, (layout, n)


@pytest.mark.parametrize("per_thread", [None, 1])
def test_cuda_rewards_in_the_counting_launch_equal_reward_on_the_cpu(rng, per_thread):
    """The last of an output's blocks (4 or 256 blocks of a 256² output) writes its reward:
    the bits of ``reward`` on the CPU, for uint8 and float outputs and every tolerance."""
    from paintkit.kernels.counting.cie76_cuda import rewards_cuda
    from paintkit.metrics import reward

    inputs = (rng.integers(0, 4, (3, 256, 256, 1)) * np.array([60, 30, 90])).astype(np.uint8)
    answers = inputs.copy()
    answers[:, 40:120, 30:200] = [200, 10, 120]
    answers[2] = inputs[2]  # an empty edit region
    noise = rng.integers(-6, 7, (6, 256, 256, 3)) * (np.arange(6) % 3)[:, None, None, None]
    outs = np.clip(answers.repeat(2, 0).astype(np.int64) + noise, 0, 255).astype(np.uint8)
    o, a, i = (torch.from_numpy(x).cuda() for x in (outs, answers, inputs))
    for tolerance in (None, 0, 5, 10):
        expected = reward(outs, answers, inputs, samples_per_problem=2, tolerance=tolerance,
                          backend="numba")
        ours = rewards_cuda(o, a, i, samples=2, tolerance=tolerance, pixels_per_thread=per_thread)
        assert ours.is_cuda and ours.dtype == torch.float32
        assert torch.equal(ours.cpu(), expected), tolerance
    floats = o.float() / 255
    floats[4, 7, 9, 2] = float("nan")
    ours = rewards_cuda(floats.permute(0, 3, 1, 2).contiguous().permute(0, 2, 3, 1), a, i,
                        samples=2, pixels_per_thread=per_thread).cpu()
    expected = reward(outs, answers, inputs, samples_per_problem=2, backend="numba")
    assert torch.isnan(ours[4]) and torch.equal(ours[[0, 1, 2, 3, 5]], expected[[0, 1, 2, 3, 5]])
