"""``pixel_codes`` (byte copies into 4-byte words) gives the codes of ``colour_codes``."""

import numpy as np
import torch

from paintkit.kernels.color.lab_table import colour_codes, pixel_codes


def test_pixel_codes_equal_colour_codes_for_every_byte_value():
    rng = np.random.default_rng(5)
    rgb = rng.integers(0, 256, (4, 97, 3), dtype=np.uint8)
    rgb[0, :3] = [[0, 0, 0], [255, 255, 255], [255, 0, 128]]
    t = torch.from_numpy(rgb)
    expected = colour_codes(t[..., 0], t[..., 1], t[..., 2])
    assert torch.equal(pixel_codes(t), expected)
    scratch = torch.full((4, 97, 4), 255, dtype=torch.uint8)  # stale bytes are overwritten
    assert torch.equal(pixel_codes(t, scratch), expected)
    view = t[:, 10:50]  # a strided view
    assert torch.equal(pixel_codes(view), colour_codes(view[..., 0], view[..., 1], view[..., 2]))
    r, g, b = (rgb[..., c].astype(np.int64) for c in range(3))
    assert np.array_equal(pixel_codes(t).numpy(), r * 65536 + g * 256 + b)
