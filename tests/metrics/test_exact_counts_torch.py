"""The torch kernel's counts equal the canonical NumPy oracle's on every pixel (metric §3-6).

A fast Lab (``pow(1/3)``, white point folded into the matrix) differs from the canonical
Lab by up to ~1e-4, which flips ``ΔE <= t`` for colour pairs next to an integer tolerance;
the kernel looks the canonical Lab of every colour up in a table instead. The pairs below
were found by a random search (4M pairs) where the fast arithmetic and the oracle disagree,
up to two per tolerance 2..10 (none turned up next to 1).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from paintkit.kernels.color.lab_table import colour_codes, srgb_to_lab_exact
from paintkit.kernels.counting.cie76_torch import tolerance_histograms_torch
from tests.support import metric_oracle as oracle

ADVERSARIAL = [  # (output colour, reference colour): canonical and fast ΔE on opposite sides of t
    ((78, 234, 221), (69, 235, 220)), ((45, 232, 49), (43, 234, 45)),  # t = 2
    ((174, 255, 15), (165, 252, 22)), ((66, 123, 127), (74, 124, 131)),  # 3
    ((156, 64, 233), (149, 72, 238)), ((225, 199, 166), (238, 205, 174)),  # 4
    ((133, 182, 14), (141, 191, 5)), ((40, 175, 110), (28, 178, 105)),  # 5
    ((154, 234, 156), (149, 235, 146)), ((214, 104, 9), (221, 98, 0)),  # 6
    ((65, 65, 11), (77, 76, 10)), ((128, 146, 141), (119, 155, 147)),  # 7
    ((78, 136, 130), (88, 125, 124)), ((105, 145, 18), (117, 159, 10)),  # 8
    ((123, 198, 50), (111, 210, 55)),  # 9
    ((114, 150, 49), (128, 145, 58)), ((33, 13, 83), (29, 18, 72)),  # 10
]

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def adversarial_problems(rng, width=64):
    """Three problems of one row of ``width`` pixels: the pairs as O vs A in the
    preservation region, in the edit region, and as O vs I (``changed``)."""
    out = np.array([p[0] for p in ADVERSARIAL], np.uint8)
    ref = np.array([p[1] for p in ADVERSARIAL], np.uint8)
    pad = width - len(out)
    out = np.concatenate([out, rng.integers(0, 256, (pad, 3), dtype=np.uint8)])
    ref = np.concatenate([ref, out[len(ADVERSARIAL):]])
    other = 255 - ref  # differs from ref in every pixel
    outs = np.stack([out, out, out])[:, None]
    answers = np.stack([ref, ref, other])[:, None]
    inputs = np.stack([ref, other, ref])[:, None]
    return outs, answers, inputs


def oracle_counts(out, ans, inp):
    stats = oracle.problem_stats(out, ans, inp)["cie76_threshold"]
    return ([stats[str(t)]["edit_correct_pixels"] for t in range(11)],
            [stats[str(t)]["preservation_correct_pixels"] for t in range(11)],
            [stats[str(t)]["changed_pixels"] for t in range(11)])


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("step", [None, 40])
def test_counts_equal_the_oracle_next_to_every_integer_tolerance(device, step, rng):
    from paintkit.kernels.counting.bins import counts_from_histograms

    outs, answers, inputs = adversarial_problems(rng)
    o, a, i = (torch.from_numpy(x).to(device) for x in (outs, answers, inputs))
    hist = tolerance_histograms_torch(o, a, i, max_pixels_per_step=step)
    assert hist.device.type == device
    counts = counts_from_histograms(hist.cpu())
    for k in range(len(outs)):
        ce, cp, changed = oracle_counts(outs[k], answers[k], inputs[k])
        assert counts["edit_correct"][k].tolist() == ce
        assert counts["preservation_correct"][k].tolist() == cp
        assert counts["changed"][k].tolist() == changed


@pytest.mark.parametrize("device", DEVICES)
def test_lab_table_is_bit_identical_to_the_oracle(device, rng):
    rgb = rng.integers(0, 256, (200_000, 3), dtype=np.uint8)
    rgb[:256] = np.arange(256)[:, None]
    rgb[256:264] = [[255, 255, 255], [0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255],
                    [255, 255, 0], [0, 255, 255], [255, 0, 255]]
    ours = srgb_to_lab_exact(torch.from_numpy(rgb).to(device)).cpu().numpy()
    assert np.array_equal(ours.view(np.uint32), oracle.lab(rgb).view(np.uint32))
    codes = colour_codes(*torch.from_numpy(rgb).to(device).unbind(-1)).cpu().numpy()
    assert np.array_equal(codes, (rgb.astype(np.int64) * [65536, 256, 1]).sum(axis=1))


def test_fast_arithmetic_alone_would_miss_these_pairs():
    """Guards the test itself: with the fast Lab the pairs do flip (so it can fail)."""
    from paintkit.kernels.color.lab import srgb_to_lab_torch

    x = np.array([p[0] for p in ADVERSARIAL], np.uint8)
    y = np.array([p[1] for p in ADVERSARIAL], np.uint8)
    de = oracle.delta_e(oracle.lab(x), oracle.lab(y))
    d = (srgb_to_lab_torch(torch.from_numpy(x)) - srgb_to_lab_torch(torch.from_numpy(y))).numpy()
    fast = np.sqrt((d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]) + d[:, 2] * d[:, 2])
    flips = sum(int(((de <= t) != (fast <= t)).sum()) for t in range(1, 11))
    assert flips >= 10


def test_bins_come_from_the_squared_distance_exactly(rng):
    """``min(ceil(sqrt(s)), 11)`` with the correctly rounded float32 square root, also for
    ``s`` one ulp around each threshold (where an inexact library sqrt would move a bin)."""
    from paintkit.kernels.counting.cie76_torch import BIN_THRESHOLDS, bins_of_squared

    up, down = np.float32(np.inf), np.float32(0)
    edges = np.concatenate([BIN_THRESHOLDS, np.nextafter(BIN_THRESHOLDS, up),
                            np.nextafter(BIN_THRESHOLDS, down)]).astype(np.float32)
    s = np.concatenate([edges, rng.uniform(0, 130, 200_000).astype(np.float32),
                        np.float32([0, 1e-30, 121, 1e30])])
    expected = np.minimum(np.ceil(np.sqrt(s)), 11).astype(np.int32)
    assert np.array_equal(bins_of_squared(torch.from_numpy(s)).numpy(), expected)
    for t, x in enumerate(BIN_THRESHOLDS):
        assert np.sqrt(x) <= t < np.sqrt(np.nextafter(x, up))


def test_a_square_root_off_by_an_ulp_moves_no_count(monkeypatch, rng):
    """torch's CPU sqrt is off by an ulp on ~0.7 % of inputs (AVX-512 here): with a square
    root that is off by an ulp everywhere, and with the pixels' ΔE² exactly at and around
    every bin threshold, the counts stay the definition's."""
    from paintkit.kernels.counting.cie76_torch import BIN_THRESHOLDS, bins_of_squared

    true_sqrt = torch.sqrt

    def off_by_an_ulp(x, *, out=None):
        root = true_sqrt(x)
        direction = torch.where(torch.arange(root.numel()).view(root.shape) % 2 == 0,
                                torch.inf, -torch.inf).to(root.dtype)
        root = torch.nextafter(root, direction).clamp_min_(0)
        return root if out is None else out.copy_(root)

    up, down = np.float32(np.inf), np.float32(0)
    edges = np.concatenate([BIN_THRESHOLDS, np.nextafter(BIN_THRESHOLDS, up),
                            np.nextafter(BIN_THRESHOLDS, down),
                            np.float32([t * t for t in range(12)])]).astype(np.float32)
    s = torch.from_numpy(np.concatenate([edges, edges[::-1]]))
    expected = np.minimum(np.ceil(np.sqrt(s.numpy())), 11).astype(np.int32)
    outs, answers, inputs = adversarial_problems(rng)
    o, a, i = (torch.from_numpy(x) for x in (outs, answers, inputs))
    exact = tolerance_histograms_torch(o, a, i)
    monkeypatch.setattr(torch, "sqrt", off_by_an_ulp)
    assert np.array_equal(bins_of_squared(s).numpy(), expected)
    assert torch.equal(tolerance_histograms_torch(o, a, i), exact)
