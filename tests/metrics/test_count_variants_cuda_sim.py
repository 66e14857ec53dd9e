"""The candidate counting kernels of ``bench/cuda_count_variants.py``, in Numba's CUDA simulator.

The device check times each candidate on a GPU against the shipped kernel; here each one
(but warp-aggregated atomics, which the simulator lacks) must give the NumPy oracle's counts,
so a variant that wins on the device is already known to count right. In a plain run one test
runs this file again in a child process with the simulator on.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba.core import config

from tests.metrics.test_counts_cuda_sim import (
    NEAR_INTEGER,
    oracle_histograms,
    palette,
    pass_in_a_simulator_process,
)

SIMULATOR = bool(config.ENABLE_CUDASIM)
needs_simulator = pytest.mark.skipif(not SIMULATOR, reason="runs inside the simulator child")
SIMULATED = [(name, knobs) for name, knobs in
             (__import__("bench.cuda_count_variants", fromlist=["VARIANTS"]).VARIANTS)
             if knobs.get("atomics") != "warp" and "shipped" not in knobs]


@needs_simulator
@pytest.mark.parametrize("name, knobs", SIMULATED, ids=[name for name, _ in SIMULATED])
def test_cuda_sim_variant_counts_equal_the_oracle(name, knobs):
    from bench.cuda_count_variants import histograms
    from paintkit.kernels.tolerance_counts_cuda import interleaved_lab_table

    rng = np.random.default_rng(7)
    inputs, answers = palette(rng, 2, 24, 20)
    noise = rng.integers(-9, 10, (4, *answers.shape[1:]))
    outputs = np.clip(answers[[0, 0, 1, 1]].astype(np.int64) + noise, 0, 255).astype(np.uint8)
    outputs[1] = inputs[0]  # the unchanged input
    outputs[3, :5] = answers[1, :5]  # partly perfect
    outputs[3, 5:7] = rng.integers(0, 256, (2, 20, 3))  # far off: bins up to "above 10"
    hist = histograms(knobs, outputs, answers, inputs, interleaved_lab_table(), samples=2,
                      pixels_per_thread=2)
    for n in range(4):
        expected = oracle_histograms(outputs[n], answers[n // 2], inputs[n // 2])
        assert hist[n].reshape(3, 12).tolist() == expected.tolist(), f"{name}: output {n}"


@needs_simulator
@pytest.mark.parametrize("name, knobs", SIMULATED, ids=[name for name, _ in SIMULATED])
def test_cuda_sim_variant_near_integer_pairs_equal_the_oracle(name, knobs):
    """Colour pairs whose ΔE lies within an ulp of an integer: where a bin guess is off."""
    from bench.cuda_count_variants import histograms
    from paintkit.kernels.tolerance_counts_cuda import interleaved_lab_table

    pairs = np.load(NEAR_INTEGER)[:200]  # (K, 2, 3): output colour, reference colour
    out = pairs[:, 0].reshape(5, 40, 3)
    ref = pairs[:, 1].reshape(5, 40, 3)
    outputs, answers, inputs = out[None], ref[None], (255 - ref)[None]
    hist = histograms(knobs, outputs, answers, inputs, interleaved_lab_table())
    expected = oracle_histograms(out, ref, 255 - ref)
    assert hist[0].reshape(3, 12).tolist() == expected.tolist(), name


@pytest.mark.skipif(SIMULATOR, reason="already inside the simulator")
def test_cuda_sim_variants_pass_in_a_simulator_process():
    pass_in_a_simulator_process(__file__, "cuda_sim_variant", 2 * len(SIMULATED))
