"""``score`` / ``reward`` / ``PixelEditIoUAccumulator`` with ``delta_e=``: counts equal to the
canonical NumPy oracle on both backends; CIE76 unchanged."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from paintkit.metrics import PixelEditIoUAccumulator, prepare_targets, reward, score
from tests.support import delta_e_oracle
from tests.support.metric_oracle import lab


def _oracle_counts(formula, o, a, i):
    """Per problem ``(edit_correct, preservation_correct, changed)`` for t = 0..10 from the
    canonical NumPy oracle (Lab: ``oracle.lab``; ΔE: ``delta_e_oracle``, reference colour
    first). The kernels must give exactly these counts on every backend."""
    hist = delta_e_oracle.histograms(formula, o, a, i, lab)
    return [([int(hist[p, 0, :t + 1].sum()) for t in range(11)],
             [int(hist[p, 1, :t + 1].sum()) for t in range(11)],
             [int(hist[p, 2, t + 1:].sum()) for t in range(11)]) for p in range(o.shape[0])]


def _batch(seed, n=3, h=15, w=19):
    rng = np.random.default_rng(seed)
    palette = rng.integers(0, 256, (4, 3), dtype=np.uint8)
    inputs = palette[rng.integers(0, 4, (n, h, w))]
    answers = inputs.copy()
    answers[:, 3:10, 4:14] = palette[0]
    noise = rng.integers(-7, 8, (n, h, w, 3))
    outputs = np.clip(answers.astype(int) + noise, 0, 255).astype(np.uint8)
    keep = rng.random((n, h, w)) < 0.3
    outputs[keep] = answers[keep]
    return outputs, answers, inputs


def _counts(results):
    return [(list(r.edit_correct), list(r.preservation_correct), list(r.changed))
            for r in results]


@pytest.mark.parametrize("formula", ["cie76", "cie94", "ciede2000"])
@pytest.mark.parametrize("backend", ["numba", "torch"])
def test_score_counts_match_the_skimage_oracle(formula, backend):
    o, a, i = _batch(3)
    expected = _oracle_counts(formula, o, a, i)
    args = (o, a, i) if backend == "numba" else tuple(torch.from_numpy(x) for x in (o, a, i))
    got = score(*args, backend=backend, delta_e=formula)
    assert _counts(got) == expected  # exact: one number on every backend
    assert all(r.delta_e == formula for r in got)


def test_formulas_differ_and_cie76_is_the_default():
    o, a, i = _batch(5)
    default = score(o, a, i)
    assert _counts(default) == _counts(score(o, a, i, delta_e="cie76"))
    assert _counts(score(o, a, i, delta_e="ciede2000")) != _counts(default)


def test_schema_blocks_are_named_after_the_formula():
    o, a, i = _batch(7, n=1)
    assert {"cie76_threshold", "cie76_mean"} <= set(score(o, a, i)[0].to_schema())
    schema = score(o, a, i, delta_e="ciede2000")[0].to_schema()
    assert {"ciede2000_threshold", "ciede2000_mean"} <= set(schema)
    assert "cie76_threshold" not in schema  # cie76_* only ever means CIE76


def test_mixed_sizes_and_missing_outputs_with_another_formula():
    o, a, i = _batch(9, n=2)
    small = [x[:, :10, :12].copy() for x in (o, a, i)]
    outputs = [o[0], None]
    answers, inputs = [a[0], small[1][1]], [i[0], small[2][1]]
    for backend in ("numba", "torch"):
        outs = outputs if backend == "numba" else [torch.from_numpy(o[0]), None]
        got = score(outs, answers, inputs, backend=backend, delta_e="cie94")
        assert _counts(got[:1]) == _oracle_counts("cie94", o[:1], a[:1], i[:1])
        assert not got[1].has_output and got[1].miou == pytest.approx(
            float(np.mean([1.0 if got[1].edit_pixels == 0 else 0.0] * 11)))


def test_reward_and_accumulator_take_the_formula():
    o, a, i = _batch(13)
    targets = prepare_targets(a, i)
    for formula in ("cie94", "ciede2000"):
        expected = torch.tensor([r.miou for r in score(o, a, i, delta_e=formula)])
        got = reward(torch.from_numpy(o), targets, delta_e=formula, backend="torch")
        torch.testing.assert_close(got, expected.float())
        acc = PixelEditIoUAccumulator(delta_e=formula)
        acc.update(o, targets)
        assert acc.compute()["miou"] == pytest.approx(float(expected.mean()))
    with pytest.raises(ValueError, match="do not mix"):
        PixelEditIoUAccumulator(delta_e="cie94").merge(PixelEditIoUAccumulator())


def test_unknown_formula_is_refused():
    o, a, i = _batch(1, n=1)
    with pytest.raises(ValueError, match="one of cie76, cie94, ciede2000"):
        score(o, a, i, delta_e="cie2000")
    with pytest.raises(ValueError, match="one of cie76, cie94, ciede2000"):
        PixelEditIoUAccumulator(delta_e="de2000")


@pytest.mark.parametrize("backend", ["numba", "torch"])
def test_samples_per_problem_with_another_formula(backend):
    o, a, i = _batch(17, n=2)
    o2, _, _ = _batch(19, n=2)
    grouped = np.stack([o[0], o2[0], o[1], o2[1]])  # problem-major: 2 samples per problem
    got = reward(torch.from_numpy(grouped), prepare_targets(a, i), samples_per_problem=2,
                 delta_e="ciede2000", backend=backend)
    one = [r.miou for r in score(np.stack([o[0], o[1]]), a, i, delta_e="ciede2000")]
    two = [r.miou for r in score(np.stack([o2[0], o2[1]]), a, i, delta_e="ciede2000")]
    torch.testing.assert_close(got, torch.tensor([one[0], two[0], one[1], two[1]]).float())
