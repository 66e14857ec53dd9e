"""``--format flow-grpo`` read by both of flow_grpo's editing trainers, and scored through
``multi_score`` as they call it (reproduced; flow_grpo does not install from PyPI):

- ``scripts/train_qwenimage_edit_plus.py`` (yifan123/flow_grpo 9dcdc35): its
  ``GenevalPromptImageDataset`` opens ``ctrl_image``, ``ref_image`` and ``sup_image`` under
  the dataset folder (``dataset/dual_ref``: the image to edit, the image it refers to, the
  supervision target), the loop resizes ``ctrl`` and ``ref`` to ``config.resolution`` and
  calls ``reward_fn(images, prompts, prompt_metadata, ref_images, only_strict=False)``;
- ``scripts/train_flux_kontext.py``: its dataset opens ``image``;
- ``flow_grpo/rewards.py`` ``multi_score`` (94e23ee): builds each reward as ``fn(device)``
  when ``device`` is among its ``__code__.co_varnames`` and calls ``fn(images, prompts,
  metadata)``.
"""

from __future__ import annotations

import json
import os

import numpy as np
import torch
from PIL import Image

from paintkit.engines import write_suite
from paintkit.suites import build_problem
from tests.support.generate_helpers import small_suite

SUITE = small_suite(tasks=("translation", "recolor"), conditions=("baseline",), per_cell=5,
                    size=(256, 256))


def multi_score(device, score_functions: dict, score_dict: dict):
    score_fns = {name: score_functions[name](device)
                 if "device" in score_functions[name].__code__.co_varnames
                 else score_functions[name]() for name in score_dict}

    def _fn(images, prompts, metadata, ref_images=None, only_strict=True):
        details, total = {}, None
        for name, weight in score_dict.items():
            scores, _ = score_fns[name](images, prompts, metadata)
            details[name] = scores
            weighted = [weight * s for s in scores]
            total = weighted if total is None else [a + b for a, b in zip(total, weighted,
                                                                          strict=True)]
        details["avg"] = total
        return details, {}

    return _fn


class QwenEditDataset:
    """``GenevalPromptImageDataset`` of ``train_qwenimage_edit_plus.py``."""

    def __init__(self, dataset, split="train"):
        with open(os.path.join(dataset, f"{split}_metadata.jsonl"), encoding="utf-8") as f:
            self.metadatas = [json.loads(line) for line in f]
        self.dataset = dataset

    def __len__(self):
        return len(self.metadatas)

    def __getitem__(self, idx):
        meta = self.metadatas[idx]
        item = {"prompt": meta["prompt"], "metadata": meta,
                "prompt_with_image_path": f"{meta['prompt']}_{meta['ctrl_image']}"}
        for key in ("ctrl_image", "ref_image", "sup_image"):
            item[key] = Image.open(os.path.join(self.dataset, meta[key])).convert("RGB")
        return item


def test_qwenimage_edit_plus_reads_the_rows_and_scores_them(tmp_path, monkeypatch):
    out = tmp_path / "flow_grpo"
    write_suite(SUITE, out, format="flow-grpo", engine="inprocess", progress=False)
    problems = {s.problem_id: build_problem(SUITE, s) for s in SUITE.specs()}
    monkeypatch.setenv("PAINTKIT_REWARD_ROOT", str(out))
    from paintkit.rewards import flow_grpo_pixel_miou

    reward_fn = multi_score("cpu", {"paintbench": flow_grpo_pixel_miou}, {"paintbench": 1.0})
    resolution = 256
    dataset = QwenEditDataset(str(out))
    assert len(dataset) == 9
    for idx in range(len(dataset)):
        item = dataset[idx]
        problem = problems[item["metadata"]["problem_id"]]
        ctrl = item["ctrl_image"].resize((resolution, resolution))
        ref = item["ref_image"].resize((resolution, resolution))
        assert np.array_equal(np.asarray(ctrl), problem.input)
        assert np.array_equal(np.asarray(ref), problem.input)
        assert np.array_equal(np.asarray(item["sup_image"]), problem.answer)
        # the pipeline's output, output_type="pt": float (B, 3, R, R) in [0, 1]
        images = torch.stack([torch.from_numpy(np.array(x)).permute(2, 0, 1).float() / 255
                              for x in (item["sup_image"], ctrl)])
        details, _ = reward_fn(images, [item["prompt"]] * 2, [item["metadata"]] * 2, [ref] * 2,
                               only_strict=False)
        scores = [float(s) for s in details["paintbench"]]
        assert scores[0] == 1.0 and scores[1] <= 0.05


def test_flux_kontext_keys_are_kept(tmp_path):
    out = tmp_path / "flow_grpo"
    suite = small_suite(tasks=("translation",), conditions=("baseline",), per_cell=1,
                        size=(256, 256))
    write_suite(suite, out, format="flow-grpo", engine="inprocess", progress=False)
    line = json.loads((out / "train_metadata.jsonl").read_text().splitlines()[0])
    assert line["image"] == line["ctrl_image"] == line["ref_image"]
    assert line["sup_image"] == line["answer"]
    assert (out / line["image"]).is_file() and (out / line["answer"]).is_file()

