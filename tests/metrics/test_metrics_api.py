"""paintkit.metrics: input forms, exact SPEC 5 results, errors, reward, accumulator."""

from __future__ import annotations

import io

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.io.images import MAX_PIXELS, ImageTooLargeError, load_rgb, write_png
from paintkit.metrics import (
    PixelEditIoUAccumulator,
    prepare_targets,
    reward,
    score,
    tolerance_statistics,
)
from tests.support import metric_oracle as oracle
from tests.support.metric_images import palette_pair


@pytest.fixture
def batch(rng):
    pairs = [palette_pair(rng, 20, 24) for _ in range(3)]
    inp = np.stack([p[0] for p in pairs])
    ans = np.stack([p[1] for p in pairs])
    out = np.clip(ans.astype(int) + rng.integers(-3, 4, ans.shape), 0, 255).astype(np.uint8)
    out[1] = inp[1]
    return out, ans, inp


@pytest.mark.parametrize("backend", ["numba", "torch"])
def test_schema_equals_oracle_for_every_input_form(batch, backend):
    out, ans, inp = batch
    expected = [oracle.problem_stats(out[k], ans[k], inp[k]) for k in range(3)]
    t = torch.from_numpy
    forms = [
        (out, ans, inp),
        (t(out), t(ans), t(inp)),
        (t(out).permute(0, 3, 1, 2), t(ans).permute(0, 3, 1, 2), t(inp).permute(0, 3, 1, 2)),
        (t(out).permute(0, 3, 1, 2).float() / 255, t(ans), t(inp)),
        ([Image.fromarray(o) for o in out], list(ans), [t(i) for i in inp]),
    ]
    for o, a, i in forms:
        got = [s.to_schema() for s in score(o, a, i, backend=backend)]
        assert got == expected


@pytest.mark.parametrize("backend", ["numba", "torch"])
def test_files_resized_odd_modes_missing_and_corrupt(batch, tmp_path, backend):
    out, ans, inp = batch
    small = out[0][::2, ::3]
    write_png(tmp_path / "small.png", small)
    Image.fromarray(out[1]).convert("P").save(tmp_path / "pal.png")
    rgba = np.dstack([out[2], np.full(out[2].shape[:2], 7, np.uint8)])
    Image.fromarray(rgba).save(tmp_path / "rgba.png")
    buf = io.BytesIO()
    Image.fromarray(out[2]).save(buf, "PNG")
    (tmp_path / "cut.png").write_bytes(buf.getvalue()[:40])
    (tmp_path / "empty.png").write_bytes(b"")
    outputs = [tmp_path / "small.png", tmp_path / "pal.png", tmp_path / "rgba.png"]
    got = score(outputs, ans, inp, backend=backend)
    assert got[0].output_size == (small.shape[1], small.shape[0])
    assert not got[0].correct_output_size and got[1].correct_output_size
    for k, path in enumerate(outputs):
        assert got[k].to_schema() == oracle.problem_stats(path, ans[k], inp[k])
    bad = [tmp_path / "cut.png", tmp_path / "empty.png", tmp_path / "nope.png"]
    got = score(bad, ans, inp, backend=backend, missing="zero")
    for k, s in enumerate(got):
        assert not s.has_output and s.error and str(bad[k]) in s.error
        assert s.to_schema() == oracle.problem_stats(None, ans[k], inp[k])
        assert s.miou == 0.0


def test_a_path_that_does_not_exist_is_an_error_unless_asked(batch, tmp_path):
    """A mistyped path scored 0 silently (issue 37, item 7)."""
    out, ans, inp = batch
    with pytest.raises(FileNotFoundError, match=r"outputs\[1\]: no such file; pass "
                       r"missing='zero'") as error:
        score([out[0], str(tmp_path / "nope.png"), out[2]], ans, inp)
    assert error.value.filename == str(tmp_path / "nope.png")
    with pytest.raises(FileNotFoundError, match=r"^\[Errno 2\] outputs: no such file"):
        score(tmp_path / "nope.png", ans[:1], inp[:1])
    got = score([out[0], str(tmp_path / "nope.png"), None], ans, inp, missing="zero")
    assert got[0].has_output and not got[1].has_output and got[1].miou == 0.0
    assert not got[2].has_output  # None is an explicit "no output" under either policy
    assert not score([None], ans[:1], inp[:1])[0].has_output
    with pytest.raises(ValueError, match="missing: expected one of 'error', 'zero'"):
        score(out, ans, inp, missing="skip")


def test_missing_output_of_an_empty_canvas_has_iou_one():
    empty = np.zeros((1, 0, 0, 3), np.uint8)
    (s,) = score([None], list(empty), list(empty))
    assert s.iou == (1.0,) * 11 and s.edit_accuracy == (0.0,) * 11


def test_bad_input_errors_name_the_argument(batch):
    out, ans, inp = batch
    with pytest.raises(ValueError, match=r"outputs: expected a batch of 3"):
        score(out[:2], ans, inp)
    with pytest.raises(ValueError, match=r"answers, inputs: expected one shape"):
        score(out, ans, inp[:, :10])
    with pytest.raises(ValueError, match=r"outputs: .*int32"):
        score(torch.from_numpy(out).int(), ans, inp)
    nan = torch.from_numpy(out).float() / 255
    nan[0, 0, 0, 0] = float("nan")
    with pytest.raises(ValueError, match=r"outputs: float images must lie in \[0, 1\]"):
        score(nan, ans, inp)
    with pytest.raises(ValueError, match=r"outputs: float images must lie in \[0, 1\]"):
        score(torch.from_numpy(out).float(), ans, inp)
    with pytest.raises(ValueError, match=r"answers: expected .*\(B, 3, H, W\).*\(2, 5\)"):
        score(out, np.zeros((2, 5), np.uint8), inp)
    with pytest.raises(ValueError, match="backend"):
        score(out, ans, inp, backend="cuda")


def test_decompression_bomb_is_refused_from_the_header(tmp_path):
    data = bytearray(io.BytesIO().getvalue())
    buf = io.BytesIO()
    Image.new("RGB", (4, 4)).save(buf, "PNG")
    data = bytearray(buf.getvalue())
    data[16:24] = (1 << 15).to_bytes(4, "big") + (1 << 14).to_bytes(4, "big")
    assert (1 << 15) * (1 << 14) > MAX_PIXELS
    (tmp_path / "bomb.png").write_bytes(bytes(data))
    with pytest.raises(ImageTooLargeError, match="2\\^28"):
        load_rgb(tmp_path / "bomb.png")
    (s,) = score([tmp_path / "bomb.png"], np.zeros((1, 4, 4, 3), np.uint8),
                 np.zeros((1, 4, 4, 3), np.uint8))
    assert not s.has_output and "2^28" in s.error


def test_reward_and_reference_reuse(batch):
    out, ans, inp = batch
    ref = prepare_targets(torch.from_numpy(ans), torch.from_numpy(inp))
    outputs = torch.from_numpy(out).permute(0, 3, 1, 2).float() / 255
    r = reward(outputs, ref)
    assert r.shape == (3,) and r.dtype == torch.float32 and r.device == outputs.device
    expected = [s.miou for s in score(out, ans, inp)]
    assert torch.allclose(r, torch.tensor(expected, dtype=torch.float32))
    assert torch.allclose(reward(outputs, ref, backend="torch"), r)
    assert torch.allclose(reward(out, ans, inp, tolerance=3),
                          torch.tensor([s.iou[3] for s in score(out, ans, inp)]))
    with pytest.raises(ValueError, match="tolerance"):
        reward(out, ans, inp, tolerance=11)


def test_accumulator_sums_batches_and_merges(batch):
    out, ans, inp = batch
    scores = score(out, ans, inp)
    whole = PixelEditIoUAccumulator()
    whole.update(out, ans, inp)
    a, b = PixelEditIoUAccumulator(), PixelEditIoUAccumulator()
    a.update(out[:1], ans[:1], inp[:1])
    b.update(list(out[1:]) + [None], list(ans[1:]) + [ans[0]], list(inp[1:]) + [inp[0]])
    merged = a.merge(b).compute()
    result = whole.compute()
    assert result["problems"] == 3 and merged["problems"] == 4 and merged["missing"] == 1
    assert result["miou"] == pytest.approx(sum(s.miou for s in scores) / 3)
    assert merged["miou"] == pytest.approx(sum(s.miou for s in scores) / 4)
    restored = PixelEditIoUAccumulator()
    restored.load_state_dict(whole.state_dict())
    restored.sync()  # no process group: a no-op
    assert restored.compute() == result
    with pytest.raises(ValueError, match="no problems"):
        PixelEditIoUAccumulator().compute()


def test_statistics_are_sums_of_counts(batch):
    out, ans, inp = batch
    stats = tolerance_statistics(out, ans, inp).stats
    assert stats.edit_correct.shape == (3, 11)
    assert torch.all(stats.edit_correct[:, 1:] >= stats.edit_correct[:, :-1])
    assert torch.all(stats.changed[:, 1:] <= stats.changed[:, :-1])
    assert torch.equal(stats.edit_pixels + stats.preservation_pixels,
                       torch.full((3,), 20 * 24))
