"""Float CPU batches are converted and counted chunk by chunk: same numbers, same errors."""

import importlib

import numpy as np
import pytest
import torch

from paintkit.metrics import prepare_targets, reward, score, tolerance_statistics
from tests.support.metric_images import palette_pair

score_module = importlib.import_module("paintkit.metrics.batch_scoring")


def batch(n=7, h=12, w=10, seed=0):
    rng = np.random.default_rng(seed)
    pairs = [palette_pair(rng, h, w) for _ in range(n)]
    inputs = np.stack([p[0] for p in pairs])
    answers = np.stack([p[1] for p in pairs])
    outputs = answers.astype(np.float32) / 255
    outputs += rng.normal(0, 0.02, outputs.shape).astype(np.float32)
    return np.clip(outputs, 0, 1), answers, inputs


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of two 12x10 outputs, and a record of the chunks converted."""
    seen = []
    convert = score_module.as_images

    def spy(value, *args, **kwargs):
        seen.append(len(value))
        return convert(value, *args, **kwargs)

    monkeypatch.setattr(score_module, "FLOAT_CHUNK_BYTES", 2 * 12 * 10 * 3)
    monkeypatch.setattr(score_module, "as_images", spy)
    return seen


def whole(fn):
    saved = score_module.FLOAT_CHUNK_BYTES
    score_module.FLOAT_CHUNK_BYTES = 1 << 40
    try:
        return fn()
    finally:
        score_module.FLOAT_CHUNK_BYTES = saved


@pytest.mark.parametrize("layout", ["nchw", "nhwc", "channels_last"])
@pytest.mark.parametrize("samples", [1, 2, 3])
def test_chunked_counts_equal_the_whole_batch(small_chunks, layout, samples):
    out, ans, inp = batch(n=7 if samples == 1 else 3)
    targets = prepare_targets(torch.from_numpy(ans), torch.from_numpy(inp))
    outputs = torch.from_numpy(np.repeat(out, samples, axis=0))
    if layout == "nchw":
        outputs = outputs.permute(0, 3, 1, 2).contiguous()
    elif layout == "channels_last":
        outputs = outputs.permute(0, 3, 1, 2)  # NCHW view of NHWC storage
    got = tolerance_statistics(outputs, targets, samples_per_problem=samples, backend="numba")
    assert small_chunks[:1] == [2] and len(small_chunks) >= 3  # converted two at a time
    want = whole(lambda: tolerance_statistics(outputs, targets, samples_per_problem=samples,
                                              backend="numba"))
    for name in ("edit_pixels", "edit_correct", "preservation_correct", "changed"):
        assert torch.equal(getattr(got.stats, name), getattr(want.stats, name)), name
    assert got.output_sizes == want.output_sizes and got.errors == want.errors
    assert torch.equal(reward(outputs, targets, samples_per_problem=samples),
                       whole(lambda: reward(outputs, targets, samples_per_problem=samples)))
    assert [s.to_schema() for s in score(outputs, targets, samples_per_problem=samples)] == \
        whole(lambda: [s.to_schema() for s in score(outputs, targets,
                                                    samples_per_problem=samples)])


def test_a_bad_value_in_a_later_chunk_raises_the_whole_batch_error(small_chunks):
    out, ans, inp = batch()
    out[5, 3, 3, 1] = np.nan
    out[6, 0, 0, 0] = 1.5
    targets = prepare_targets(ans, inp)
    outputs = torch.from_numpy(out)
    with pytest.raises(ValueError) as chunked:
        reward(outputs, targets)
    with pytest.raises(ValueError) as plain:
        whole(lambda: reward(outputs, targets))
    assert str(chunked.value) == str(plain.value)
    assert "2 values outside" in str(chunked.value)


def test_outputs_of_another_size_take_the_general_path(small_chunks):
    out, ans, inp = batch(h=12, w=10)
    bigger = np.repeat(np.repeat(out, 2, axis=1), 2, axis=2)  # 24x20: normalised per output
    targets = prepare_targets(ans, inp)
    got = reward(torch.from_numpy(bigger), targets, fit="cover")  # the metric's normalisation
    assert torch.equal(got, whole(lambda: reward(torch.from_numpy(bigger), targets, fit="cover")))
