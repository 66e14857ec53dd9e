"""The ``fit`` docs/rewards.md gives for each trainer is right for its images: a perfect
output, prepared the way that trainer prepares images, scores >= 0.9 on square, landscape and
portrait PaintBench problems (1024x1024, 1024x576, 576x1024); at the default (``exact``) the
non-square ones are an error naming ``fit=``, never a guessed score.

"Perfect" is the answer drawn at the trainer's square resolution with sharp edges
(nearest-neighbour resize: PaintBench renders without anti-aliasing). The same answer
resized with Pillow's default (bicubic: edges blended into new colours, which no
normalisation can undo) is also checked: the trainer's fit keeps it well above the wrong one
(measured at 1024: stretch 0.88-0.97 where cover gives 0.09-0.35, docs/rewards.md).

- flow_grpo generates squares at ``config.resolution``: the input is stretched to the
  square, so a perfect output is the answer stretched to it (Pillow's default resize),
  a float ``(B, 3, R, R)`` tensor in [0, 1];
- Flow-Factory generates 1024x1024 squares the same way and hands over PIL images;
- verl-omni letterboxes: the canvas scaled to fit inside the square, centred, padded,
  handed over per sample as uint8 ``(3, R, R)``.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.rewards import FlowFactoryPixelMIoU, flow_grpo_pixel_miou, verl_pixel_miou


@pytest.fixture(scope="module")
def canvases():
    """One real problem per canvas shape: 1024x1024, 1024x576, 576x1024."""
    from paintkit.sources import generate

    return {cond: generate("translation", 0, cond, "amount")
            for cond in ("baseline", "horizontal", "vertical")}


def stretched(image: np.ndarray, side: int, resample=Image.NEAREST) -> Image.Image:
    return Image.fromarray(image).resize((side, side), resample)


def letterboxed(image: np.ndarray, side: int, resample=Image.NEAREST) -> np.ndarray:
    h, w = image.shape[:2]
    scale = side / max(h, w)
    nw, nh = round(w * scale), round(h * scale)
    canvas = np.zeros((side, side, 3), np.uint8)
    top, left = (side - nh) // 2, (side - nw) // 2
    canvas[top:top + nh, left:left + nw] = np.asarray(Image.fromarray(image).resize((nw, nh), resample))
    return canvas


def nchw(images: list) -> torch.Tensor:
    return torch.stack([torch.from_numpy(np.array(x)).permute(2, 0, 1) for x in images]
                       ).float() / 255


@pytest.mark.parametrize("cond", ["baseline", "horizontal", "vertical"])
def test_flow_grpo_stretch_on_its_squares(canvases, cond):
    p = canvases[cond]
    images = nchw([stretched(p.answer, 1024)])
    meta = [{"answer": p.answer, "image": p.input, "prompt": p.instruction}]
    if cond != "baseline":  # the default refuses to guess
        with pytest.raises(ValueError, match="fit='stretch'"):
            flow_grpo_pixel_miou("cpu")(images, [p.instruction], meta)
    scores, _ = flow_grpo_pixel_miou("cpu", fit="stretch")(images, [p.instruction], meta)
    assert float(scores[0]) >= 0.9
    smooth = nchw([stretched(p.answer, 1024, Image.BICUBIC)])
    scores, _ = flow_grpo_pixel_miou("cpu", fit="stretch")(smooth, [p.instruction], meta)
    assert float(scores[0]) >= 0.85
    if cond != "baseline":  # what the wrong fit does to non-square problems
        for batch in (images, smooth):
            cover, _ = flow_grpo_pixel_miou("cpu", fit="cover")(batch, [p.instruction], meta)
            assert float(cover[0]) < 0.6


@pytest.mark.parametrize("cond", ["baseline", "horizontal", "vertical"])
def test_flow_factory_stretch_on_its_pil_squares(canvases, cond):
    p = canvases[cond]
    model = FlowFactoryPixelMIoU({"device": "cpu", "fit": "stretch"}, None)
    out = model(prompt=[p.instruction], image=[stretched(p.answer, 1024)],
                condition_images=[[stretched(p.input, 1024)]],
                metadata=[{"answer": p.answer, "input": p.input}])
    assert float(out.rewards[0]) >= 0.9


@pytest.mark.parametrize("cond", ["baseline", "horizontal", "vertical"])
def test_verl_cover_on_letterboxed_outputs(canvases, cond):
    p = canvases[cond]
    solution = np.ascontiguousarray(letterboxed(p.answer, 1024).transpose(2, 0, 1))
    if cond != "baseline":  # the default refuses to guess
        with pytest.raises(ValueError, match="fit='cover'"):
            verl_pixel_miou(data_source="paintbench", solution_image=solution,
                          ground_truth={"answer": p.answer, "input": p.input})
    result = verl_pixel_miou(data_source="paintbench", solution_image=solution,
                           ground_truth={"answer": p.answer, "input": p.input}, fit="cover")
    assert result["score"] >= 0.9
    smooth = np.ascontiguousarray(letterboxed(p.answer, 1024, Image.BICUBIC).transpose(2, 0, 1))
    assert verl_pixel_miou("paintbench", smooth, {"answer": p.answer, "input": p.input},
                         fit="cover")["score"] >= 0.9
