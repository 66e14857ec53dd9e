"""Image builders for the metric tests: palette pairs, colours next to integer ΔE."""

from __future__ import annotations

import numpy as np

from tests.support.metric_oracle import delta_e, lab


def palette_pair(rng, h, w, n_colors=6, n_rects=5):
    """(input, answer) palette images with a non-empty edit region."""
    pal = rng.integers(0, 256, (n_colors, 3)).astype(np.uint8)
    inp = np.empty((h, w, 3), np.uint8)
    inp[:] = pal[0]
    for _ in range(n_rects):
        y, x = rng.integers(0, h), rng.integers(0, w)
        inp[y:y + rng.integers(1, h + 1), x:x + rng.integers(1, w + 1)] = pal[rng.integers(n_colors)]
    ans = inp.copy()
    y, x = rng.integers(0, h), rng.integers(0, w)
    ans[y:y + max(1, h // 3), x:x + max(1, w // 3)] = rng.integers(0, 256, 3)
    return inp, ans


def near_integer_colors(rng, n=64, margin=1e-2):
    """Pairs (a, b) of colours whose float32 ΔE lies within ``margin`` of 0..10."""
    pairs = []
    while len(pairs) < n:
        a = rng.integers(0, 256, (4096, 3)).astype(np.uint8)
        b = np.clip(a.astype(int) + rng.integers(-6, 7, a.shape), 0, 255).astype(np.uint8)
        d = delta_e(lab(a), lab(b))
        near = (np.abs(d - np.round(d)) < margin) & (d <= 10.5) & (d > 0.5)
        pairs.extend(zip(a[near], b[near], strict=True))
    return np.array([p[0] for p in pairs[:n]]), np.array([p[1] for p in pairs[:n]])


def adversarial_problem(rng, h=16, w=16):
    """Answer/output colours chosen so that ΔE(O, A) and ΔE(O, I) sit next to integers."""
    a_cols, o_cols = near_integer_colors(rng, h * w)
    ans = a_cols.reshape(h, w, 3)
    out = o_cols.reshape(h, w, 3)
    inp = ans.copy()
    inp[: h // 2] = out[: h // 2]  # top half: output == input, so ΔE(O, I) = 0 there
    inp[h // 2:, : w // 2] = ans[h // 2:, : w // 2]
    return inp, ans, out
