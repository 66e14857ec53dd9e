"""SSIM and PSNR (FigEdit conventions) against scikit-image and Pillow."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
import torch
from PIL import Image
from skimage.metrics import peak_signal_noise_ratio, structural_similarity

import paintkit.metrics.similarity as similarity_module
from paintkit.metrics.similarity import grayscale, psnr, similarity, ssim


def _scene_like(rng, n=3, h=40, w=52):
    """Flat blocks of a few colours (like rendered scenes) and outputs with noise, a moved
    block and a recoloured block."""
    palette = rng.integers(0, 256, (5, 3), dtype=np.uint8)
    answers = np.empty((n, h, w, 3), np.uint8)
    answers[:] = palette[0]
    answers[:, 5:20, 8:30] = palette[1]
    answers[:, 22:35, 30:45] = palette[2]
    outputs = answers.copy()
    outputs[0] = np.clip(outputs[0] + rng.integers(-20, 21, (h, w, 3)), 0, 255)
    outputs[1, 5:20, 8:30] = palette[0]
    outputs[1, 8:23, 12:34] = palette[1]
    outputs[2, 22:35, 30:45] = palette[3]
    return outputs, answers


def _skimage_ssim(o, a):
    gray = [np.asarray(Image.fromarray(x).convert("L")) for x in (o, a)]
    return structural_similarity(gray[0], gray[1], gaussian_weights=True, sigma=1.5,
                                 use_sample_covariance=False, data_range=255)


def test_grayscale_is_pillows_luma():
    rgb = np.random.default_rng(0).integers(0, 256, (1, 64, 64, 3), dtype=np.uint8)
    expected = np.asarray(Image.fromarray(rgb[0]).convert("L"))
    np.testing.assert_array_equal(grayscale(torch.from_numpy(rgb))[0, 0].numpy(), expected)


@pytest.mark.parametrize("backend", ["numba", "torch"])
def test_ssim_and_psnr_match_skimage(backend):
    outputs, answers = _scene_like(np.random.default_rng(14))
    got_ssim = ssim(outputs, answers, backend=backend).numpy()
    got_psnr = psnr(outputs, answers, backend=backend).numpy()
    for k in range(len(answers)):
        assert got_ssim[k] == pytest.approx(_skimage_ssim(outputs[k], answers[k]), abs=2e-5)
        assert got_psnr[k] == pytest.approx(
            peak_signal_noise_ratio(answers[k], outputs[k], data_range=255), rel=1e-9)
    assert got_ssim.max() < 1 and np.isfinite(got_psnr).all()


def test_forms_channels_first_float_and_lists_agree():
    outputs, answers = _scene_like(np.random.default_rng(1))
    base_ssim, base_psnr = ssim(outputs, answers), psnr(outputs, answers)
    planar = torch.from_numpy(outputs).permute(0, 3, 1, 2).float() / 255
    torch.testing.assert_close(ssim(planar, torch.from_numpy(answers)), base_ssim)
    torch.testing.assert_close(psnr(list(outputs), list(answers)), base_psnr)


def test_outputs_of_another_size_are_normalised_first():
    outputs, answers = _scene_like(np.random.default_rng(2))
    doubled = outputs[0].repeat(2, axis=0).repeat(2, axis=1)  # nearest x2 comes back exactly
    assert float(psnr([doubled], [answers[0]])[0]) == float(psnr(outputs, answers)[0])


def test_identical_images_and_extra_metric_names():
    _, answers = _scene_like(np.random.default_rng(3))
    figures = similarity(answers, answers)
    assert torch.all(figures["ssim"] == 1.0)
    assert all(math.isinf(v) for v in figures["psnr"].tolist())
    assert similarity_module.finite_or_none(float("inf")) is None
    with pytest.raises(ValueError, match="backend: expected one of"):
        ssim(answers, answers, backend="cuda")
    with pytest.raises(ValueError, match="unknown lpips; allowed: ssim, psnr"):
        similarity(answers, answers, ["lpips"])


def test_bad_inputs_are_explained():
    small = np.zeros((1, 8, 30, 3), np.uint8)
    with pytest.raises(ValueError, match="at least 11x11"):
        ssim(small, small)
    with pytest.raises(ValueError, match="missing"):
        psnr([None], [small[0]])
    with pytest.raises(ValueError, match="batch of 1"):
        psnr(np.zeros((2, 16, 16, 3), np.uint8), small)


def test_docstring_examples_run():
    assert doctest.testmod(similarity_module, raise_on_error=False).failed == 0


@pytest.mark.parametrize("backend", ["numba", "torch"])
def test_ssim_of_a_local_change_counts_untouched_windows_as_one(backend):
    """Only the box around differing pixels is filtered; the rest must count exactly 1."""
    rng = np.random.default_rng(7)
    answer = np.full((120, 150, 3), 200, np.uint8)
    answer[20:60, 30:90] = (10, 120, 40)
    output = answer.copy()
    output[70:80, 100:112] = rng.integers(0, 256, (10, 12, 3), dtype=np.uint8)
    got = float(ssim(output[None], answer[None], backend=backend)[0])
    assert got == pytest.approx(_skimage_ssim(output, answer), abs=2e-6)
    assert got < 1
