"""Render throughput of PaintBench scenes at 1024x1024 (paintkit.renderers), one core.

Run: ``pytest -n 0 bench/test_bench_render.py --benchmark-only --benchmark-columns=min,median,rounds``.

Scenes come from the real condition sampler: ``baseline`` (3 shapes), ``n_xhigh`` (60
shapes), ``striped`` (3 shapes on bands), plus the 60-shape scene with a stroke on every
shape. Side-by-side baselines: the RGBA->RGB step as a NumPy strided copy against the Numba
kernel, and Skia paths built point by point against the serialised fast path and against
the pixel-exact row-crossing paths the renderer fills (``scanline_path``).
Target: ~1-2 ms per 3-shape render.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from paintkit.kernels.pixels import rgba_to_rgb
from paintkit.renderers import render, skia_paths
from paintkit.sampling.condition import condition_scene
from paintkit.scene import Stroke
from paintkit.shapes import shape_outline

pytestmark = pytest.mark.benchmark(max_time=1.0, warmup=True, warmup_iterations=3)


def _scene(condition: str, seed: int = 0):
    return condition_scene(random.Random(seed), condition).scene


SCENES = {
    "baseline-3": lambda: _scene("baseline"),
    "n_xhigh-60": lambda: _scene("n_xhigh"),
    "striped-3": lambda: _scene("striped"),
    "n_xhigh-60-stroked": lambda: replace(_scene("n_xhigh"), elements=tuple(
        replace(e, stroke=Stroke((0, 0, 0), 4.0)) for e in _scene("n_xhigh").elements)),
}


@pytest.mark.benchmark(group="render-1024")
@pytest.mark.parametrize("name", list(SCENES))
def test_render(benchmark, name):
    scene = SCENES[name]()
    assert scene.canvas.width == 1024
    image = benchmark(render, scene)
    assert image.shape[2] == 3


@pytest.mark.benchmark(group="rgba-to-rgb-1024")
def test_rgba_to_rgb_numba(benchmark):
    rgba = np.random.default_rng(0).integers(0, 256, (1024, 1024, 4), dtype=np.uint8)
    out = np.empty((1024, 1024, 3), np.uint8)
    benchmark(rgba_to_rgb, rgba, out)


@pytest.mark.benchmark(group="rgba-to-rgb-1024")
def test_rgba_to_rgb_numpy_strided_baseline(benchmark):
    rgba = np.random.default_rng(0).integers(0, 256, (1024, 1024, 4), dtype=np.uint8)
    benchmark(lambda: rgba[..., :3].copy())


@pytest.mark.benchmark(group="paths-60-shapes")
@pytest.mark.parametrize("fast", [True, False])
def test_path_construction(benchmark, monkeypatch, fast):
    outlines = [shape_outline(s) for s in _scene("n_xhigh").shapes]
    monkeypatch.setattr(skia_paths, "FAST_PATHS", fast)
    benchmark(lambda: [skia_paths.contours_path(o) for o in outlines])


@pytest.mark.benchmark(group="paths-60-shapes")
def test_scanline_path_construction(benchmark):
    outlines = [shape_outline(s) for s in _scene("n_xhigh").shapes]
    clip = (0, 0, 1024, 1024)
    skia_paths.scanline_path(outlines[0], clip)  # compile / load the kernel first
    benchmark(lambda: [skia_paths.scanline_path(o, clip) for o in outlines])
