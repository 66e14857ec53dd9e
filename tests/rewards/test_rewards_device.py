"""Rewards inside training loops: device-true batches, prepared targets, GRPO samples.

The transfer-counting tests patch the Tensor methods that move data between host and device
and assert the hot path (after a warm-up call that prepares targets and constants) calls
none of them. They run on CPU here and on CUDA where one is present.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.metrics import PixelEditIoUAccumulator, prepare_targets, reward, score
from tests.support import metric_oracle as oracle
from tests.support.metric_images import palette_pair

DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(
    not torch.cuda.is_available(), reason="needs a CUDA device (none on this machine)"))]
SIZES = [(24, 16), (16, 16), (16, 24)]  # (H, W): PaintBench's three canvas shapes, small


def mixed_problems(rng, n=7):
    """``n`` problems cycling through three canvas sizes, outputs near the answers."""
    inputs, answers, outputs = [], [], []
    for k in range(n):
        h, w = SIZES[k % 3]
        inp, ans = palette_pair(rng, h, w)
        out = ans.copy()
        noise = rng.random((h, w)) < 0.3
        out[noise] = rng.integers(0, 256, (int(noise.sum()), 3), dtype=np.uint8)
        inputs.append(inp)
        answers.append(ans)
        outputs.append(out)
    return inputs, answers, outputs


def oracle_miou(out, ans, inp):
    return oracle.problem_stats(out, ans, inp)["cie76_mean"]["iou"]


class TransferCounter:
    """Counts calls that move tensor data between host and device."""

    def __init__(self, monkeypatch):
        self.calls = []
        for name in ("cpu", "numpy", "tolist", "item", "cuda"):
            original = getattr(torch.Tensor, name)

            def wrapper(tensor, *args, _name=name, _original=original, **kwargs):
                if not (_name == "numpy" and tensor.device.type == "cpu"):  # a view, no copy
                    self.calls.append(_name)
                return _original(tensor, *args, **kwargs)

            monkeypatch.setattr(torch.Tensor, name, wrapper)
        original_to = torch.Tensor.to

        def to(tensor, *args, **kwargs):
            result = original_to(tensor, *args, **kwargs)
            if result.device != tensor.device:
                self.calls.append(f"to {tensor.device}->{result.device}")
            return result

        monkeypatch.setattr(torch.Tensor, "to", to)


# (device, backend): on CUDA "auto" is the fused Numba CUDA kernel where Numba's CUDA target
# runs (on the CPU it is the Numba CPU kernel, which reads NumPy views: not these tests' subject)
PATHS = [("cpu", "torch")] + [pytest.param(*p, marks=pytest.mark.skipif(
    not torch.cuda.is_available(), reason="needs a CUDA device (none on this machine)"))
    for p in (("cuda", "torch"), ("cuda", "auto"))]


@pytest.mark.parametrize("device, backend", PATHS)
def test_mixed_sizes_stay_on_device_in_input_order(device, backend, rng, monkeypatch):
    inputs, answers, outputs = mixed_problems(rng)
    dev = torch.device(device)
    to_dev = [lambda xs: [torch.from_numpy(x).permute(2, 0, 1).to(dev) for x in xs]][0]
    targets = prepare_targets(to_dev(answers), to_dev(inputs))
    outs = [o.float() / 255 for o in to_dev(outputs)]  # (3, H, W) float in [0, 1]
    warm = reward(outs, targets, backend=backend)  # prepares Lab, masks, lookup tables
    counter = TransferCounter(monkeypatch)
    r = reward(outs, targets, backend=backend)
    assert counter.calls == []
    monkeypatch.undo()
    assert r.device.type == dev.type and r.shape == (len(outputs),) and r.dtype == torch.float32
    assert torch.equal(r, warm)
    expected = [oracle_miou(o, a, i) for o, a, i in zip(outputs, answers, inputs, strict=True)]
    np.testing.assert_allclose(r.cpu().numpy(), expected, rtol=0, atol=1e-6)


@pytest.mark.parametrize("device, backend", PATHS)
def test_batch_tensor_reward_makes_no_host_transfers(device, backend, rng, monkeypatch):
    pairs = [palette_pair(rng, 16, 24) for _ in range(4)]
    inp = torch.from_numpy(np.stack([p[0] for p in pairs])).to(device)
    ans = torch.from_numpy(np.stack([p[1] for p in pairs])).to(device)
    targets = prepare_targets(ans, inp, device=device)
    outputs = (ans.float() / 255 * 0.9).permute(0, 3, 1, 2)  # NCHW float
    warm = reward(outputs, targets, backend=backend)
    counter = TransferCounter(monkeypatch)
    r = reward(outputs, targets, backend=backend)
    acc = PixelEditIoUAccumulator(backend=backend)
    acc.update(outputs, targets)
    assert counter.calls == []
    monkeypatch.undo()
    assert torch.equal(r, warm) and r.device.type == torch.device(device).type
    assert acc.state["problems"].device.type == torch.device(device).type
    assert acc.compute()["problems"] == 4


def test_list_reward_equals_score_per_problem(rng):
    inputs, answers, outputs = mixed_problems(rng, n=6)
    tensors = [torch.from_numpy(x) for x in outputs]
    r = reward(tensors, [torch.from_numpy(a) for a in answers], [torch.from_numpy(i) for i in inputs])
    per_problem = [score([o], [a], [i])[0].miou for o, a, i in zip(outputs, answers, inputs, strict=True)]
    np.testing.assert_allclose(r.numpy(), per_problem, atol=1e-6)
    r_torch = reward(tensors, answers, inputs, backend="torch")
    np.testing.assert_allclose(r_torch.numpy(), per_problem, atol=1e-6)


def test_outputs_of_another_size_and_missing_ones_keep_their_place(rng):
    inputs, answers, outputs = mixed_problems(rng, n=6)
    outs = [torch.from_numpy(o) for o in outputs]
    outs[1] = torch.from_numpy(np.ascontiguousarray(np.repeat(outputs[1], 2, axis=0)))  # taller
    outs[4] = None
    r = reward(outs, answers, inputs, backend="torch", fit="cover")  # the metric's normalisation
    ref = score([o.numpy() if o is not None else None for o in outs], answers, inputs,
                backend="numba")
    np.testing.assert_allclose(r.numpy(), [s.miou for s in ref], atol=1e-6)
    assert r[4] == 0


def test_one_output_size_against_mixed_answer_sizes(rng):
    """A policy rendering every output at one size, answers of three canvas shapes."""
    inputs, answers, outputs = mixed_problems(rng, n=6)
    square = [np.asarray(Image.fromarray(o).resize((20, 20), Image.NEAREST)) for o in outputs]
    batch = torch.from_numpy(np.stack(square))
    r = reward(batch, answers, inputs, backend="torch", fit="cover")
    expected = [oracle_miou(o, a, i) for o, a, i in zip(square, answers, inputs, strict=True)]
    np.testing.assert_allclose(r.numpy(), expected, atol=1e-6)
    r_numba = reward(batch, answers, inputs, backend="numba", fit="cover")
    np.testing.assert_allclose(r_numba.numpy(), expected, atol=1e-6)


def test_outputs_on_another_device_are_refused_not_copied(rng):
    inp, ans = palette_pair(rng, 8, 8)
    targets = prepare_targets([torch.from_numpy(ans)] * 2, [torch.from_numpy(inp)] * 2)
    elsewhere = torch.empty((8, 8, 3), dtype=torch.uint8, device="meta")
    with pytest.raises(ValueError, match=r"outputs\[1\]: expected a tensor on cpu"):
        reward([torch.from_numpy(ans), elsewhere], targets, backend="torch")


@pytest.mark.parametrize("backend", ["numba", "torch"])
def test_grpo_samples_share_one_target(backend, rng):
    g = 3
    pairs = [palette_pair(rng, 16, 16) for _ in range(2)]
    inp = torch.from_numpy(np.stack([p[0] for p in pairs]))
    ans = torch.from_numpy(np.stack([p[1] for p in pairs]))
    targets = prepare_targets(ans, inp)
    samples = ans.repeat_interleave(g, dim=0).clone()
    samples[1::g] = inp.repeat_interleave(1, dim=0)  # sample 1 of each problem: no edit
    r = reward(samples, targets, samples_per_problem=g, backend=backend)
    expected = [oracle_miou(samples[k].numpy(), ans[k // g].numpy(), inp[k // g].numpy())
                for k in range(len(samples))]
    np.testing.assert_allclose(r.numpy(), expected, atol=1e-6)
    if backend == "torch":
        groups = targets.torch_groups("cpu")
        assert groups[0].lab_answers.shape[0] == 2  # one prepared target per problem
        listed = reward(list(samples), targets, samples_per_problem=g, backend="torch")
        np.testing.assert_allclose(listed.numpy(), expected, atol=1e-6)
    with pytest.raises(ValueError, match="2 problems x 3 samples"):
        reward(samples[:5], targets, samples_per_problem=g, backend=backend)


def test_tolerance_refuses_bool_and_accepts_numpy_integers():
    # Issue 10 item 16: tolerance=True returned shape (B, 1, 11).
    inp = torch.zeros(2, 3, 8, 8, dtype=torch.uint8)
    ans = inp.clone()
    ans[:, 0] = 255
    out = ans.clone()
    out[:, 1] = 40
    for bad in (True, False, np.bool_(True), 2.0, 11, -1, "3"):
        with pytest.raises(ValueError, match="tolerance"):
            reward(out, ans, inp, tolerance=bad)
    for t in (np.int64(3), np.uint8(3), np.int32(3)):
        value = reward(out, ans, inp, tolerance=t)
        assert value.shape == (2,)
        assert torch.equal(value, reward(out, ans, inp, tolerance=3))


def test_prepared_targets_are_built_once_and_reused(rng, monkeypatch):
    import paintkit.kernels.counting.cie76_torch as tct

    inputs, answers, outputs = mixed_problems(rng, n=6)
    targets = prepare_targets([torch.from_numpy(a) for a in answers],
                                [torch.from_numpy(i) for i in inputs], device="cpu")
    assert len(targets.torch_groups("cpu")) == 3
    calls = []
    original = tct.srgb_to_lab_exact
    monkeypatch.setattr(tct, "srgb_to_lab_exact", lambda x: calls.append(x.shape) or original(x))
    for _ in range(3):
        reward([torch.from_numpy(o) for o in outputs], targets, backend="torch")
    assert calls == []  # the answers' and inputs' Lab were not converted again


@pytest.mark.parametrize("compiler", ["aot_eager", pytest.param("inductor", marks=pytest.mark.slow)])
def test_reward_compiles_with_prepared_targets(compiler, rng):
    pairs = [palette_pair(rng, 16, 16) for _ in range(2)]
    inp = torch.from_numpy(np.stack([p[0] for p in pairs]))
    ans = torch.from_numpy(np.stack([p[1] for p in pairs]))
    targets = prepare_targets(ans, inp, device="cpu")

    def step(outputs):
        return reward(outputs, targets, backend="torch") * 2.0

    outputs = ans.permute(0, 3, 1, 2).float() / 255
    compiled = torch.compile(step, backend=compiler)  # graph breaks allowed, never wrong
    assert torch.equal(compiled(outputs), step(outputs))
