"""``paintkit.explain``: the scorer's bins and prepared scenes give the same explanation;
``paintkit.metrics`` does not load the explainer (nor the renderer)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from paintkit.explainer import DEFAULT_TOLERANCE, explain


def test_importing_metrics_does_not_load_the_renderer():
    code = ("import sys, paintkit.metrics; "
            "print(sorted(k for k in sys.modules if k.startswith(('paintkit.renderers', "
            "'paintkit.explain'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_explain_lives_at_the_top_not_in_metrics():
    import paintkit
    import paintkit.metrics
    from paintkit.sources import generate

    problem = generate("translation", 0, "baseline", "amount")
    new = (problem.input, problem.answer, problem.input, problem.metadata)
    assert not hasattr(paintkit.metrics, "explain") and paintkit.explain is explain
    got = explain(*new)
    assert got["tolerance"] == DEFAULT_TOLERANCE and got["tags"] == {"correct": 2, "misplaced": 1}
    assert explain(*new, delta_e="ciede2000")["delta_e"] == "ciede2000"


def test_the_scorers_bins_give_the_same_explanation():
    import numpy as np

    from paintkit.metrics import tolerance_statistics
    from paintkit.sources import generate

    problem = generate("recolor", 0, "baseline", "color_code")
    i, a = problem.input, problem.answer
    out = np.clip(a.astype(int) + 4, 0, 255).astype(np.uint8)
    for formula in ("cie76", "ciede2000"):
        bins = tolerance_statistics([out], [a], [i], return_bins=True, delta_e=formula).bins[0]
        assert explain(out, a, i, problem.metadata, bins=bins, delta_e=formula) == \
            explain(out, a, i, problem.metadata, delta_e=formula)
    with pytest.raises(ValueError, match=r"bins: expected the answer's \(H, W\)"):
        explain(out, a, i, problem.metadata, bins=np.zeros((2, 2), np.uint8))


def test_prepared_scenes_serve_every_output_of_a_problem():
    import numpy as np

    from paintkit.explainer import prepare_scenes
    from paintkit.sources import generate

    problem = generate("translation", 0, "baseline", "amount")
    meta, i, a = problem.metadata, problem.input, problem.answer
    scenes = prepare_scenes(a, i, meta)
    noisy = np.clip(a.astype(int) + 3, 0, 255).astype(np.uint8)
    for out in (i, a, noisy, np.roll(a, 4, axis=1), None):
        assert explain(out, a, i, meta, scenes=scenes) == \
            explain(out, a, i, meta)
