"""pytest-benchmark: sample + render one 1024x1024 scene (baseline and striped), one core.

    pytest -n 0 bench/test_bench_scene.py --benchmark-only
"""

import itertools

import pytest

from paintkit.renderers import render
from paintkit.sampling.condition import condition_scene
from paintkit.seeds import python_rng


@pytest.mark.parametrize("condition", ["baseline", "striped", "n_xhigh"])
def test_sample_and_render(benchmark, condition):
    seeds = itertools.count()
    render(condition_scene(python_rng(0), condition).scene)
    benchmark(lambda: render(condition_scene(python_rng(next(seeds)), condition).scene))
