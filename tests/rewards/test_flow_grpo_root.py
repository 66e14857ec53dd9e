"""The flow_grpo reward's relative paths: a file it cannot find is one line naming where it
looked, ``root=`` and ``PAINTKIT_REWARD_ROOT``."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.rewards.flow_grpo import flow_grpo_pixel_miou

META = {"prompt": "edit", "image": "images/017_input.png", "answer": "images/017_answer.png"}


@pytest.fixture
def dataset(tmp_path):
    folder = tmp_path / "dataset"
    (folder / "images").mkdir(parents=True)
    pixels = np.zeros((8, 8, 3), np.uint8)
    Image.fromarray(pixels).save(folder / META["image"])
    pixels[2:5, 2:5] = 255
    Image.fromarray(pixels).save(folder / META["answer"])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    return folder, elsewhere, torch.from_numpy(pixels).permute(2, 0, 1)[None].float() / 255


def test_unset_root_in_another_folder_names_root_and_the_variable(dataset, monkeypatch):
    folder, elsewhere, images = dataset
    monkeypatch.delenv("PAINTKIT_REWARD_ROOT", raising=False)
    monkeypatch.chdir(elsewhere)
    with pytest.raises(ValueError) as raised:
        flow_grpo_pixel_miou("cpu")(images, ["edit"], [META])
    message = str(raised.value)
    assert "\n" not in message
    assert "images/017_answer.png: no such file in the working directory" in message
    assert "root=" in message and "PAINTKIT_REWARD_ROOT" in message
    # pointed at the folder, either way, it scores
    monkeypatch.setenv("PAINTKIT_REWARD_ROOT", str(folder))
    assert flow_grpo_pixel_miou("cpu")(images, ["edit"], [META])[0].tolist() == [1.0]
    monkeypatch.delenv("PAINTKIT_REWARD_ROOT")
    assert flow_grpo_pixel_miou("cpu", root=folder)(images, ["edit"], [META])[0].tolist() == [1.0]


def test_a_wrong_root_or_variable_is_named(dataset, monkeypatch):
    folder, elsewhere, images = dataset
    with pytest.raises(ValueError, match="under root=.*elsewhere.*PAINTKIT_REWARD_ROOT"):
        flow_grpo_pixel_miou("cpu", root=elsewhere)(images, ["edit"], [META])
    monkeypatch.setenv("PAINTKIT_REWARD_ROOT", str(elsewhere))
    with pytest.raises(ValueError, match="under \\$PAINTKIT_REWARD_ROOT=.*elsewhere"):
        flow_grpo_pixel_miou("cpu")(images, ["edit"], [META])
