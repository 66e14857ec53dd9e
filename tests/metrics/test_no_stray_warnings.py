"""The public metric API prints no warning the user did not cause: images decoded from files
(``np.asarray(Image.open(...))`` gives read-only arrays) score silently on every backend."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest
from PIL import Image

from paintkit.metrics import PixelEditIoUAccumulator, prepare_targets, reward, score
from paintkit.metrics.similarity import similarity


def _decoded(array: np.ndarray) -> np.ndarray:
    buf = io.BytesIO()
    Image.fromarray(array).save(buf, "PNG")
    image = np.asarray(Image.open(io.BytesIO(buf.getvalue())))
    assert not image.flags.writeable  # what users' decoding gives
    return image


@pytest.fixture
def decoded(rng):
    answer = rng.integers(0, 256, (16, 20, 3), dtype=np.uint8)
    inp = answer.copy()
    inp[4:9, 5:12] = 3
    output = np.clip(answer.astype(int) + rng.integers(-3, 4, answer.shape), 0, 255)
    return _decoded(output.astype(np.uint8)), _decoded(answer), _decoded(inp)


@pytest.mark.parametrize("backend", ["numba", "torch"])
def test_read_only_arrays_score_without_warnings(decoded, backend):
    out, ans, inp = decoded
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        batch = score(out[None], ans[None], inp[None], backend=backend)
        listed = score([out], [ans], [inp], backend=backend)
        targets = prepare_targets([ans], [inp], device="cpu")
        rewarded = reward([out], targets)
        acc = PixelEditIoUAccumulator(backend=backend)
        acc.update([out], [ans], [inp])
        similarity([out], [ans], ("psnr",))
    assert batch[0].to_schema() == listed[0].to_schema()
    assert float(rewarded[0]) == pytest.approx(batch[0].miou)
    assert acc.compute()["miou"] == pytest.approx(batch[0].miou)
