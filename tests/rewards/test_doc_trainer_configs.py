"""Every trainer configuration block in docs/ run as written (but for addresses and paths)
through the trainer's own config loading and reward call, reproduced from its source:

- verl-omni's Hydra overrides (docs/serve.md, docs/rewards.md) through its reward defaults,
  ``load_reward_manager`` and the managers' ``run_single``
  (``tests/support/verl_omni_reward_loop.py``, verl-omni a1139ba), on rows written by
  ``paintkit generate --format verl-omni`` with a letterboxed rollout;
- Flow-Factory's reward YAML (docs/rewards.md) through ``RewardArguments.from_dict`` (unknown
  keys into ``extra_kwargs``, read back as attributes: ``src/flow_factory/hparams/abc.py``)
  and its registry's dotted-path import (``src/flow_factory/rewards/registry.py``,
  Flow-Factory a0b2bc5), then called with what its GRPO loop passes.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from paintkit.engines import write_suite
from paintkit.suites import build_problem
from tests.support import verl_omni_reward_loop as verl_omni
from tests.support.generate_helpers import small_suite

DOCS = Path(__file__).resolve().parents[2] / "docs"
SUITE = small_suite(tasks=("translation",), conditions=("baseline", "horizontal"), per_cell=1,
                    size=(256, 256))


def blocks(doc: str, language: str, needle: str) -> list[str]:
    text = (DOCS / doc).read_text()
    found = re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)
    return [b for b in found if needle in b]


def verl_blocks() -> list[tuple[str, str]]:
    return [(doc, b) for doc in ("serve.md", "rewards.md")
            for b in blocks(doc, "bash", "reward.reward_functions")]


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    datasets = pytest.importorskip("datasets")
    out = tmp_path_factory.mktemp("verl")
    write_suite(SUITE, out, format="verl-omni", engine="inprocess", progress=False)
    frame = datasets.concatenate_datasets(
        [datasets.load_dataset("parquet", data_files=str(f))["train"]
         for f in sorted(out.glob("shard-*.parquet"))])
    problems = {s.problem_id: build_problem(SUITE, s) for s in SUITE.specs()}
    return [(dict(frame[k]), problems[frame[k]["reward_model"]["ground_truth"]])
            for k in range(len(frame))]


def rollout(image: np.ndarray, box: dict) -> torch.Tensor:
    """The policy's output in the rollout's square (uint8 (C, H, W)), as the condition was."""
    size = box["size"]
    out = np.full((size, size, 3), 255, np.uint8)
    h, w = image.shape[:2]
    out[box["top"]:box["top"] + h, box["left"]:box["left"] + w] = image
    return torch.from_numpy(out).permute(2, 0, 1)


def scores(manager, rows) -> list[tuple[float, float]]:
    out = []
    for row, problem in rows:
        got = []
        for image in (problem.answer, problem.input):
            sample = {**row, "responses": rollout(image, row["extra_info"]["letterbox"])}
            got.append(asyncio.run(manager.run_single(sample))["reward_score"])
        out.append(tuple(got))
    return out


def test_the_docs_hold_both_verl_omni_blocks():
    assert {doc for doc, _ in verl_blocks()} == {"serve.md", "rewards.md"}


def test_three_overrides_alone_are_refused_by_verl_omni(rows):
    config = verl_omni.apply_overrides([
        "+reward.reward_functions.paintbench.path=pkg://paintkit.rewards.remote",
        "+reward.reward_functions.paintbench.name=compute_score",
        "+reward.reward_functions.paintbench.server_url=http://127.0.0.1:9"])
    manager = verl_omni.load_reward_manager(config)
    with pytest.raises(NotImplementedError, match="paintbench"):
        scores(manager, rows[:1])


def test_in_process_block_runs_as_written(rows):
    found = [b for doc, b in verl_blocks() if "paintkit.rewards.verl" in b]
    assert found
    for block in found:
        manager = verl_omni.load_reward_manager(
            verl_omni.apply_overrides(verl_omni.overrides_of(block)))
        for perfect, unchanged in scores(manager, rows):
            assert perfect == 1.0 and unchanged <= 0.05


def test_service_block_runs_as_written_and_a_down_service_is_no_zero(rows):
    pytest.importorskip("fastapi")
    from paintkit.serve.options import ServeOptions
    from tests.serve.conftest import RunningService

    (block,) = [b for doc, b in verl_blocks() if "paintkit.rewards.remote" in b]
    service = RunningService(ServeOptions(device="cpu"))
    try:
        config = verl_omni.apply_overrides(verl_omni.overrides_of(
            block.replace("http://10.0.0.5:8000", service.url)))
        for perfect, unchanged in scores(verl_omni.load_reward_manager(config), rows):
            assert perfect == 1.0 and unchanged <= 0.05
    finally:
        service.stop()
    config = verl_omni.apply_overrides(verl_omni.overrides_of(
        block.replace("http://10.0.0.5:8000", service.url)))
    config["reward"]["reward_functions"]["paintbench"]["max_retries"] = 0
    with pytest.raises(RuntimeError, match="Required sub-reward 'paintbench' failed"):
        scores(verl_omni.load_reward_manager(config), rows[:1])


class RewardArguments:
    """Flow-Factory's ``RewardArguments.from_dict``: declared fields, the rest in
    ``extra_kwargs``, read back as attributes."""

    FIELDS = {"name": None, "reward_model": None, "weight": 1.0, "dtype": "bfloat16",
              "device": "cuda", "batch_size": 16, "async_reward": False, "num_workers": 1}

    def __init__(self, values: dict):
        for key, default in self.FIELDS.items():
            setattr(self, key, values.get(key, default))
        self.device = torch.device(self.device)
        self.extra_kwargs = {k: v for k, v in values.items() if k not in self.FIELDS}

    def __getattr__(self, name):
        extra = self.__dict__.get("extra_kwargs", {})
        if name in extra:
            return extra[name]
        raise AttributeError(name)


def test_flow_factory_block_builds_and_scores(tmp_path):
    import importlib
    import json

    import yaml

    (block,) = blocks("rewards.md", "yaml", "reward_model: paintkit")
    dataset = tmp_path / "ff"
    write_suite(SUITE, dataset, format="flow-factory", engine="inprocess", progress=False)
    config = yaml.safe_load(block.replace("/data/paintbench_ff", str(dataset)))
    (entry,) = config["rewards"]
    args = RewardArguments(entry)
    module, name = args.reward_model.rsplit(".", 1)
    cls = getattr(importlib.import_module(module), name)

    class Accelerator:
        device = torch.device("cpu")

    model = cls(config=args, accelerator=Accelerator())
    assert model.fit == "stretch" and str(model.device) == "cpu"
    line = json.loads((dataset / "train.jsonl").read_text().splitlines()[0])
    problem = build_problem(SUITE, next(s for s in SUITE.specs()
                                        if s.problem_id == line["problem_id"]))
    images = [torch.from_numpy(x.copy()).permute(2, 0, 1).float() / 255
              for x in (problem.answer, problem.input)]
    small = torch.nn.functional.interpolate(images[1][None], size=(64, 64), mode="bilinear")[0]
    out = model(prompt=[line["prompt"]] * 2, image=images, condition_images=[[small]] * 2)
    assert out.rewards.tolist()[0] == 1.0 and out.rewards.tolist()[1] <= 0.05
