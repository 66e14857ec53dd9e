"""Throughput of 1024x1024 backgrounds (paintkit.kernels.stripes), one core.

Run: ``pytest bench/test_bench_stripes.py --benchmark-columns=min,median,mean,rounds``.
The Numba passes are serial (no prange), so each timing is single-threaded. Side-by-side
baselines: NumPy broadcasting for the solid fill and a vectorised NumPy evaluation of the
stripe contract (``np.where`` over full (H, W) float64 arrays) for the 45 degree sine case.
Target: under 5 ms per striped 1024x1024 canvas.
"""

from __future__ import annotations

import numpy as np
import pytest

from paintkit.kernels.stripes import WAVEFORMS, paint_background

SIZE = 1024
COLOR, HOLDOUT = (255, 165, 0), (128, 0, 128)
# docs/generator-rules.md ranges at W = 1024: band width 0.06 W, amplitude 0.025 W, 7 cycles per width.
GEOMETRY = dict(band_width=61.44, amplitude=25.6, frequency=7.0, phase=0.3)

pytestmark = pytest.mark.benchmark(max_time=0.5, warmup=True, warmup_iterations=3)


def _canvas(channels: int) -> np.ndarray:
    return np.empty((SIZE, SIZE, channels), np.uint8)


@pytest.mark.benchmark(group="stripes-1024-solid")
@pytest.mark.parametrize("channels", [3, 4])
def test_solid(benchmark, channels):
    out = _canvas(channels)
    benchmark(paint_background, out, COLOR)
    assert (out[..., :3] == COLOR).all()


@pytest.mark.benchmark(group="stripes-1024-solid")
def test_solid_numpy_broadcast_baseline(benchmark):
    out = _canvas(3)

    def fill():
        out[...] = COLOR

    benchmark(fill)


@pytest.mark.benchmark(group="stripes-1024-striped")
@pytest.mark.parametrize("channels", [3, 4])
@pytest.mark.parametrize("orientation", [0, 45, 90])
@pytest.mark.parametrize("waveform", WAVEFORMS)
def test_striped(benchmark, waveform, orientation, channels):
    out = _canvas(channels)
    paint_background(out, COLOR, HOLDOUT, orientation=orientation, waveform=waveform, **GEOMETRY)
    benchmark(paint_background, out, COLOR, HOLDOUT, orientation=orientation,
              waveform=waveform, **GEOMETRY)
    assert 0 < (out[..., 0] == HOLDOUT[0]).mean() < 1


@pytest.mark.benchmark(group="stripes-1024-striped")
def test_striped_numpy_baseline_sine_45(benchmark):
    out = _canvas(3)
    c = np.sqrt(0.5)

    def paint():
        i, j = np.indices((SIZE, SIZE), dtype=np.float64)
        x, y = j + 0.5, i + 0.5
        t = GEOMETRY["frequency"] * (c * (x + y)) / SIZE + GEOMETRY["phase"]
        v = (c * (y - x) + GEOMETRY["amplitude"] * np.sin(2 * np.pi * t)) / GEOMETRY["band_width"]
        out[...] = np.where((np.mod(np.floor(v), 2) == 1)[..., None], HOLDOUT, COLOR)

    benchmark(paint)
