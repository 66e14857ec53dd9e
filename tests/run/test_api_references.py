"""The API adapters send a problem's every image, in order, in the form the provider takes,
through the real clients against the loopback fakes: OpenAI's images/edits as the form's
``image[]`` files, Gemini as inline image parts of one content (the chat-code model:
test_run_reference_suites.py). A one-image problem's request is what it always was."""

from __future__ import annotations

import io
import json
import shutil

import numpy as np
import pytest
from PIL import Image
from reference_tree import pattern, reference_pixels, write_reference_tree

from paintkit.io.images import load_rgb
from paintkit.run.registry import build_model
from paintkit.run.runner import run_model
from tests.support.loopback import Loopback

pytest.importorskip("openai")
pytest.importorskip("google.genai")

GUIDED = "References/guided"


@pytest.fixture(autouse=True)
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("GEMINI_API_KEY", "test-key")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def _pixels(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def _by_problem(server) -> dict[str, dict]:
    return {r["prompt"]: r for r in server.received}


@pytest.mark.parametrize("name", ["gpt-image-2", "nano-banana-2"])
def test_every_image_goes_in_order(name, tmp_path):
    tree = write_reference_tree(tmp_path / "bench")
    with Loopback() as server:
        base = server.url + ("/v1" if name.startswith("gpt") else "")
        summary = run_model(build_model(name, api_base=base, retry_delay=0.01), tree,
                            tmp_path / "out", progress=False)
    assert summary.written == 3 and not summary.failures
    sent = _by_problem(server)
    for idx, count in ((0, 0), (1, 1), (2, 2)):
        request = sent[f"guided edit {idx}"]
        images = [_pixels(data) for data in request["images"]]
        assert len(images) == 1 + count
        np.testing.assert_array_equal(images[0], pattern(idx))  # the input first
        for n in range(1, count + 1):
            np.testing.assert_array_equal(images[n], reference_pixels(idx, n))
        if name == "gpt-image-2":  # one file as before; several as the image[] form
            assert request["fields"] == (["image"] if count == 0 else ["image[]"] * (1 + count))
        else:
            assert request["contents"] == 1  # one user content holding every part
        output = load_rgb(tmp_path / "out" / name / GUIDED / f"{idx:04d}_output.png")
        np.testing.assert_array_equal(output, 255 - pattern(idx))


def test_openai_refuses_more_images_than_images_edits_takes(tmp_path):
    tree = write_reference_tree(tmp_path / "bench")
    folder = tree / GUIDED
    meta = json.loads((folder / "002.json").read_text())
    meta["references"] = [{"role": "style"}] * 16
    (folder / "002.json").write_text(json.dumps(meta))
    for n in range(3, 17):
        shutil.copy(folder / "002_reference_1.png", folder / f"002_reference_{n}.png")
    with Loopback() as server:
        summary = run_model(build_model("gpt-image-2", api_base=server.url + "/v1"), tree,
                            tmp_path / "out", progress=False)
    assert summary.written == 2 and len(server.received) == 2
    assert summary.failures[f"{GUIDED}/0002"].startswith(
        "gpt-image-2 takes at most 16 images; this problem has 17 (its input and 16 reference")
