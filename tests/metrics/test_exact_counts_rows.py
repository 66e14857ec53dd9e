"""Exact counts when the Numba kernel updates the answers' and inputs' Lab row by row.

The kernel keeps the Lab of the last answer (input) row it converted and, on the next row
that differs, converts only the pixels that changed, one at a time; where more than an
sixteenth of the row changed it converts the whole row with the SIMD loops. Either way the Lab
must be bit for bit the one the output's SIMD conversion gives for the same colour: an
output pixel equal to its answer pixel must land in bin 0 (ΔE exactly 0), which the
canonical oracle checks here for every tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.metrics.test_exact_counts import _check_exact, _numba, _numba_one_chunk


def _rows_changing_at_edges(rng, height, width, changed_per_row):
    palette = rng.integers(0, 256, (12, 3), dtype=np.uint8)
    image = np.empty((height, width, 3), np.uint8)
    image[0] = palette[rng.integers(0, 12, width)]
    for y in range(1, height):
        image[y] = image[y - 1]
        xs = rng.choice(width, changed_per_row(y), replace=False)
        image[y, xs] = rng.integers(0, 256, (len(xs), 3), dtype=np.uint8)
    return image


@pytest.mark.parametrize("kernel", [_numba, _numba_one_chunk])
def test_counts_are_exact_when_rows_are_updated_pixel_by_pixel(kernel):
    rng = np.random.default_rng(28)
    height, width = 48, 96
    # few changes per row (pixel by pixel), some rows with many (whole-row fallback after
    # some pixels were converted one by one), some all new (fallback at the first pixels)
    def changes(y):
        return width if y % 11 == 0 else 40 if y % 7 == 0 else 1 + y % 4
    answers = np.stack([_rows_changing_at_edges(rng, height, width, changes) for _ in range(2)])
    inputs = answers.copy()
    inputs[:, 10:30, 20:60] = rng.integers(0, 256, (2, 20, 40, 3), dtype=np.uint8)
    outputs = answers.copy()
    noisy = rng.random(outputs.shape[:3]) < 0.5  # half the pixels: a near colour
    noise = rng.integers(-3, 4, outputs.shape).astype(np.int16)
    outputs[noisy] = np.clip(outputs.astype(np.int16) + noise, 0, 255).astype(np.uint8)[noisy]
    outputs[:, ::5] = inputs[:, ::5]  # rows equal to the input
    _check_exact(kernel, outputs, answers, inputs)
