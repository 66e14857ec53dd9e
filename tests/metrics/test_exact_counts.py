"""Exact counts: every kernel's counts equal the canonical NumPy oracle's bit for bit, also
on colours whose ΔE lies next to an integer tolerance.

``KERNELS`` lists the histogram kernels under test: each takes uint8 NumPy batches
``(B, H, W, 3)`` (outputs, answers, inputs) and returns int64 ``(B, 3, 12)`` histograms.
"""

from __future__ import annotations

import numpy as np
import pytest
from near_integer_colours import PATH

from paintkit.kernels.color.lab_canonical import canonical_lab, canonical_lab_table
from paintkit.kernels.counting.bins import GUARD_BAND, MAX_FAST_LAB_ERROR, counts_from_histograms
from paintkit.kernels.counting.cie76_numba import tolerance_histograms_numba
from tests.support import metric_oracle as oracle


def _numba(outputs, answers, inputs):
    return tolerance_histograms_numba(outputs, answers, inputs)


def _numba_one_chunk(outputs, answers, inputs):  # one row band: tiny guard-band buffers
    return tolerance_histograms_numba(outputs, answers, inputs, chunks_per_problem=1)


def _torch(outputs, answers, inputs):
    import torch

    from paintkit.kernels.counting.cie76_torch import tolerance_histograms_torch

    return tolerance_histograms_torch(*(torch.from_numpy(x) for x in (outputs, answers, inputs))
                                      ).cpu().numpy()


KERNELS = [
    pytest.param(_numba, id="numba"),
    pytest.param(_numba_one_chunk, id="numba-one-chunk"),
    pytest.param(_torch, id="torch"),
]


def _oracle_counts(output, answer, inp) -> dict:
    stats = oracle.problem_stats(output, answer, inp)
    per_t = [stats["cie76_threshold"][str(t)] for t in range(11)]
    return {"edit_correct": [c["edit_correct_pixels"] for c in per_t],
            "preservation_correct": [c["preservation_correct_pixels"] for c in per_t],
            "changed": [c["changed_pixels"] for c in per_t],
            "edit_pixels": stats["edit_pixels"], "preservation_pixels": stats["preservation_pixels"]}


def _check_exact(kernel, outputs, answers, inputs) -> None:
    counts = counts_from_histograms(np.asarray(kernel(outputs, answers, inputs)))
    for p in range(len(outputs)):
        expected = _oracle_counts(outputs[p], answers[p], inputs[p])
        got = {k: np.asarray(v[p]).tolist() for k, v in counts.items()}
        assert got == expected, f"problem {p}"


def adversarial_batch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Three problems built from the near-integer pairs (output colour, reference colour):
    the reference colour as the answer in the edit region, as answer and input in the
    preservation region, and as the input (changed pixels)."""
    pairs = np.load(PATH)
    out, ref = pairs[:, 0][None], pairs[:, 1][None]  # (1, K, 3)
    other = (ref.astype(np.int16) + 97) % 256  # a different colour
    other = other.astype(np.uint8)
    outputs = np.concatenate([out, out, out])[:, None]  # (3, 1, K, 3)
    answers = np.concatenate([ref, ref, other])[:, None]
    inputs = np.concatenate([other, ref, ref])[:, None]
    return (np.ascontiguousarray(outputs), np.ascontiguousarray(answers),
            np.ascontiguousarray(inputs))


def test_the_adversarial_pairs_are_adversarial():
    pairs = np.load(PATH)
    reference = oracle.delta_e(oracle.lab(pairs[:, 0]), oracle.lab(pairs[:, 1]))
    assert len(pairs) >= 100
    assert (np.abs(reference - np.round(reference)) < 1e-4).all()
    assert set(np.round(reference).astype(int)) == set(range(1, 11))


@pytest.mark.parametrize("kernel", KERNELS)
def test_counts_equal_the_reference_next_to_every_integer(kernel):
    _check_exact(kernel, *adversarial_batch())


@pytest.mark.parametrize("kernel", KERNELS)
def test_counts_equal_the_reference_on_noisy_images(kernel):
    rng = np.random.default_rng(5)
    answers = rng.integers(0, 256, (3, 48, 64, 3), dtype=np.uint8)
    inputs = answers.copy()
    inputs[:, 10:30, 5:40] = rng.integers(0, 256, (3, 20, 35, 3), dtype=np.uint8)
    outputs = np.clip(answers.astype(np.int16) + rng.integers(-6, 7, answers.shape), 0, 255)
    outputs = outputs.astype(np.uint8)
    outputs[:, :4] = answers[:, :4]  # rows with O == A, and with O == A == I
    outputs[:, 40:] = inputs[:, 40:]
    _check_exact(kernel, outputs, answers, inputs)


def test_a_buffer_overflow_recounts_the_whole_problem_exactly():
    outputs, answers, inputs = adversarial_batch()
    # Repeat the row: far more guard-band pixels than a one-chunk buffer holds (64).
    outputs, answers, inputs = (np.ascontiguousarray(np.repeat(x, 8, axis=1))
                                for x in (outputs, answers, inputs))
    _check_exact(_numba_one_chunk, outputs, answers, inputs)


@pytest.mark.parametrize("rows", [1, 8], ids=["one-row", "buffer-overflow"])
@pytest.mark.parametrize("chunks", [None, 1])
def test_g_samples_of_a_problem_count_exactly_against_it_in_place(rows, chunks):
    """Two samples per adversarial problem (its output and a noisy one), the answers and
    inputs given once: the guard band (and its buffer overflow) is counted against the
    sample's own problem, bit for bit like repeated answers and like the oracle."""
    outputs, answers, inputs = (np.ascontiguousarray(np.repeat(x, rows, axis=1))
                                for x in adversarial_batch())
    noise = np.random.default_rng(9).integers(-2, 3, outputs.shape)
    noisy = np.clip(outputs.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    grouped = np.ascontiguousarray(np.stack([outputs, noisy], axis=1).reshape(-1, *outputs.shape[1:]))
    wide = [np.ascontiguousarray(np.repeat(x, 2, axis=0)) for x in (answers, inputs)]
    got, bins = tolerance_histograms_numba(grouped, answers, inputs, samples_per_problem=2,
                                           chunks_per_problem=chunks, return_bins=True)
    want, want_bins = tolerance_histograms_numba(grouped, *wide, chunks_per_problem=chunks,
                                                 return_bins=True)
    assert np.array_equal(got, want) and np.array_equal(bins, want_bins)
    _check_exact(lambda o, a, i: tolerance_histograms_numba(o, answers, inputs,
                                                            samples_per_problem=2,
                                                            chunks_per_problem=chunks),
                 grouped, *wide)


@pytest.mark.parametrize("kernel", [_numba, _numba_one_chunk], ids=["numba", "numba-one-chunk"])
def test_a_palette_guard_band_converts_each_colour_once_and_counts_exactly(kernel):
    # 8 near-integer pairs, each on 128 pixels of every row: thousands of guard-band pixels
    # whose answers and inputs hold 8 colours (the recount's Lab per colour, not per pixel)
    outputs, answers, inputs = adversarial_batch()
    pick = np.arange(8).repeat(128)
    outputs, answers, inputs = (np.ascontiguousarray(np.repeat(x[:, :, pick], 4, axis=1))
                                for x in (outputs, answers, inputs))
    _check_exact(kernel, outputs, answers, inputs)


def test_diff_bins_use_the_canonical_arithmetic_too():
    outputs, answers, inputs = adversarial_batch()
    _, bins = tolerance_histograms_numba(outputs, answers, inputs, return_bins=True)
    expected = np.minimum(np.ceil(oracle.delta_e(oracle.lab(outputs), oracle.lab(answers))), 11)
    assert np.array_equal(bins, expected.astype(np.uint8))


def test_canonical_lab_is_the_oracle_bit_for_bit():
    rgb = np.random.default_rng(1).integers(0, 256, (1 << 18, 3), dtype=np.uint8)
    assert np.array_equal(canonical_lab(rgb).view(np.uint32), oracle.lab(rgb).view(np.uint32))


def _all_colours() -> np.ndarray:
    code = np.arange(1 << 24, dtype=np.uint32)
    return np.stack([code >> 16, (code >> 8) & 255, code & 255], -1).astype(np.uint8)


def _fast_lab_error(rgb: np.ndarray) -> tuple[float, int]:
    from paintkit.kernels.color.lab import srgb_to_lab_numba

    fast = srgb_to_lab_numba(rgb)
    table = canonical_lab_table()
    codes = (rgb.astype(np.int64) * [65536, 256, 1]).sum(axis=1)
    error = 0.0
    for k in range(0, len(rgb), 1 << 20):
        d = fast[k:k + (1 << 20)].astype(np.float64) - table[:, codes[k:k + (1 << 20)]].T
        error = max(error, float(np.sqrt((d * d).sum(-1)).max()))
    distinct = np.unique(np.ascontiguousarray(fast).view(np.dtype((np.void, 12))).ravel()).size
    return error, distinct


def test_guard_band_covers_the_fast_error_on_a_sample():
    rgb = np.unique(np.random.default_rng(2).integers(0, 256, (1 << 18, 3), dtype=np.uint8),
                    axis=0)
    error, distinct = _fast_lab_error(rgb)
    assert error <= MAX_FAST_LAB_ERROR and 2 * MAX_FAST_LAB_ERROR + 1e-5 < GUARD_BAND
    assert distinct == len(rgb)


@pytest.mark.slow
def test_guard_band_covers_the_fast_error_on_every_colour():
    """The two facts the guard band rests on, over all 16,777,216 colours (~10 s)."""
    error, distinct = _fast_lab_error(_all_colours())
    assert error <= MAX_FAST_LAB_ERROR
    assert distinct == 1 << 24  # distinct colours never share a fast Lab value
