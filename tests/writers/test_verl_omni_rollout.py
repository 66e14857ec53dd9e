"""``--format verl-omni`` rows through verl-omni's Qwen-Image-Edit rollout check and back.

verl-omni (verl-project/verl-omni a1139ba, ``verl_omni/pipelines/qwen_image_edit_flow_grpo/
vllm_omni_rollout_adapter.py`` ``_validate_condition_image_sizes``) refuses a batch whose
condition image does not have the target's aspect ratio: each condition's VAE size is
``calculate_dimensions(VAE_IMAGE_SIZE, w / h)`` (diffusers' Qwen-Image-Edit-Plus pipeline:
1024 * 1024 pixels, sides rounded to 32) and must equal the target's. The recipe's target
is a square (512x512 here), so a 16:9 canvas written full size is refused. The rollout's
output (the answer and the unchanged input, letterboxed into the same square: a perfect and
a null policy) is then scored by ``verl_pixel_miou`` as verl-omni's reward loop calls it, in
process from the row and on a ``paintkit serve`` from the key.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
import torch
from PIL import Image

from paintkit.engines import write_suite
from paintkit.rewards import verl_pixel_miou
from paintkit.suites import build_problem
from paintkit.writers.verl_omni import PAD
from tests.support.generate_helpers import small_suite

datasets = pytest.importorskip("datasets")
VAE_IMAGE_SIZE = 1024 * 1024
SUITE = small_suite(tasks=("translation", "recolor"),
                    conditions=("baseline", "horizontal", "vertical"), per_cell=1,
                    size=(256, 256))


def calculate_dimensions(target_area: int, ratio: float) -> tuple[int, int]:
    width = math.sqrt(target_area * ratio)
    height = width / ratio
    return round(width / 32) * 32, round(height / 32) * 32


def rollout_accepts(condition: Image.Image, target=(512, 512)) -> bool:
    """verl-omni's check of one condition image against the target ``(height, width)``."""
    height, width = target
    vae_size = calculate_dimensions(VAE_IMAGE_SIZE, condition.width / condition.height)
    return vae_size == calculate_dimensions(VAE_IMAGE_SIZE, width / height)


def boxed(image: np.ndarray) -> np.ndarray:
    """The rollout of a policy that returns ``image`` letterboxed as the condition was."""
    height, width = image.shape[:2]
    size = max(width, height)
    out = np.full((size, size, 3), PAD, np.uint8)
    top, left = (size - height) // 2, (size - width) // 2
    out[top:top + height, left:left + width] = image
    return out


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    out = tmp_path_factory.mktemp("verl")
    write_suite(SUITE, out, format="verl-omni", engine="inprocess", progress=False)
    frame = datasets.concatenate_datasets(
        [datasets.load_dataset("parquet", data_files=str(f))["train"]
         for f in sorted(out.glob("shard-*.parquet"))])
    return [dict(frame[k]) for k in range(len(frame))]


@pytest.fixture(scope="module")
def problems():
    return {spec.problem_id: build_problem(SUITE, spec) for spec in SUITE.specs()}


def test_every_row_passes_the_rollouts_aspect_check(rows, problems):
    conditions = [Image.open(io.BytesIO(row["images"][0]["bytes"])) for row in rows]
    assert [c.size for c in conditions if not rollout_accepts(c)] == []
    shapes = set()
    for row in rows:
        condition = Image.open(io.BytesIO(row["images"][0]["bytes"]))
        assert rollout_accepts(condition)
        problem = problems[row["reward_model"]["ground_truth"]]
        shapes.add(problem.input.shape[:2])
        # the canvas itself, unchanged, where the row's geometry says
        box = row["extra_info"]["letterbox"]
        h, w = problem.input.shape[:2]
        inner = np.asarray(condition.convert("RGB"))[box["top"]:box["top"] + h,
                                                     box["left"]:box["left"] + w]
        assert np.array_equal(inner, problem.input) and condition.size == (box["size"],) * 2
    assert len(shapes) == 3  # square, horizontal and vertical canvases were all written


def test_letterboxed_rollouts_score_exactly(rows, problems):
    for row in rows:
        problem = problems[row["reward_model"]["ground_truth"]]
        got = []
        for image in (problem.answer, problem.input):
            solution = torch.from_numpy(boxed(image)).permute(2, 0, 1)  # uint8 (C, H, W)
            got.append(verl_pixel_miou(data_source=row["data_source"], solution_image=solution,
                                     ground_truth=row["reward_model"]["ground_truth"],
                                     extra_info=row["extra_info"], fit="cover")["score"])
        plain = verl_pixel_miou(solution_image=problem.input, ground_truth={
            "answer": problem.answer, "input": problem.input}, fit="exact")["score"]
        assert got[0] == 1.0 and got[1] == plain <= 0.05


def test_letterboxed_rollouts_score_the_same_on_the_service(rows, problems):
    pytest.importorskip("fastapi")
    import asyncio

    from paintkit.rewards import remote
    from paintkit.serve.options import ServeOptions
    from tests.serve.conftest import RunningService

    service = RunningService(ServeOptions(device="cpu"))
    try:
        for row in rows:
            key = row["reward_model"]["ground_truth"]
            problem = problems[key]
            for image, local in ((problem.answer, 1.0), (problem.input, None)):
                solution = torch.from_numpy(boxed(image)).permute(2, 0, 1)
                score = asyncio.run(remote.verl_pixel_miou(solution, key, service.url,
                                                         fit="cover"))["score"]
                want = local if local is not None else verl_pixel_miou(
                    solution_image=solution, ground_truth=key, extra_info=row["extra_info"],
                    fit="cover")["score"]
                assert score == want
    finally:
        service.stop()
