"""diffusers adapters on problems with reference images: the pipelines that read a list of
images as one edit's images get ``image=[input, *references]``, in order, at the input's
size; the others take one image and refuse such a problem with one line (the rest of the
batch runs)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from PIL import Image, ImageOps
from reference_tree import pattern, reference_pixels, write_reference_tree

from paintkit.io.images import load_rgb
from paintkit.run.diffusion import MULTI_IMAGE_PIPELINES, DiffusersModel
from paintkit.run.interface import EditRequest, ReferenceImage
from paintkit.run.runner import run_model

pytest.importorskip("diffusers")
pytest.importorskip("torch")

GUIDED = "References/guided"


class RecordingPipeline:
    """Stands in for a pipeline class of the same name: records each call's ``image``,
    ``prompt``, ``width`` and ``height``; answers the inverted first image per prompt."""

    def __init__(self):
        self.calls = []

    def to(self, device):
        return self

    def __call__(self, image=None, prompt=None, generator=None, height=None, width=None,
                 num_inference_steps=50):
        self.calls.append({"image": image, "prompt": prompt, "size": (width, height)})
        if isinstance(prompt, list):  # a batch: one image per prompt
            return SimpleNamespace(images=[ImageOps.invert(i.convert("RGB")) for i in image])
        first = image[0] if isinstance(image, list) else image
        return SimpleNamespace(images=[ImageOps.invert(first.convert("RGB"))])


def _model(pipeline_class: str) -> tuple[DiffusersModel, RecordingPipeline]:
    pipeline = type(pipeline_class, (RecordingPipeline,), {})()
    return DiffusersModel(f"diffusers:tiny/{pipeline_class}", pipeline=pipeline,
                          device="cpu", batch_size=3), pipeline


@pytest.mark.parametrize("pipeline_class", sorted(MULTI_IMAGE_PIPELINES))
def test_multi_image_pipelines_get_the_input_and_references_as_one_list(pipeline_class, tmp_path):
    tree = write_reference_tree(tmp_path / "bench")
    model, pipeline = _model(pipeline_class)
    summary = run_model(model, tree, tmp_path / "out", progress=False)
    assert summary.written == 3 and not summary.failures
    calls = {call["prompt"]: call for call in pipeline.calls}
    assert len(pipeline.calls) == 3  # one edit per problem
    single = calls["guided edit 0"]["image"]
    assert isinstance(single, Image.Image)  # a one-image problem: called as before
    np.testing.assert_array_equal(np.asarray(single), pattern(0))
    for idx, count in ((1, 1), (2, 2)):
        images = calls[f"guided edit {idx}"]["image"]
        assert isinstance(images, list) and len(images) == 1 + count
        np.testing.assert_array_equal(np.asarray(images[0]), pattern(idx))
        for n in range(1, count + 1):
            np.testing.assert_array_equal(np.asarray(images[n]), reference_pixels(idx, n))
        assert calls[f"guided edit {idx}"]["size"] == (40, 32)  # the input's, not a reference's
    out = load_rgb(tmp_path / "out" / pipeline_class / GUIDED / "0002_output.png")
    np.testing.assert_array_equal(out, 255 - pattern(2))


@pytest.mark.parametrize("pipeline_class", ["FluxKontextPipeline", "QwenImageEditPipeline",
                                            "StableDiffusionInstructPix2PixPipeline"])
def test_one_image_pipelines_refuse_a_problem_with_references(pipeline_class, tmp_path):
    tree = write_reference_tree(tmp_path / "bench")
    model, pipeline = _model(pipeline_class)
    summary = run_model(model, tree, tmp_path / "out", progress=False)
    assert summary.written == 1
    [call] = pipeline.calls  # the one-image problem, alone in its forward pass
    assert call["prompt"] == ["guided edit 0"] and len(call["image"]) == 1
    assert summary.failures[f"{GUIDED}/0001"] == (
        f"{pipeline_class} takes one image; this problem has 2 (its input and 1 reference "
        "image(s): style); run a pipeline that takes several (qwen-image-edit-2511, "
        "flux.2-dev, flux.2-klein-9b)")


@pytest.mark.slow  # a real pipeline's edit on the CPU: about a minute
def test_qwen_image_edit_plus_encodes_every_image_of_the_problem(tmp_path):
    """The real QwenImageEditPlusPipeline (tiny random weights): its prompt encoder gets the
    input and the reference as the two pictures of one edit; the output has the input's
    size."""
    from tiny_edit_pipelines import tiny_qwen_image_edit

    weights = tiny_qwen_image_edit(tmp_path / "pipelines", plus=True)
    model = DiffusersModel("qwen-image-edit-2511", weights=str(weights), device="cpu",
                           call={"num_inference_steps": 1})
    encoded = []
    encode_prompt = model.pipeline.encode_prompt

    def spy(*args, **kwargs):
        encoded.append(kwargs.get("image"))
        return encode_prompt(*args, **kwargs)

    model.pipeline.encode_prompt = spy
    source = Image.fromarray(pattern(1, 80, 64))
    style = Image.fromarray(pattern(2, 48, 24))
    [result] = model.edit_batch([EditRequest(source, "make it blue", seed=0,
                                             references=(ReferenceImage(style, "style"),))])
    assert result.error is None and result.image.size == (80, 64)
    assert encoded and all(len(images) == 2 for images in encoded)  # both pictures, each pass
    assert encoded[0][0].size[0] / encoded[0][0].size[1] == pytest.approx(80 / 64, rel=0.1)
    assert encoded[0][1].size[0] / encoded[0][1].size[1] == pytest.approx(48 / 24, rel=0.1)
