"""``--format verl-omni`` / ``pix2pix``: read back as each trainer's loader reads them, then
one sample scored through the matching reward adapter from what the loader returned.

- verl(-omni): ``RLHFDataset`` loads ``datasets.load_dataset("parquet", data_files=f)["train"]``
  per file, pops the ``prompt`` messages (``<image>`` in a message's text becomes an image
  part), opens each ``images`` entry's ``bytes`` with Pillow, and its reward loop calls
  ``verl_pixel_miou(data_source=row["data_source"], solution_image=<image tensor>,
  ground_truth=row["reward_model"]["ground_truth"], extra_info=row["extra_info"])``;
- diffusers ``train_instruct_pix2pix.py``: ``load_dataset(<folder>)["train"]``, and with no
  column arguments the first three columns are original image, edit prompt, edited image
  (PIL images, converted to RGB and resized to the training resolution).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.engines import write_suite
from paintkit.rewards import stream_pixel_miou, verl_pixel_miou
from paintkit.suites import build_problem
from tests.support.generate_helpers import small_suite

datasets = pytest.importorskip("datasets")
SUITE = small_suite(tasks=("translation",), conditions=("baseline",), per_cell=2)


@pytest.fixture(scope="module")
def problems():
    return {spec.problem_id: build_problem(SUITE, spec) for spec in SUITE.specs()}


def verl_dataset_rows(files):
    """verl's RLHFDataset, reduced to what reaches the reward: (messages, images, row)."""
    frame = datasets.concatenate_datasets(
        [datasets.load_dataset("parquet", data_files=str(f))["train"] for f in files])
    for k in range(len(frame)):
        row = dict(frame[k])
        messages = row.pop("prompt")
        for message in messages:
            message["content"] = [{"type": "image"} if part == "<image>" else
                                  {"type": "text", "text": part}
                                  for part in re.split("(<image>)", message["content"])]
        images = [Image.open(io.BytesIO(image["bytes"])) for image in row.pop("images")]
        yield messages, images, row


def test_verl_omni_rows_read_back_and_score_with_no_glue(problems, tmp_path):
    out = tmp_path / "verl"
    write_suite(SUITE, out, format="verl-omni", engine="inprocess", progress=False)
    rows = list(verl_dataset_rows(sorted(out.glob("shard-*.parquet"))))
    assert len(rows) == len(SUITE)
    for messages, images, row in rows:
        key = row["reward_model"]["ground_truth"]
        problem = problems[key]
        assert row["data_source"] == "paintbench" and row["reward_model"]["style"] == "rule"
        assert {"type": "image"} in messages[-1]["content"]
        assert {"type": "text", "text": problem.instruction} in messages[-1]["content"]
        assert np.array_equal(np.asarray(images[0].convert("RGB")), problem.input)
        # the rollout: a perfect edit, and the unchanged input, as (C, H, W) uint8 tensors
        for output, want in ((problem.answer, 1.0), (np.asarray(images[0]), None)):
            solution = torch.from_numpy(np.array(output)).permute(2, 0, 1)
            result = verl_pixel_miou(data_source=row["data_source"], solution_image=solution,
                                   ground_truth=key, extra_info=row["extra_info"])
            expected = verl_pixel_miou(solution_image=output, ground_truth={
                "answer": problem.answer, "input": problem.input})["score"]
            assert result["score"] == expected and (want is None or expected == want)


def test_pix2pix_columns_as_the_training_script_reads_them(problems, tmp_path):
    out = tmp_path / "pix2pix"
    write_suite(SUITE, out, format="pix2pix", engine="inprocess", progress=False)
    train = datasets.load_dataset(str(out))["train"]
    original, prompt, edited = train.column_names[:3]  # the script's defaults
    assert (original, prompt, edited) == ("input_image", "edit_prompt", "edited_image")
    for row in train:
        problem = problems[row["problem_id"]]
        assert row[prompt] == problem.instruction
        inp = np.asarray(row[original].convert("RGB"))
        ans = np.asarray(row[edited].convert("RGB"))
        assert np.array_equal(inp, problem.input) and np.array_equal(ans, problem.answer)
        # the plain adapter on what the loader returned: the edited image scores 1
        scores = stream_pixel_miou(np.stack([ans, inp]), {"answer": [ans], "input": [inp]},
                           samples_per_problem=2)
        assert scores[0] == 1.0 and scores[1] < 1.0


def test_cli_writes_the_trainer_formats(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "paintkit", "generate", "paintbench", "--tasks", "translation",
         "--conditions", "baseline", "--per-cell", "1", "--no-preservation", "--format",
         "verl-omni", "--engine", "inprocess", "--out", str(tmp_path / "v"), "--quiet"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert list((tmp_path / "v").glob("shard-*.parquet"))


def test_flow_grpo_dataset_read_back_and_scored(problems, tmp_path):
    # flow_grpo's image-prompt dataset: {split}_metadata.jsonl, Image.open(dataset/<image>)
    out = tmp_path / "flow_grpo"
    suite = small_suite(tasks=("translation",), conditions=("baseline",), per_cell=10)
    write_suite(suite, out, format="flow-grpo", engine="inprocess", progress=False)
    splits = {}
    for split in ("train", "test"):
        with open(out / f"{split}_metadata.jsonl") as f:
            splits[split] = [json.loads(line) for line in f]
    assert [len(splits["train"]), len(splits["test"])] == [9, 1]
    before = (out / "train_metadata.jsonl").read_bytes()
    summary = write_suite(suite, out, format="flow-grpo", engine="inprocess", progress=False)
    assert summary.skipped == len(suite) and (out / "train_metadata.jsonl").read_bytes() == before
    metadata = splits["train"][0]
    image = Image.open(out / metadata["image"]).convert("RGB")
    problem = build_problem(suite, next(s for s in suite.specs()
                                        if s.problem_id == metadata["problem_id"]))
    assert np.array_equal(np.asarray(image), problem.input)
    assert metadata["prompt"] == problem.instruction
    # the reward as flow_grpo calls it: float (B, 3, R, R) in [0, 1], prompts, metadata lines
    from paintkit.rewards import flow_grpo_pixel_miou

    outputs = torch.stack([torch.from_numpy(np.array(x)).permute(2, 0, 1).float() / 255
                           for x in (problem.answer, image)])
    scores, _ = flow_grpo_pixel_miou("cpu", root=out)(outputs, [metadata["prompt"]] * 2, [metadata] * 2)
    assert scores[0] == 1.0 and scores[1] < 1.0


def test_flow_factory_dataset_read_back_and_scored(problems, tmp_path):
    # Flow-Factory's GeneralDataset: load_dataset("json", data_files=<split>.jsonl),
    # images under <dataset>/images, "image" renamed "images" and consumed, the other
    # columns packed into each sample's metadata
    out = tmp_path / "flow_factory"
    write_suite(SUITE, out, format="flow-factory", engine="inprocess", progress=False)
    raw = datasets.load_dataset("json", data_files=str(out / "train.jsonl"), split="train")
    batch = raw[:]
    paths = batch.pop("image")
    images = [[Image.open(os.path.join(out / "images", p)).convert("RGB")] for p in paths]
    metadata = [{k: v[i] for k, v in batch.items() if k not in ("prompt", "negative_prompt")}
                for i in range(len(paths))]
    from paintkit.rewards import FlowFactoryPixelMIoU

    model = FlowFactoryPixelMIoU({"root": str(out / "images")})
    for k, meta in enumerate(metadata):
        problem = problems[meta["problem_id"]]
        assert np.array_equal(np.asarray(images[k][0]), problem.input)
        generated = [torch.from_numpy(x).permute(2, 0, 1).float() / 255
                     for x in (problem.answer, problem.input)]
        result = model(prompt=[batch["prompt"][k]] * 2, image=generated,
                       condition_images=[images[k]] * 2, metadata=[meta] * 2)
        assert result.rewards[0] == 1.0 and result.rewards[1] < 1.0
