"""The scoring core (docs/code-layout.md, "The scoring core"): one update step
(:mod:`paintkit.metrics.counts`) and one compute step (:mod:`paintkit.metrics.compute_step`) that
every scorer calls; NumPy in, NumPy out, without torch."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from paintkit.metrics.counts import count_problem
from tests.support import metric_oracle as oracle


def _problem(rng, h=24, w=20, colours=6):
    palette = rng.integers(0, 256, (colours, 3), dtype=np.uint8)
    inp = palette[rng.integers(0, colours, (h, w))]
    answer = inp.copy()
    y, x = rng.integers(0, h // 2), rng.integers(0, w // 2)
    answer[y:y + h // 2, x:x + w // 2] = palette[rng.integers(0, colours)]
    return inp, answer


@pytest.mark.parametrize("seed", range(6))
def test_the_identity_option_counts_what_the_input_scored_as_an_output_counts(seed):
    rng = np.random.default_rng(seed)
    inp, answer = _problem(rng)
    if seed % 2:  # many colours: the fast path hands over to the full kernel
        answer = np.clip(answer.astype(int) + rng.integers(-9, 10, answer.shape), 0, 255
                         ).astype(np.uint8)
    fast, _ = count_problem(None, answer, inp, identity=True)
    full, _ = count_problem(inp, answer, inp)
    assert fast.keys() == full.keys()
    for key in full:
        np.testing.assert_array_equal(fast[key], full[key], err_msg=key)
    expected = oracle.problem_stats(inp, answer, inp)["cie76_threshold"]
    assert fast["edit_correct"][0].tolist() == [
        expected[str(t)]["edit_correct_pixels"] for t in range(11)]
    assert fast["changed"][0].tolist() == [0] * 11


def test_a_missing_output_keeps_the_region_sizes_and_counts_nothing():
    inp, answer = _problem(np.random.default_rng(0))
    counts, bins = count_problem(None, answer, inp, return_bins=True)
    assert bins is None
    assert int(counts["edit_pixels"][0]) == int((answer != inp).any(-1).sum())
    assert not counts["edit_correct"].any() and not counts["changed"].any()


def test_the_identity_option_refuses_what_it_does_not_count():
    inp, answer = _problem(np.random.default_rng(0))
    with pytest.raises(ValueError, match="identity"):
        count_problem(None, answer, inp, identity=True, delta_e="ciede2000")


SCRIPT = """
import sys
import numpy as np
from paintkit.eval.problem import score_output
from paintkit.explainer.problem import _bins
from paintkit.metrics.counts import count_problem
from paintkit.tasks.base import identity_check
rng = np.random.default_rng(0)
inp = rng.integers(0, 256, (16, 16, 3), dtype=np.uint8)
ans = inp.copy(); ans[:8] = 7
out = rng.integers(0, 256, (12, 20, 3), dtype=np.uint8)
for formula in ("cie76", "ciede2000"):
    score, bins = score_output(out, ans, inp, return_bins=True, delta_e=formula)
    assert bins.shape == (16, 16), bins.shape
    _bins(ans, ans, inp, formula)
count_problem(None, ans, inp, identity=True)
identity_check(inp, ans)
loaded = sorted(m for m in sys.modules if m == "torch" or m.startswith("torch."))
assert not loaded, loaded
print("ok")
"""


def test_scoring_numpy_arrays_never_imports_torch():
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-3000:]
