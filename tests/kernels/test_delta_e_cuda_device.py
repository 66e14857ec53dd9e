"""CIE94, CIEDE2000 and ``lab="compute"`` in the fused kernel on a real GPU (skipped without
one; the simulator proof is ``test_delta_e_cuda_sim.py``): the CPU kernels' counts, and
``reward(delta_e=...)`` on CUDA goes through the fused kernel without a synchronisation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(),
                                reason="needs a CUDA device (none on this machine)")
FORMULAS = ("cie76", "cie94", "ciede2000")


def noisy_batch(rng, n=3, h=48, w=64, spread=9):
    answers = rng.integers(0, 256, (1, h, w, 3), dtype=np.uint8)
    inputs = answers.copy()
    inputs[:, : h // 2] = 255 - inputs[:, : h // 2]
    outputs = np.clip(np.repeat(answers, n, 0).astype(np.int64)
                      + rng.integers(-spread, spread + 1, (n, h, w, 3)), 0, 255).astype(np.uint8)
    return outputs, answers, inputs


@pytest.mark.parametrize("lab", ["table", "compute"])
@pytest.mark.parametrize("formula", FORMULAS)
def test_cuda_fused_formula_counts_equal_the_cpu_kernel(formula, lab):
    from paintkit.kernels.counting.cie76_cuda import tolerance_histograms_cuda
    from paintkit.kernels.counting.formulas import tolerance_histograms_delta_e

    outputs, answers, inputs = noisy_batch(np.random.default_rng(len(formula)))
    o, a, i = (torch.from_numpy(x).cuda() for x in (outputs, answers, inputs))
    hist, _ = tolerance_histograms_cuda(o, a, i, samples=3, delta_e=formula, lab=lab)
    expected = tolerance_histograms_delta_e(outputs, answers, inputs, formula,
                                            samples_per_problem=3)
    assert hist.cpu().tolist() == expected.tolist()


@pytest.mark.parametrize("formula", FORMULAS)
def test_cuda_reward_with_a_formula_is_fused_and_never_synchronises(formula, monkeypatch):
    from paintkit.kernels.counting import cie76_cuda
    from paintkit.metrics import prepare_targets, reward
    from paintkit.metrics.counts import fused_cuda_available

    if not fused_cuda_available():
        pytest.skip("Numba's CUDA target cannot run the fused kernel here")
    outputs, answers, inputs = noisy_batch(np.random.default_rng(7))
    cpu = reward(outputs, answers, inputs, samples_per_problem=3, delta_e=formula)
    targets = prepare_targets(torch.from_numpy(answers).cuda(), torch.from_numpy(inputs).cuda(),
                              device="cuda")
    batch = torch.from_numpy(outputs).cuda().permute(0, 3, 1, 2)
    calls = []
    original = cie76_cuda.rewards_cuda
    monkeypatch.setattr(cie76_cuda, "rewards_cuda",
                        lambda *a, **k: calls.append(k.get("delta_e")) or original(*a, **k))
    reward(batch, targets, samples_per_problem=3, delta_e=formula)  # warm: compiles
    torch.cuda.synchronize()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        torch.cuda.set_sync_debug_mode("warn")
        try:
            ours = reward(batch, targets, samples_per_problem=3, delta_e=formula)
        finally:
            torch.cuda.set_sync_debug_mode("default")
    assert calls == [formula, formula]
    assert [str(w.message) for w in seen if "synchroniz" in str(w.message)] == []
    assert ours.cpu().numpy().view(np.int32).tolist() == cpu.numpy().view(np.int32).tolist()
