"""CIE94, CIEDE2000 and the in-kernel canonical Lab of the fused CUDA kernel, in Numba's CUDA
simulator: the CPU Numba kernels' bits.

The simulator runs the kernels' source (threads, shared memory, atomics) on NumPy arrays,
with every float64 operation a separately rounded NumPy one, so these cases prove the
device code evaluates the canonical arithmetic in the CPU's order. On the device the same
source compiles every operation to a round-to-nearest intrinsic; the PTX test below checks
that no fused multiply-add appears in any variant (compiled here, no GPU needed). Under
``NUMBA_ENABLE_CUDASIM=1`` the simulator cases run here; in a plain run one test runs them
in a child process.
"""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest
from numba import cuda
from numba.core import config

from tests.metrics.test_counts_cuda_sim import pass_in_a_simulator_process
from tests.support.sharma_pairs import SHARMA_PAIRS

SIMULATOR = bool(config.ENABLE_CUDASIM)
needs_simulator = pytest.mark.skipif(not SIMULATOR, reason="runs inside the simulator child")
FORMULAS = ("cie94", "ciede2000")


def rgb_grid(step: int) -> np.ndarray:
    """uint8 ``(N, 3)``: every colour with channels in ``0, step, 2 step, ..`` and 255."""
    levels = np.unique(np.r_[np.arange(0, 256, step), 255]).astype(np.uint8)
    return np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), -1).reshape(-1, 3)


@functools.cache
def near_threshold_pairs(formula: str, references: int = 6, reach: int = 16) -> np.ndarray:
    """uint8 ``(K, 2, 3)`` (sample, reference): per reference colour and integer tolerance
    t = 1..10, the neighbour colours whose canonical ΔE lies closest below and above t."""
    from paintkit.kernels.color.delta_e_numba import delta_e_rgb_numba

    rng = np.random.default_rng(sum(map(ord, formula)))
    steps = np.arange(-reach, reach + 1)
    offsets = np.stack(np.meshgrid(steps, steps, steps, indexing="ij"), -1).reshape(-1, 3)
    pairs = []
    for ref in rng.integers(20, 236, (references, 3)):
        samples = np.clip(ref + offsets, 0, 255).astype(np.uint8)
        d = delta_e_rgb_numba(np.broadcast_to(ref.astype(np.uint8), samples.shape).copy(),
                              samples, formula)
        for t in range(1, 11):
            for side in (d <= t, d > t):
                if side.any():
                    k = np.flatnonzero(side)[np.argmin(np.abs(d[side] - t))]
                    pairs.append((samples[k], ref))
    return np.asarray(pairs, np.uint8)


def hue_pairs(limit: int = 40) -> np.ndarray:
    """uint8 ``(K, 2, 3)``: pairs across hue 0 / 2 pi (a > 0, b of either sign), of nearly
    opposite hues (CIEDE2000's mean-hue branch at |h1 - h2| = pi, both sides of
    h1 + h2 = 2 pi), and black (exactly achromatic) against colours."""
    from paintkit.kernels.color.lab_canonical import canonical_lab

    colours = rgb_grid(32)
    lab = canonical_lab(colours).astype(np.float64)
    hue = np.mod(np.arctan2(lab[:, 2], lab[:, 1]), 2 * np.pi)  # selection only
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    chosen = []
    wrap_up = np.flatnonzero((lab[:, 1] > 1) & (lab[:, 2] > 0) & (hue < 0.3))
    wrap_down = np.flatnonzero((lab[:, 1] > 1) & (lab[:, 2] < 0) & (hue > 2 * np.pi - 0.3))
    chosen += [(i, j) for i, j in zip(wrap_up[:limit], wrap_down[::-1][:limit], strict=False)]
    i, j = np.triu_indices(len(colours), 1)
    apart = np.abs(np.abs(hue[i] - hue[j]) - np.pi)
    for low_sum in (True, False):
        side = (hue[i] + hue[j] < 2 * np.pi) == low_sum
        near = np.flatnonzero(side & (apart < 0.02) & (chroma[i] > 1) & (chroma[j] > 1))
        chosen += [(i[k], j[k]) for k in near[:limit]]
    black = np.flatnonzero((colours == 0).all(axis=1))[0]
    chosen += [(black, k) for k in range(0, len(colours), len(colours) // 12)]
    chosen += [(k, k + 1) for k in range(0, 8 * 81, 81)]  # greys and near-greys
    return np.stack([colours[[p for p, _ in chosen]], colours[[q for _, q in chosen]]], 1)


def test_the_case_builders_reach_every_threshold_and_branch():
    """The cases are what the docstrings say: both sides of every integer tolerance within
    a small distance, and the hue branches populated (runs without the simulator)."""
    from paintkit.kernels.color.delta_e_numba import delta_e_rgb_numba

    for formula in FORMULAS:
        pairs = near_threshold_pairs(formula)
        d = delta_e_rgb_numba(pairs[:, 1].copy(), pairs[:, 0].copy(), formula)
        for t in range(1, 11):
            assert (d <= t).any() and (d > t).any()
            assert np.min(np.abs(d - t)) < 0.05, (formula, t)
    assert len(hue_pairs()) >= 100


def simulated_delta_e(lab1: np.ndarray, lab2: np.ndarray, formula: str) -> np.ndarray:
    """float64 ΔE of float32 Lab ``(K, 3)`` pairs (``lab1`` the reference) by the device
    functions, one simulated thread per pair."""
    from paintkit.kernels.counting import delta_e_cuda

    function = {"cie94": delta_e_cuda.cie94, "ciede2000": delta_e_cuda.ciede2000}[formula]

    @cuda.jit
    def kernel(x, y, out):
        k = cuda.grid(1)
        if k < out.shape[0]:
            out[k] = function(np.float64(x[k, 0]), np.float64(x[k, 1]), np.float64(x[k, 2]),
                              np.float64(y[k, 0]), np.float64(y[k, 1]), np.float64(y[k, 2]))

    out = np.zeros(len(lab1), np.float64)
    kernel[-(-len(lab1) // 128), 128](lab1, lab2, out)
    return out


@needs_simulator
@pytest.mark.parametrize("formula", FORMULAS)
def test_cuda_sim_delta_e_device_functions_equal_the_cpu_bits(formula):
    from paintkit.kernels.color.delta_e_numba import delta_e_numba
    from paintkit.kernels.color.lab_canonical import canonical_lab

    rgb = np.concatenate([near_threshold_pairs(formula), hue_pairs()])
    rng = np.random.default_rng(1)
    rgb = np.concatenate([rgb, rng.integers(0, 256, (100, 2, 3), dtype=np.uint8)])
    lab = canonical_lab(rgb)  # float32 (K, 2, 3)
    sharma = np.asarray(SHARMA_PAIRS, np.float32)[:, :6].reshape(-1, 2, 3)
    lab = np.concatenate([lab, sharma, sharma[:, ::-1]])
    reference, sample = np.ascontiguousarray(lab[:, 1]), np.ascontiguousarray(lab[:, 0])
    ours = simulated_delta_e(reference, sample, formula)
    expected = delta_e_numba(reference.astype(np.float64), sample.astype(np.float64), formula)
    assert ours.view(np.int64).tolist() == expected.view(np.int64).tolist()


@needs_simulator
def test_cuda_sim_lab_computed_in_the_kernel_is_the_tables_bits():
    from paintkit.kernels.color.lab_canonical import canonical_lab
    from paintkit.kernels.counting.lab_cuda import lab_of_code

    @cuda.jit
    def kernel(codes, out):
        k = cuda.grid(1)
        if k < codes.shape[0]:
            lab = lab_of_code(codes, codes[k])
            out[k, 0] = lab[0]
            out[k, 1] = lab[1]
            out[k, 2] = lab[2]

    rng = np.random.default_rng(2)
    greys = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, 1)  # the f(t) branch point
    primaries = np.array([[v * (c == 0), v * (c == 1), v * (c == 2)] for c in range(3)
                          for v in range(0, 256, 5)], np.uint8)
    corners = np.array([[255, 255, 255], [0, 0, 0], [255, 0, 255], [0, 255, 255]], np.uint8)
    rgb = np.concatenate([greys, primaries, rng.integers(0, 256, (500, 3), dtype=np.uint8),
                          corners])
    codes = (rgb[:, 0].astype(np.int64) << 16) | (rgb[:, 1].astype(np.int64) << 8) | rgb[:, 2]
    out = np.zeros((len(codes), 3), np.float32)
    kernel[-(-len(codes) // 128), 128](codes, out)
    assert out.view(np.int32).tolist() == canonical_lab(rgb).view(np.int32).tolist()


def pair_images(pairs: np.ndarray, width: int = 16):
    """``(outputs, answers, inputs)`` of one problem holding ``pairs`` (sample, reference):
    output = sample, answer = reference, input = the reference on even pixels (preservation
    region, the pair again as ΔE(O, I)) and its complement on odd ones (edit region)."""
    k = -(-len(pairs) // width) * width
    pairs = np.concatenate([pairs, pairs[:k - len(pairs)]])
    out = pairs[:, 0].reshape(-1, width, 3)
    ans = pairs[:, 1].reshape(-1, width, 3)
    inp = ans.copy()
    inp[:, 1::2] = 255 - inp[:, 1::2]
    return tuple(np.ascontiguousarray(x[None]) for x in (out, ans, inp))


@needs_simulator
@pytest.mark.parametrize("lab, tolerance", [("table", None), ("compute", 3)])
@pytest.mark.parametrize("formula", ["cie76", *FORMULAS])
def test_cuda_sim_fused_counts_and_rewards_equal_the_cpu_kernels(formula, lab, tolerance):
    """Histograms and in-launch rewards of near-threshold, hue-branch and noisy outputs, per
    formula and Lab source, equal the CPU Numba kernel's and ``reward``'s bits."""
    from paintkit.kernels.counting.cie76_cuda import rewards_cuda, tolerance_histograms_cuda
    from paintkit.kernels.counting.formulas import tolerance_histograms_delta_e
    from paintkit.metrics import reward

    chosen = np.concatenate([near_threshold_pairs("ciede2000" if formula == "cie76"
                                                  else formula)[::4], hue_pairs(4)])
    out, ans, inp = pair_images(chosen)
    rng = np.random.default_rng(4)
    noisy = np.clip(ans.astype(np.int64) + rng.integers(-6, 7, ans.shape), 0, 255)
    outputs = np.concatenate([out, noisy.astype(np.uint8), inp])  # samples of one problem
    hist, outside = tolerance_histograms_cuda(outputs, ans, inp, samples=3, delta_e=formula,
                                              lab=lab)
    expected = tolerance_histograms_delta_e(outputs, ans, inp, formula, samples_per_problem=3)
    assert hist.tolist() == expected.tolist()
    assert outside.tolist() == [0, 0, 0]
    ours = rewards_cuda(outputs, ans, inp, samples=3, tolerance=tolerance, delta_e=formula,
                        lab=lab, pixels_per_thread=2)  # several blocks: the last one writes
    cpu = reward(outputs, ans, inp, samples_per_problem=3, tolerance=tolerance,
                 delta_e=formula, backend="numba").numpy()
    assert ours.view(np.int32).tolist() == cpu.view(np.int32).tolist()


@needs_simulator
def test_cuda_sim_float_outputs_with_a_formula_convert_in_the_kernel():
    from paintkit.kernels.counting.cie76_cuda import tolerance_histograms_cuda
    from paintkit.kernels.counting.formulas import tolerance_histograms_delta_e

    rng = np.random.default_rng(6)
    ans = rng.integers(0, 256, (1, 6, 8, 3), dtype=np.uint8)
    inp = ans.copy()
    inp[0, :3] = 255 - inp[0, :3]
    out = np.clip(ans.astype(np.int64) + rng.integers(-4, 5, ans.shape), 0, 255).astype(np.uint8)
    floats = out.astype(np.float32) / np.float32(255)
    hist, _ = tolerance_histograms_cuda(floats, ans, inp, delta_e="ciede2000", lab="compute")
    assert hist.tolist() == tolerance_histograms_delta_e(out, ans, inp, "ciede2000").tolist()


def test_unknown_formulas_and_lab_sources_are_refused():
    from paintkit.kernels.counting.cie76_cuda_kernels import count_kernel

    with pytest.raises(ValueError, match="delta_e"):
        count_kernel("words", False, "cie2000")
    with pytest.raises(ValueError, match="lab"):
        count_kernel("words", False, "cie94", "texture")


#: PTX instructions that fuse a multiply into an add (one rounding instead of two).
FUSED = re.compile(r"^\s*(fma|mad)\.\S*f(32|64)\b", re.MULTILINE)


@pytest.mark.skipif(SIMULATOR, reason="compiles real PTX")
@pytest.mark.parametrize("formula, lab", [("cie76", "compute"), ("cie94", "table"),
                                          ("cie94", "compute"), ("ciede2000", "table"),
                                          ("ciede2000", "compute")])
def test_the_device_code_compiles_without_a_fused_multiply_add(formula, lab, monkeypatch):
    """Every variant compiles to PTX for an H100/H200 (sm_90) with no ``fma`` / ``mad``:
    each float operation stays the separately rounded one of the definition. NVVM runs on
    the CPU; only the device query of nested device functions is answered here."""
    from types import SimpleNamespace

    from numba import types
    from numba.cuda import dispatcher
    from numba.cuda.cudadrv import nvvm

    from paintkit.kernels.counting.cie76_cuda_kernels import count_kernel

    if not nvvm.is_available():
        pytest.skip("no NVVM library here")
    monkeypatch.setattr(dispatcher, "get_current_device",
                        lambda: SimpleNamespace(compute_capability=(9, 0)))
    words, pairs = types.Array(types.int32, 2, "C"), types.Array(types.int64, 2, "C")
    signature = (words, words, words, pairs, types.int64, types.int64, pairs,
                 types.Array(types.int32, 2, "C"), types.int64, types.Array(types.float32, 1, "C"))
    kernel = count_kernel("words", False, formula, lab)
    ptx, _ = cuda.compile_ptx(kernel.py_func, signature, cc=(9, 0))
    assert "mul.rn.f" in ptx  # the intrinsics are there
    assert not FUSED.findall(ptx)


@pytest.mark.skipif(SIMULATOR, reason="already inside the simulator")
def test_cuda_sim_cases_pass_in_a_simulator_process():
    pass_in_a_simulator_process(__file__, "cuda_sim", 12)  # the file name matches: all of it
