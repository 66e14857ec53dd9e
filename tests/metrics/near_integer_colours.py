"""Adversarial colour pairs: reference ΔE within 1e-4 of an integer tolerance 1..10.

``python -m tests.metrics.near_integer_colours`` (from the repository root) rewrites
``data/near_integer_colours.npy`` (uint8 ``(K, 2, 3)``: output colour, reference colour):
every pair of a seeded random search whose fast-kernel ``ceil(ΔE)`` differs from the
reference's, plus up to 12 pairs next to each integer. Uses only NumPy (the reference
float32 formulas, as in ``tests/support/metric_oracle.py``) and the fast Lab of the Numba
kernel.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

PATH = Path(__file__).resolve().parent / "data" / "near_integer_colours.npy"


def search(pairs: int = 1 << 23, seed: int = 0) -> np.ndarray:
    from paintkit.kernels.color.lab import srgb_to_lab_numba
    from tests.support import metric_oracle as oracle

    rng = np.random.default_rng(seed)
    ref_colour = rng.integers(0, 256, (pairs, 3))
    out_colour = np.clip(ref_colour + rng.integers(-14, 15, (pairs, 3)), 0, 255).astype(np.uint8)
    ref_colour = ref_colour.astype(np.uint8)
    reference = oracle.delta_e(oracle.lab(out_colour), oracle.lab(ref_colour))
    d = srgb_to_lab_numba(out_colour) - srgb_to_lab_numba(ref_colour)
    fast = np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1] + d[:, 2] * d[:, 2])
    in_range = (reference > 0.5) & (reference < 10.5)
    differ = np.flatnonzero((np.ceil(fast) != np.ceil(reference)) & in_range)
    nearest = np.round(reference)
    near = (np.abs(reference - nearest) < 1e-4) & in_range
    keep = list(differ)
    for t in range(1, 11):
        keep += list(np.flatnonzero(near & (nearest == t))[:12])
    keep = np.unique(np.array(keep))
    return np.stack([out_colour[keep], ref_colour[keep]], axis=1)


if __name__ == "__main__":
    colours = search()
    np.save(PATH, colours)
    print(f"{len(colours)} pairs -> {PATH}")
