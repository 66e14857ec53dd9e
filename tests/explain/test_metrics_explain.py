"""``paintkit.metrics.explain``: the same result as ``explain_problem``, loaded lazily."""

from __future__ import annotations

import subprocess
import sys

from paintkit.explain import DEFAULT_TOLERANCE, explain_problem


def test_importing_metrics_does_not_load_the_renderer():
    code = ("import sys, paintkit.metrics as m; assert callable(m.explain); "
            "print(sorted(k for k in sys.modules if k.startswith(('paintkit.renderers', "
            "'paintkit.explain'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_explain_forwards_to_explain_problem():
    from paintkit.metrics import explain
    from paintkit.slots import generate_slot

    problem = generate_slot("translation", "baseline", "amount", 0)
    args = (problem.metadata, problem.input, problem.answer, problem.input)
    got = explain(*args)
    assert got == explain_problem(*args) and got["tolerance"] == DEFAULT_TOLERANCE
    assert got["tags"] == {"correct": 2, "misplaced": 1}
    assert explain(*args, delta_e="ciede2000")["delta_e"] == "ciede2000"


def test_the_scorers_bins_give_the_same_explanation():
    import numpy as np
    import pytest

    from paintkit.metrics import tolerance_statistics
    from paintkit.slots import generate_slot

    problem = generate_slot("recolor", "baseline", "color_code", 0)
    i, a = problem.input, problem.answer
    out = np.clip(a.astype(int) + 4, 0, 255).astype(np.uint8)
    for formula in ("cie76", "ciede2000"):
        bins = tolerance_statistics([out], [a], [i], return_bins=True, delta_e=formula).bins[0]
        assert explain_problem(problem.metadata, i, a, out, bins=bins, delta_e=formula) == \
            explain_problem(problem.metadata, i, a, out, delta_e=formula)
    with pytest.raises(ValueError, match=r"bins: expected the answer's \(H, W\)"):
        explain_problem(problem.metadata, i, a, out, bins=np.zeros((2, 2), np.uint8))


def test_prepared_scenes_serve_every_output_of_a_problem():
    import numpy as np

    from paintkit.explain import prepare_scenes
    from paintkit.slots import generate_slot

    problem = generate_slot("translation", "baseline", "amount", 0)
    meta, i, a = problem.metadata, problem.input, problem.answer
    scenes = prepare_scenes(meta, i, a)
    noisy = np.clip(a.astype(int) + 3, 0, 255).astype(np.uint8)
    for out in (i, a, noisy, np.roll(a, 4, axis=1), None):
        assert explain_problem(meta, i, a, out, scenes=scenes) == \
            explain_problem(meta, i, a, out)
