"""The pictures of docs/references.md, made by ``docs/images/make_pictures.py``: each panel
is exactly its problem's image (the source, each reference, the answer, from
``paintkit.generate``) reduced by a box mean, written here independently of the script, and
the committed pictures have the size the script makes them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import paintkit

REPO = Path(__file__).resolve().parents[2]
IMAGES = REPO / "docs" / "images"
SCENE_PICTURES = ["reference_copy", "reference_remove", "reference_move", "reference_recolor",
                  "reference_move_recolor"]
BORDER = (160, 160, 160)

# picture -> (generate's arguments, reduction factor, the captions left to right), as
# docs/references.md names them
CASES = {
    "reference_copy": (("reference_copy", 0, "baseline", "references"), 5,
                       ["source", "reference 1 (object)", "answer"]),
    "reference_move_recolor": (("reference_move_recolor", 2, "baseline", "references"), 5,
                               ["source", "reference 1 (layout)", "reference 2 (palette)", "answer"]),
    "style_transfer": (("bar_chart", 0, None, "style-transfer"), 3,
                       ["source", "reference 1 (style)", "answer"]),
}


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("make_pictures", IMAGES / "make_pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def box_mean(image: np.ndarray, factor: int) -> np.ndarray:
    """(H, W, 3) uint8 -> each ``factor x factor`` box's mean (last boxes clipped), rounded
    half up: the sum and count of each box gathered one offset of the box at a time."""
    height, width = image.shape[:2]
    out_h, out_w = -(-height // factor), -(-width // factor)
    sums = np.zeros((out_h, out_w, 3), np.int64)
    counts = np.zeros((out_h, out_w, 1), np.int64)
    for dy in range(factor):
        for dx in range(factor):
            part = image[dy::factor, dx::factor].astype(np.int64)
            sums[:part.shape[0], :part.shape[1]] += part
            counts[:part.shape[0], :part.shape[1]] += 1
    return ((2 * sums + counts) // (2 * counts)).astype(np.uint8)


def test_box_mean_oracle_by_hand():
    image = np.zeros((3, 3, 3), np.uint8)
    image[0, 0], image[0, 1], image[1, 0], image[1, 1] = 1, 2, 2, 0  # mean 1.25 -> 1
    image[2, 2] = 255
    image[0, 2], image[1, 2] = 1, 2  # clipped box of 2: mean 1.5 -> 2
    assert box_mean(image, 2)[..., 0].tolist() == [[1, 2], [0, 255]]


def check_picture(picture: np.ndarray, panels, case) -> None:
    (task, slot, condition, source), factor, captions = case
    problem = paintkit.generate(task, slot, condition, source=source)
    expected = [problem.input, *(ref.image for ref in problem.references), problem.answer]
    assert [panel.caption for panel in panels] == captions
    # left to right, apart
    assert all(a.right < b.left for a, b in zip(panels[:-1], panels[1:], strict=True))
    for panel, image in zip(panels, expected, strict=True):
        crop = picture[panel.top:panel.bottom, panel.left:panel.right]
        np.testing.assert_array_equal(crop, box_mean(np.asarray(image), factor), err_msg=panel.caption)
        # the 1 px grey border around it, and a caption (dark pixels) under it
        assert (picture[panel.top - 1, panel.left - 1:panel.right + 1] == BORDER).all()
        assert (picture[panel.bottom, panel.left - 1:panel.right + 1] == BORDER).all()
        assert (picture[panel.top:panel.bottom, panel.left - 1] == BORDER).all()
        assert (picture[panel.top:panel.bottom, panel.right] == BORDER).all()
        strip = picture[panel.bottom + 1:, panel.left:panel.right]
        assert (strip.max(axis=2) < 128).sum() > 10, f"no caption under {panel.caption}"
    assert panels[0].left - 1 > 0 and panels[-1].right < picture.shape[1] - 1


@pytest.mark.parametrize("name", ["reference_copy", "reference_move_recolor"])
def test_each_panel_is_its_problems_image(script, tmp_path, name):
    (path,) = script.write_pictures(tmp_path, [name])
    assert path == tmp_path / f"{name}.png"
    _, panels = script.make_picture(name)
    with Image.open(path) as written:
        assert written.mode == "RGB"
        picture = np.asarray(written)
    check_picture(picture, panels, CASES[name])


@pytest.mark.slow
def test_the_style_transfer_picture(script):
    picture, panels = script.make_picture("style_transfer")
    check_picture(np.asarray(picture), panels, CASES["style_transfer"])
    with Image.open(IMAGES / "style_transfer.png") as committed:
        assert committed.size == picture.size


def test_the_committed_pictures_have_the_fresh_size(script):
    assert set(script.PICTURES) == {*SCENE_PICTURES, "style_transfer"}
    for name in SCENE_PICTURES:
        picture, _ = script.make_picture(name)
        with Image.open(IMAGES / f"{name}.png") as committed:
            assert (committed.size, committed.mode) == (picture.size, "RGB"), (
                f"docs/images/{name}.png is stale: run python docs/images/make_pictures.py")


def test_docs_show_every_picture_and_name_the_script(script):
    text = (REPO / "docs" / "references.md").read_text(encoding="utf-8")
    assert "python docs/images/make_pictures.py" in text
    for name in script.PICTURES:
        assert f"(images/{name}.png)" in text


def test_an_unknown_picture_is_refused(script, tmp_path):
    with pytest.raises(ValueError, match="no picture 'nope'"):
        script.problem_of("nope")
    with pytest.raises(SystemExit):
        script.main(["nope", "--out", str(tmp_path)])
    assert not list(tmp_path.iterdir())
