"""The counting kernels compile one signature whatever the caller's arrays are: writable
(a tensor's ``.numpy()``), read-only (``np.frombuffer`` of a request body, ``np.asarray``
of a PIL image) or strided views. A second signature is a second compile of seconds."""

from __future__ import annotations

import numpy as np
import pytest

from paintkit.kernels.color import delta_e_numba
from paintkit.kernels.counting import cie76_numba as tolerance_counts
from paintkit.kernels.counting import formulas as delta_e_counts
from paintkit.kernels.counting import identity as identity_counts


def _forms(shape, seed):
    """The same pixels as a writable array, a read-only one and a strided view."""
    pixels = np.random.default_rng(seed).integers(0, 256, shape, dtype=np.uint8)
    frozen = np.frombuffer(pixels.tobytes(), np.uint8).reshape(shape)
    wide = np.zeros(shape[:-1] + (6,), np.uint8)
    wide[..., ::2] = pixels
    return pixels, frozen, wide[..., ::2]


def _image_arguments_read_only(kernel, count, ndim=3):
    """The number of signatures of ``kernel``, checking that its first ``count`` uint8
    arrays of ``ndim`` dimensions or more (the images) are read-only in each."""
    for signature in kernel.signatures:
        arrays = [t for t in signature if getattr(t, "dtype", None) is not None
                  and str(t.dtype) == "uint8" and t.ndim >= ndim][:count]
        assert arrays and all(not t.mutable for t in arrays), signature
    return len(kernel.signatures)


def test_tolerance_histograms_compile_one_signature():
    outputs, answers, inputs = (_forms((1, 9, 7, 3), seed) for seed in range(3))
    results = [tolerance_counts.tolerance_histograms_numba(o, a, i)
               for o, a, i in zip(outputs, answers, inputs, strict=True)]
    assert all(np.array_equal(r, results[0]) for r in results)
    assert _image_arguments_read_only(tolerance_counts._histograms_kernel, 3) == 1


@pytest.mark.parametrize("delta_e", ["cie94"])
def test_delta_e_histograms_compile_one_signature(delta_e):
    outputs, answers, inputs = (_forms((1, 9, 7, 3), seed) for seed in range(3))
    results = [delta_e_counts.tolerance_histograms_delta_e(o, a, i, delta_e)
               for o, a, i in zip(outputs, answers, inputs, strict=True)]
    assert all(np.array_equal(r, results[0]) for r in results)
    assert _image_arguments_read_only(delta_e_counts._histograms_kernel, 3) == 1


@pytest.mark.parametrize("width", [7, 8])  # the kernel reads rows as 64-bit words at 8k
def test_identity_counts_compile_one_signature(width):
    inputs, answers = (_forms((9, width, 3), seed) for seed in range(2))
    results = [identity_counts.identity_counts(i, a) for i, a in zip(inputs, answers, strict=True)]
    assert all(r[0] == results[0][0] and np.array_equal(r[1], results[0][1]) for r in results)
    assert _image_arguments_read_only(identity_counts._identity_kernel, 2) == 1


def test_within_delta_e_kernels_call_one_run_signature():
    """The serial and the parallel kernel call the per-run kernel with the same types (a
    constant start would be typed apart as a literal, a second compile of it). Compiled
    afresh here: from Numba's cache the callers load with the callee inside them."""
    import numba

    reference, sample = (_forms((9, 3), seed)[1] for seed in (1, 2))
    for kernel in (delta_e_numba._within_serial, delta_e_numba._within_parallel):
        fresh = numba.njit(parallel=kernel.targetoptions.get("parallel", False))(kernel.py_func)
        fresh(0, reference, sample, 1, 5.0, np.empty(9, np.bool_))
    assert len(delta_e_numba._within_run.signatures) == 1, delta_e_numba._within_run.signatures


def test_within_delta_e_compiles_one_signature_per_kernel():
    for pixels in (9, 1 << 17):  # under and over the serial cut-off
        for sample, reference in zip(_forms((pixels, 3), 1), _forms((pixels, 3), 2), strict=True):
            delta_e_numba.within_delta_e_rgb(reference, sample, 5.0)
    for kernel in (delta_e_numba._within_serial, delta_e_numba._within_parallel):
        assert _image_arguments_read_only(kernel, 2, ndim=2) == 1  # pixels as (N, 3)
