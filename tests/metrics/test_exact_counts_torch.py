"""The torch kernel's counts equal the float32 NumPy oracle's on every pixel (SPEC 1.3-1.6).

A fast Lab (``pow(1/3)``, white point folded into the matrix) differs from the oracle by
up to ~1e-4, which flips ``ΔE <= t`` for colour pairs next to an integer tolerance; the
kernel looks the reference Lab of every colour up in a table instead. The pairs below were
found by a random search where the fast arithmetic and the oracle disagree, two per
tolerance 1..10.
"""

from __future__ import annotations

import numpy as np
import oracle
import pytest
import torch

from paintkit.kernels.lab import cbrt_reference, srgb_planes_to_lab_reference
from paintkit.kernels.lab_table import colour_codes, lab_table, srgb_to_lab_exact
from paintkit.kernels.tolerance_counts_torch import tolerance_histograms_torch

ADVERSARIAL = [  # (output colour, reference colour): oracle and fast ΔE on opposite sides of t
    ((252, 4, 254), (255, 13, 255)), ((230, 55, 207), (230, 58, 207)),  # t = 1
    ((216, 93, 243), (218, 99, 247)), ((139, 208, 206), (138, 203, 200)),  # 2
    ((173, 24, 187), (168, 31, 184)), ((84, 183, 85), (82, 182, 78)),  # 3
    ((11, 115, 163), (0, 122, 167)), ((162, 49, 214), (158, 57, 213)),  # 4
    ((65, 60, 208), (63, 72, 219)), ((15, 213, 18), (24, 224, 21)),  # 5
    ((223, 243, 245), (225, 251, 243)), ((178, 102, 112), (182, 93, 106)),  # 6
    ((17, 106, 156), (20, 96, 153)), ((152, 112, 174), (151, 107, 181)),  # 7
    ((68, 178, 172), (70, 185, 166)), ((252, 91, 76), (245, 101, 69)),  # 8
    ((93, 62, 178), (90, 57, 189)), ((222, 168, 0), (214, 178, 0)),  # 9
    ((115, 121, 59), (105, 130, 57)), ((33, 153, 234), (44, 162, 228)),  # 10
    ((60, 186, 33), (63, 185, 33)), ((239, 108, 234), (239, 113, 237)),
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
    from paintkit.kernels.tolerance_counts import counts_from_histograms

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
def test_reference_lab_is_bit_identical_to_the_oracle(device, rng):
    rgb = rng.integers(0, 256, (200_000, 3), dtype=np.uint8)
    rgb[:256] = np.arange(256)[:, None]  # greys: the linear segment of f(t) and its threshold
    ours = srgb_planes_to_lab_reference(torch.from_numpy(rgb).to(device).t()).t().cpu().numpy()
    assert np.array_equal(ours.view(np.uint32), oracle.lab(rgb).view(np.uint32))


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


@pytest.mark.slow
def test_lab_table_is_the_oracle_on_every_colour():
    table = lab_table("cpu")
    for r in range(256):
        rgb = np.empty((256, 256, 3), np.uint8)
        rgb[..., 0] = r
        rgb[..., 1] = np.arange(256)[:, None]
        rgb[..., 2] = np.arange(256)[None, :]
        ours = table[:, r << 16:(r + 1) << 16].t().numpy()
        assert np.array_equal(ours.view(np.uint32), oracle.lab(rgb.reshape(-1, 3)).view(np.uint32))


def test_reference_cbrt_is_numpys_float32_cbrt(rng):
    t = np.concatenate([rng.uniform(0.008856, 1.1, 300_000),
                        np.float32([0.0088565, 0.5, 0.125, 1.0])]).astype(np.float32)
    ours = cbrt_reference(torch.from_numpy(t)).numpy()
    assert np.array_equal(ours.view(np.uint32), np.cbrt(t).view(np.uint32))


def test_fast_arithmetic_alone_would_miss_these_pairs():
    """Guards the test itself: with the fast Lab the pairs do flip (so it can fail)."""
    from paintkit.kernels.lab import srgb_to_lab_torch

    x = np.array([p[0] for p in ADVERSARIAL], np.uint8)
    y = np.array([p[1] for p in ADVERSARIAL], np.uint8)
    de = oracle.delta_e(oracle.lab(x), oracle.lab(y))
    d = (srgb_to_lab_torch(torch.from_numpy(x)) - srgb_to_lab_torch(torch.from_numpy(y))).numpy()
    fast = np.sqrt((d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]) + d[:, 2] * d[:, 2])
    flips = sum(int(((de <= t) != (fast <= t)).sum()) for t in range(1, 11))
    assert flips >= 15
