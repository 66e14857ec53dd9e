"""The canonical L*a*b* (docs/metric-definition.md §3): pinned, libm-free, machine-independent.

The Lab of all 2^24 colours is pinned by a SHA-256. A changed hash means every score may
have moved: if that is on purpose, regenerate it (``python -c "import hashlib; from
paintkit.kernels.color.lab_canonical import canonical_lab_table as t;
print(hashlib.sha256(t().tobytes()).hexdigest())"``), bump ``METRIC_VERSION`` in
``paintkit/metrics/version.py`` and say why in CHANGELOG.md: results scored before and after
must never be mixed.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

import numpy as np
import pytest

from paintkit.kernels.color.lab_canonical import (
    LINEAR_SRGB,
    NUM_COLOURS,
    canonical_lab,
    canonical_lab_of_colours,
    canonical_lab_table,
    cbrt_canonical,
)
from tests.support import metric_oracle as oracle

#: SHA-256 of ``canonical_lab_table().tobytes()`` (planar float32 (3, 2^24), little-endian).
PINNED_LAB_SHA256 = "09016336d510de06ac41de8a0d0d34f7454223dfec30fe50752be3ffe3c94ef5"
_HOW = ("the canonical Lab changed: every score may move. If on purpose, regenerate the "
        "hash (this module's docstring), bump METRIC_VERSION and add a CHANGELOG entry.")


def _oracle_table() -> np.ndarray:
    code = np.arange(NUM_COLOURS, dtype=np.uint32)
    table = np.empty((3, NUM_COLOURS), np.float32)
    for k in range(0, NUM_COLOURS, 1 << 20):
        c = code[k:k + (1 << 20)]
        rgb = np.stack([c >> 16, (c >> 8) & 255, c & 255], -1).astype(np.uint8)
        table[:, k:k + (1 << 20)] = oracle.lab(rgb).T
    return table


def _refuse(name):
    def refuse(*args, **kwargs):
        raise AssertionError(f"np.{name} called: the canonical Lab must not depend on it")
    return refuse


def test_the_package_table_has_the_pinned_hash():
    table = canonical_lab_table()
    assert table.dtype == np.float32 and table.shape == (3, NUM_COLOURS)
    assert hashlib.sha256(table.tobytes()).hexdigest() == PINNED_LAB_SHA256, _HOW


def test_the_oracle_builds_the_pinned_table_without_numpys_transcendentals(monkeypatch):
    """The oracle, written from the docs, with every libm-backed ufunc made to raise."""
    for name in ("cbrt", "power", "float_power", "exp", "exp2", "log", "log2", "expm1",
                 "log1p", "sin", "cos", "arctan2"):
        monkeypatch.setattr(np, name, _refuse(name))
    table = _oracle_table()
    monkeypatch.undo()
    assert hashlib.sha256(table.tobytes()).hexdigest() == PINNED_LAB_SHA256, _HOW


def test_the_linear_table_is_the_exact_srgb_curve_rounded_once():
    assert np.array_equal(LINEAR_SRGB, oracle.LINEAR)
    assert LINEAR_SRGB[0] == 0.0 and LINEAR_SRGB[255] == 1.0


def _within_one_ulp(t: float, y: float) -> bool:
    """``|y - cbrt(t)| <= ulp(y)`` decided in exact rational arithmetic."""
    ulp = Fraction(np.spacing(y))
    lo, hi, ft = Fraction(y) - ulp, Fraction(y) + ulp, Fraction(t)
    return lo ** 3 <= ft <= hi ** 3


def test_the_cube_root_is_within_one_ulp_on_the_metric_domain(rng):
    t = np.concatenate([rng.uniform(216 / 24389, 1.0001, 3000),
                        [216 / 24389, 0.0088565, 0.125, 0.124999999, 1 / 64, 0.5, 1.0,
                         1.0000001]])
    for x in t:
        assert _within_one_ulp(float(x), float(cbrt_canonical(float(x)))), x


def test_canonical_lab_checks_its_input():
    with pytest.raises(ValueError, match="uint8"):
        canonical_lab(np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match=r"\(\.\.\., 3\)"):
        canonical_lab(np.zeros((2, 4), np.uint8))
    assert canonical_lab(np.zeros((0, 3), np.uint8)).shape == (0, 3)


def test_canonical_lab_stays_close_to_the_papers_float32_formulas(rng):
    """Within 2e-4 (Euclidean) of a naive float32 NumPy run on whatever SIMD path this
    machine's NumPy takes: the two can disagree only for ΔE within ~4e-4 of an integer."""
    rgb = rng.integers(0, 256, (1 << 18, 3), dtype=np.uint8)
    d = canonical_lab(rgb).astype(np.float64) - oracle.paper_lab(rgb)
    assert float(np.sqrt((d * d).sum(-1)).max()) < 2e-4


@pytest.mark.parametrize("pixels, colours", [(100, 4), (4096, 16), (4096, 4096), (1000, 251)])
def test_lab_of_repeated_colours_is_the_lab_of_each_pixel(pixels, colours):
    # few pixels (converted directly), a palette (each colour once), all distinct (directly
    # again) and just past a quarter distinct: the same bits in every case
    rng = np.random.default_rng(pixels + colours)
    palette = rng.integers(0, 256, (colours, 3), dtype=np.uint8)
    rgb = palette[rng.integers(0, colours, pixels)]
    got = canonical_lab_of_colours(rgb)
    assert got.dtype == np.float32 and got.shape == (pixels, 3)
    assert np.array_equal(got.view(np.uint32), canonical_lab(rgb).view(np.uint32))
