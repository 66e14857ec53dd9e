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
    from paintkit.kernels.tolerance_counts import counts_from_histograms
    from paintkit.kernels.tolerance_counts_cuda import tolerance_histograms_cuda

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
    from paintkit.kernels.tolerance_counts_cuda import tolerance_histograms_cuda

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
