"""The fused CUDA counting kernel, run in Numba's CUDA simulator: counts equal the oracle's.

``kernels/counting/cie76_cuda.py`` is the GPU's counting kernel; the simulator runs the
same kernel source (threads, shared memory, atomics) on NumPy arrays, so every case below
proves its indexing and counting without a GPU. Under ``NUMBA_ENABLE_CUDASIM=1`` the cases
run here (``NUMBA_ENABLE_CUDASIM=1 pytest -k cuda_sim``); in a plain run one test runs this
file again in a child process with the simulator on (Numba reads the switch at import).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba.core import config

from tests.support import metric_oracle as oracle

SIMULATOR = bool(config.ENABLE_CUDASIM)
NEAR_INTEGER = Path(__file__).resolve().parent / "data" / "near_integer_colours.npy"
needs_simulator = pytest.mark.skipif(not SIMULATOR, reason="runs inside the simulator child")


def oracle_histograms(out, ans, inp):
    """int64 ``(3, 12)`` from the oracle's cumulative counts (edit, preservation, changed)."""
    stats = oracle.problem_stats(out, ans, inp)["cie76_threshold"]
    edit = (ans != inp).any(axis=-1)
    totals = (int(edit.sum()), int((~edit).sum()), out.shape[0] * out.shape[1])
    cumulative = [[stats[str(t)]["edit_correct_pixels"] for t in range(11)],
                  [stats[str(t)]["preservation_correct_pixels"] for t in range(11)],
                  [totals[2] - stats[str(t)]["changed_pixels"] for t in range(11)]]
    hist = np.zeros((3, 12), np.int64)
    for h in range(3):
        c = np.array(cumulative[h] + [totals[h]], np.int64)
        hist[h] = np.diff(np.concatenate([[0], c]))
    return hist


def check(outputs, answers, inputs, samples=1, pixels_per_thread=None):
    from paintkit.kernels.counting.cie76_cuda import tolerance_histograms_cuda

    hist, outside = tolerance_histograms_cuda(outputs, answers, inputs, samples=samples,
                                              pixels_per_thread=pixels_per_thread)
    as_bytes = outputs if outputs.dtype == np.uint8 else \
        np.rint(outputs.astype(np.float32) * np.float32(255)).astype(np.uint8)
    for n in range(len(outputs)):
        k = n // samples
        expected = oracle_histograms(as_bytes[n], answers[k], inputs[k])
        assert hist[n].tolist() == expected.tolist(), f"output {n}"
    return hist, outside


def palette(rng, n, h, w, colours=5):
    inputs = rng.integers(0, colours, (n, h, w, 1)) * np.array([37, 91, 53])
    answers = inputs.copy()
    for k in range(n):
        y, x = rng.integers(0, h // 2), rng.integers(0, w // 2)
        answers[k, y:y + h // 2, x:x + w // 2] = rng.integers(0, 256, 3)
    return inputs.astype(np.uint8), answers.astype(np.uint8)


@needs_simulator
@pytest.mark.parametrize("pixels_per_thread", [None, 4])
@pytest.mark.parametrize("h, w", [(64, 64), (37, 53)])
def test_cuda_sim_noisy_outputs_of_several_problems_equal_the_oracle(h, w, pixels_per_thread):
    rng = np.random.default_rng(h * w)
    inputs, answers = palette(rng, 3, h, w)
    noise = rng.integers(-7, 8, answers.shape)
    outputs = np.clip(answers.astype(np.int64) + noise, 0, 255).astype(np.uint8)
    outputs[1] = inputs[1]  # the unchanged input
    outputs[2] = answers[2]  # a perfect output
    check(outputs, answers, inputs, pixels_per_thread=pixels_per_thread)


@needs_simulator
def test_cuda_sim_near_integer_pairs_equal_the_oracle():
    pairs = np.load(NEAR_INTEGER)[:400]  # (K, 2, 3): output colour, reference colour
    k = len(pairs)
    width = 40
    h = -(-k // width)
    pad = h * width - k
    out = np.concatenate([pairs[:, 0], pairs[:pad, 0]]).reshape(h, width, 3)
    ref = np.concatenate([pairs[:, 1], pairs[:pad, 1]]).reshape(h, width, 3)
    other = 255 - ref
    # the pairs as O vs A in the preservation region, in the edit region, and as O vs I
    outputs = np.stack([out, out, out])
    answers = np.stack([ref, ref, other])
    inputs = np.stack([ref, other, ref])
    check(outputs, answers, inputs)


@needs_simulator
def test_cuda_sim_all_equal_and_all_different_images():
    rng = np.random.default_rng(7)
    same = np.full((2, 24, 40, 3), 90, np.uint8)
    check(same.copy(), same[:1].copy(), same[:1].copy(), samples=2)  # O == A == I
    inputs = rng.integers(0, 256, (1, 24, 40, 3), dtype=np.uint8)
    answers = (inputs + 128).astype(np.uint8)  # every pixel edited
    outputs = (255 - answers).astype(np.uint8)  # every pixel wrong
    check(np.concatenate([outputs, answers, inputs]), np.repeat(answers, 3, 0),
          np.repeat(inputs, 3, 0))


@needs_simulator
def test_cuda_sim_g_outputs_per_target_read_one_target():
    rng = np.random.default_rng(3)
    inputs, answers = palette(rng, 2, 20, 30)
    samples = 4
    outputs = np.repeat(answers, samples, axis=0)
    noise = rng.integers(-12, 13, outputs.shape)
    outputs = np.clip(outputs.astype(np.int64) + noise * (np.arange(8) % 3)[:, None, None, None],
                      0, 255).astype(np.uint8)
    check(outputs, answers, inputs, samples=samples)


@needs_simulator
def test_cuda_sim_float_outputs_convert_in_the_kernel_and_count_bad_values():
    rng = np.random.default_rng(5)
    inputs, answers = palette(rng, 2, 16, 24)
    floats = answers.astype(np.float32) / np.float32(255)
    floats[1] += rng.normal(0, 0.01, floats[1].shape).astype(np.float32)
    floats = np.clip(floats, 0, 1)
    # (the simulator copies arrays whole, so strided views of (B, 3, H, W) tensors are
    # checked on a GPU by bench/device_check.py)
    _, outside = check(floats, answers, inputs)
    assert outside.tolist() == [0, 0]
    from paintkit.kernels.counting.cie76_cuda import tolerance_histograms_cuda

    floats[0, 0, 0, 0] = -0.5
    floats[0, 1, 1, 1] = np.nan
    floats[1, 2, 2, 2] = 1.0001
    assert tolerance_histograms_cuda(floats, answers, inputs)[1].tolist() == [2, 1]


@needs_simulator
def test_cuda_sim_every_memory_layout_counts_the_same():
    """One batch read as contiguous ``(N, H, W, 3)`` words, as planar words (a permuted view
    of a contiguous ``(N, 3, H, W)`` batch), as strided values and as float32 values: each
    kernel the layout picks gives the oracle's counts."""
    from paintkit.kernels.counting.cie76_cuda import memory_layout

    rng = np.random.default_rng(9)
    inputs, answers = palette(rng, 2, 12, 20)
    noise = rng.integers(-9, 10, (4, *answers.shape[1:]))
    outputs = np.clip(answers[[0, 0, 1, 1]].astype(np.int64) + noise, 0, 255).astype(np.uint8)
    outputs[3, 4:6] = rng.integers(0, 256, (2, 20, 3))
    planar = np.ascontiguousarray(outputs.transpose(0, 3, 1, 2)).transpose(0, 2, 3, 1)
    wide = np.zeros((4, 12, 40, 3), np.uint8)
    wide[:, :, ::2] = outputs
    strided = wide[:, :, ::2]
    floats = outputs.astype(np.float32) / np.float32(255)
    for layout, batch in {"words": outputs, "planar": planar}.items():
        assert memory_layout(batch, answers, inputs) == layout
        hist, _ = check(batch, answers, inputs, samples=2, pixels_per_thread=2)
    # (the simulator transfers contiguous buffers only: tests/metrics/test_counts_cuda.py
    # counts strided batches on a GPU)
    assert memory_layout(strided, answers, inputs) == "values"
    assert memory_layout(floats, answers, inputs) == "values"
    assert check(floats, answers, inputs, samples=2)[0].tolist() == hist.tolist()
    odd = outputs[:, :, :19]  # H * W = 228 is divisible by 4, 12 x 19 is not
    assert memory_layout(odd, answers[:, :, :19], inputs[:, :, :19]) == "pixels"
    assert memory_layout(outputs, np.asfortranarray(answers), inputs) == "pixels"


@needs_simulator
def test_cuda_sim_rewards_in_the_same_launch_equal_reward_on_the_cpu():
    """The last block of each output turns its histograms into its reward: the bits of
    ``reward`` on the CPU, with one block per output and with two."""
    from paintkit.kernels.counting.cie76_cuda import rewards_cuda
    from paintkit.metrics import reward

    rng = np.random.default_rng(11)
    inputs, answers = palette(rng, 4, 16, 32)
    outputs = np.repeat(answers, 2, axis=0)
    noise = rng.integers(-9, 10, outputs.shape) * (np.arange(8) % 4)[:, None, None, None]
    outputs = np.clip(outputs.astype(np.int64) + noise, 0, 255).astype(np.uint8)
    outputs[0] = inputs[0]  # nothing done
    answers[3] = inputs[3]  # an empty edit region: IoU 1.0 where the denominator is 0
    floats = outputs.astype(np.float32) / np.float32(255)
    floats[5, 3, 4, 1] = 2.0  # a float output with a value outside [0, 1]: NaN
    # 512 pixels: two blocks of 256 threads x 1 pixel (the last block writes the reward) for
    # the first two problems; one block of 16 pixels a thread for the floats of the third
    runs = ((outputs[:4], 0, None, 1), (floats[4:6], 2, 4, None))
    for batch, first, tolerance, per_thread in runs:
        problems = slice(first, first + len(batch) // 2)
        ours = rewards_cuda(batch, answers[problems], inputs[problems], samples=2,
                            tolerance=tolerance, pixels_per_thread=per_thread)
        expected = reward(outputs[2 * first:2 * first + len(batch)], answers[problems],
                          inputs[problems], samples_per_problem=2, tolerance=tolerance,
                          backend="numba").numpy()
        if batch.dtype == np.float32:
            expected[1] = np.nan  # floats[5]
        assert ours.dtype == np.float32
        # bit for bit (NaN where NaN)
        np.testing.assert_array_equal(ours, expected, err_msg=f"tolerance {tolerance}")
    with pytest.raises(ValueError, match="tolerance"):
        rewards_cuda(outputs, answers, inputs, samples=2, tolerance=11)


@needs_simulator
def test_cuda_sim_wrong_shapes_are_refused():
    from paintkit.kernels.counting.cie76_cuda import tolerance_histograms_cuda

    a = np.zeros((2, 8, 8, 3), np.uint8)
    with pytest.raises(ValueError, match="expected"):
        tolerance_histograms_cuda(np.zeros((3, 8, 8, 3), np.uint8), a, a)
    with pytest.raises(ValueError, match="expected"):
        tolerance_histograms_cuda(np.zeros((2, 8, 9, 3), np.uint8), a, a)


def pass_in_a_simulator_process(test_file: str, keyword: str, expected: int) -> None:
    """Runs the ``keyword`` cases of ``test_file`` in a child process with the simulator on
    (Numba reads the switch at import) and checks that ``expected`` of them pass."""
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", "-k", keyword,
         str(Path(test_file).resolve().relative_to(root))],
        cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert f"{expected} passed" in run.stdout, run.stdout[-3000:]


@pytest.mark.skipif(SIMULATOR, reason="already inside the simulator")
def test_cuda_sim_cases_pass_in_a_simulator_process():
    pass_in_a_simulator_process(__file__, "cuda_sim", 11)


@pytest.mark.skipif(SIMULATOR, reason="the probe is for a real CUDA target")
def test_a_numba_cuda_that_cannot_compile_falls_back_with_one_warning(monkeypatch):
    """numba-cuda 0.30.4 with NumPy 2.5 fails to compile any kernel (``np.row_stack``): the
    first H200 run found it. The probe turns that into one warning and the torch kernel."""
    from paintkit.kernels.counting import cie76_cuda as kernel

    def broken(*args, **kwargs):
        raise AttributeError("module 'numpy' has no attribute 'row_stack'")

    monkeypatch.setattr(kernel.cuda, "is_available", lambda: True)
    monkeypatch.setattr(kernel.cuda, "to_device", broken)
    monkeypatch.setattr(kernel, "_AVAILABLE", [])
    with pytest.warns(RuntimeWarning, match="torch kernel instead"):
        assert kernel.cuda_kernel_available() is False
    assert kernel.cuda_kernel_available() is False  # decided once per process
