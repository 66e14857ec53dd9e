"""``PAINTKIT_TORCH_COMPILE=1``: the compiled per-pixel loop counts exactly, or steps aside.

The loop is :func:`~paintkit.kernels.tolerance_counts_compiled.pair_index`; run eagerly in
its place it must give the eager kernel's (and the oracle's) counts, so compiling it only
has to preserve its float32 operations. Compiling itself needs a C++ compiler and seconds:
that test is slow.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from test_exact_counts_torch import adversarial_problems, oracle_counts

import paintkit.kernels.tolerance_counts_compiled as tcc
import paintkit.kernels.tolerance_counts_torch as tct
from paintkit.kernels.tolerance_counts import counts_from_histograms


def noisy_problems(rng, n=5, h=24, w=40):
    inp = rng.integers(0, 256, (n, h, w, 3), dtype=np.uint8)
    ans = inp.copy()
    ans[:, 4:14, 6:30] = rng.integers(0, 256, 3, dtype=np.uint8)
    out = np.clip(ans.astype(int) + rng.integers(-6, 7, ans.shape), 0, 255).astype(np.uint8)
    out[0] = ans[0]  # O == A: bins 0
    return out, ans, inp


def histograms(out, ans, inp, step=None, return_bins=False):
    o, a, i = (torch.from_numpy(x) for x in (out, ans, inp))
    return tct.tolerance_histograms_torch(o, a, i, max_pixels_per_step=step,
                                          return_bins=return_bins)


def assert_counts_like_the_oracle_and_eager(monkeypatch, rng):
    outs, answers, inputs = adversarial_problems(rng)
    counts = counts_from_histograms(histograms(outs, answers, inputs))
    for k in range(len(outs)):
        ce, cp, changed = oracle_counts(outs[k], answers[k], inputs[k])
        assert counts["edit_correct"][k].tolist() == ce
        assert counts["preservation_correct"][k].tolist() == cp
        assert counts["changed"][k].tolist() == changed
    problems = noisy_problems(rng)
    for step in (None, 200, 2 * 24 * 40):  # chunks: whole batch, part of a problem, 2 problems
        ours = histograms(*problems, step=step, return_bins=True)
        with monkeypatch.context() as eager:
            eager.setattr(tct, "compiled_pair_index", lambda device: None)
            expected = histograms(*problems, step=step, return_bins=True)
        assert torch.equal(ours[0], expected[0]) and torch.equal(ours[1], expected[1])


def test_pair_index_run_eagerly_counts_like_the_kernel(monkeypatch, rng):
    used = []
    monkeypatch.setattr(tct, "compiled_pair_index",
                        lambda device: used.append(device) or tcc.pair_index)
    assert_counts_like_the_oracle_and_eager(monkeypatch, rng)
    assert used


def test_a_failing_compile_warns_once_and_counts_eagerly(monkeypatch, rng):
    def broken(*args, **kwargs):
        raise RuntimeError("no C++ compiler")

    monkeypatch.setenv(tcc.COMPILE_ENV, "1")
    monkeypatch.setattr(tcc, "_state", {"compiled": {tcc.pair_index: broken}, "failed": False})
    out, ans, inp = noisy_problems(rng)
    with monkeypatch.context() as eager:
        eager.setattr(tct, "compiled_pair_index", lambda device: None)
        expected = histograms(out, ans, inp)
    with pytest.warns(RuntimeWarning, match="PAINTKIT_TORCH_COMPILE=1: torch.compile of a "
                                            "per-pixel loop failed.*no C\\+\\+ compiler"):
        assert torch.equal(histograms(out, ans, inp), expected)
    assert tcc._state["failed"] and tcc.compiled_pair_index(torch.device("cpu")) is None


def test_compile_is_off_unless_asked_and_on_cpu_only(monkeypatch):
    monkeypatch.setattr(tcc, "_state", {"compiled": {tcc.pair_index: tcc.pair_index},
                                        "failed": False})
    monkeypatch.delenv(tcc.COMPILE_ENV, raising=False)
    assert tcc.compiled_pair_index(torch.device("cpu")) is None
    monkeypatch.setenv(tcc.COMPILE_ENV, "1")
    assert tcc.compiled_pair_index(torch.device("cpu")) is tcc.pair_index
    assert tcc.compiled_pair_index(torch.device("cuda")) is None


@pytest.mark.slow
def test_the_compiled_loop_counts_exactly(monkeypatch, rng):
    monkeypatch.setenv(tcc.COMPILE_ENV, "1")
    monkeypatch.setattr(tcc, "_state", {"compiled": {}, "failed": False})
    assert_counts_like_the_oracle_and_eager(monkeypatch, rng)
    assert tcc.pair_index in tcc._state["compiled"] and not tcc._state["failed"]


@pytest.mark.slow
@pytest.mark.parametrize("bad", [None, float("nan"), 1.0001, -0.0001])
def test_the_compiled_float_pass_rounds_like_torch_and_checks_the_range(bad, monkeypatch, rng):
    from paintkit.metrics.coerce import scale_to_uint8, tensor_to_uint8_nhwc

    monkeypatch.setenv(tcc.COMPILE_ENV, "1")
    monkeypatch.setattr(tcc, "_state", {"compiled": {}, "failed": False})
    x = torch.from_numpy(rng.random((2, 3, 30, 31), dtype=np.float32))
    x.view(-1)[:256] = ((torch.arange(256, dtype=torch.float32) + 0.5) / 255).clamp(max=1.0)
    if bad is None:
        ours = tensor_to_uint8_nhwc(x, "outputs", numba=False)
        assert torch.equal(ours, torch.round(x * 255).to(torch.uint8).permute(0, 2, 3, 1))
    else:
        x.view(-1)[-1] = bad
        with pytest.raises(ValueError, match="got 1 values outside"):
            tensor_to_uint8_nhwc(x, "outputs", numba=False)
    assert scale_to_uint8 in tcc._state["compiled"] and not tcc._state["failed"]
