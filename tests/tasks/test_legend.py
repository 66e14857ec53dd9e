"""Legend: the key read from the input pixels maps every shape color exactly once; in the
answer no shape of a removed color remains, every mapped color appears exactly where its
source was, and the key's pixels are unchanged."""

import numpy as np
import pytest

from paintkit.colors import hex_to_rgb
from paintkit.renderers import render, render_mask
from paintkit.scene import Scene
from paintkit.sources import generate


def _read_key(pixels: np.ndarray, rows, ink):
    """Row by row from the pixels: (source color, new color or None for a cross)."""
    out = []
    for row in rows:
        x0, y0, x1, y1 = row["from_box"]
        src = pixels[y0:y1, x0:x1].reshape(-1, 3)
        assert (src == src[0]).all(), "a source swatch is one solid color"
        x0, y0, x1, y1 = row["to_box"]
        dst = pixels[y0:y1, x0:x1].reshape(-1, 3)
        colors = {tuple(c) for c in np.unique(dst, axis=0).tolist()}
        if (dst == dst[0]).all() and tuple(dst[0]) != ink:
            out.append((tuple(src[0].tolist()), tuple(dst[0].tolist())))
        else:
            assert ink in colors and len(colors) == 2, "a cross: ink on the panel"
            cy, cx = (y0 + y1) // 2, (x0 + x1) // 2
            assert tuple(pixels[cy, cx]) == ink  # the bars cross in the middle
            out.append((tuple(src[0].tolist()), None))
    return out


@pytest.mark.parametrize("condition", ["baseline", "horizontal", "nonstandard", "striped",
                                       "n_med", "n_xhigh"])
@pytest.mark.parametrize("slot", [0, 1])
def test_answer_applies_the_key(condition, slot):
    p = generate("legend", slot, condition, None)
    params = p.metadata["params"]
    scene = Scene.from_dict(p.metadata["scene"])
    ink = hex_to_rgb(params["ink"])
    key = _read_key(p.input, params["rows"], ink)
    sources = [src for src, _ in key]
    shape_colors = {s.fill for s in scene.shapes}
    assert len(sources) == len(set(sources)) and set(sources) == shape_colors
    new_colors = [new for _, new in key if new is not None]
    assert new_colors, "at least one row recolors"
    assert len(new_colors) == len(set(new_colors)) and not set(new_colors) & shape_colors
    assert ink not in shape_colors | set(new_colors)
    mapping = dict(key)

    background = render(Scene(scene.canvas, scene.background))
    kx0, ky0, kx1, ky1 = params["key_box"]
    frame = 2
    key_region = np.zeros(p.input.shape[:2], bool)
    key_region[ky0 - frame:ky1 + frame, kx0 - frame:kx1 + frame] = True
    covered = np.zeros_like(key_region)
    for s in scene.shapes:
        mask = render_mask(scene, s.id)
        assert not (mask & key_region).any(), "shapes never overlap the key"
        covered |= mask
        got = p.answer[mask]
        if mapping[s.fill] is None:
            assert np.array_equal(got, background[mask]), f"{s.id} should be removed"
        else:
            assert (got == np.array(mapping[s.fill], np.uint8)).all(), f"{s.id} not recolored"
    # Key pixels unchanged; nothing but shapes changed.
    assert np.array_equal(p.answer[key_region], p.input[key_region])
    assert not (p.edit_mask & ~covered).any()
    # No pixel of any source color is left outside the key.
    outside = p.answer[~key_region]
    for src in sources:
        assert not (outside == np.array(src, np.uint8)).all(axis=-1).any()


def test_instruction_explains_the_key_without_the_mapping():
    p = generate("legend", 3, "baseline", None)
    corner = p.metadata["params"]["corner"]
    assert f"The key in the {corner} corner" in p.instruction
    assert "cross" in p.instruction and "#" not in p.instruction
