"""The Flow-Factory reward in Flow-Factory's own loop (reproduced in
``tests/support/flow_factory_loop.py`` from X-GenGroup/Flow-Factory at a0b2bc5:
``rewards/reward_processor.py`` ``RewardProcessor`` / ``RewardBuffer.finalize``,
``advantage/advantage_processor.py``, ``trainers/grpo.py``, ``data_utils/dataset.py``),
with Flow-Factory's base classes on the path (``tests/support/flow_factory_stub``), run in a
subprocess: paintkit resolves the base class when it is first imported.

A perfect output scores 1.0, the unchanged input at most 0.05, both advantages are finite
and the reward is never dropped: before, the model was no ``PointwiseRewardModel``, the
processor kept no reward (``finalize() == {}``) and the advantage step raised.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from paintkit.engines import write_suite
from paintkit.renderers.svg_scene import problem_svgs
from tests.support.generate_helpers import small_suite

REPO = Path(__file__).resolve().parents[2]
STUB = REPO / "tests" / "support" / "flow_factory_stub"
LOOP = REPO / "tests" / "support" / "flow_factory_loop.py"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    out = tmp_path_factory.mktemp("ff") / "dataset"
    suite = small_suite(tasks=("translation", "recolor"), conditions=("baseline", "horizontal"),
                        per_cell=2, size=(256, 256))
    write_suite(suite, out, format="flow-factory", engine="inprocess", progress=False)
    return out


def run_loop(dataset: Path, where: str, *extra: str) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(STUB), str(REPO)])}
    done = subprocess.run([sys.executable, str(LOOP), str(dataset), where, *extra], env=env,
                          capture_output=True, text=True, timeout=300, cwd=str(dataset.parent))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def check(result: dict) -> None:
    assert result["isinstance"] is True
    assert result["reward_names"] == ["paintbench"]
    rewards = result["rewards"]
    assert len(rewards) == len(result["prompts"]) >= 6
    assert rewards[0::2] == [1.0] * (len(rewards) // 2)  # the answer itself
    assert max(rewards[1::2]) <= 0.05  # the input unchanged
    for how in ("gdpo", "sum"):
        advantages = result[how]
        assert isinstance(advantages, list), advantages
        assert all(math.isfinite(a) for a in advantages)
        assert all(a > 0 for a in advantages[0::2]) and all(a < 0 for a in advantages[1::2])


def test_in_process_reward_is_called_by_flow_factorys_loop(dataset):
    check(run_loop(dataset, "in-process"))


def test_remote_reward_is_called_by_flow_factorys_loop(dataset):
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    from paintkit.serve.options import ServeOptions
    from tests.serve.conftest import RunningService

    service = RunningService(ServeOptions(device="cpu"))
    try:
        check(run_loop(dataset, service.url))
    finally:
        service.stop()


def test_svg_outputs_are_scored_in_flow_factorys_loop(dataset):
    """A code model's samples carry SVG text as their ``image``: drawn and scored at the
    reward processor's call, the answer's SVG 1.0 and the input's as the input."""
    suite = small_suite(tasks=("translation", "recolor"), conditions=("baseline", "horizontal"),
                        per_cell=2, size=(256, 256))
    svgs = {p.problem_id: list(problem_svgs(p.metadata, p.input, p.answer))
            for p in suite.problems()}
    path = dataset.parent / "svgs.json"
    path.write_text(json.dumps(svgs))
    check(run_loop(dataset, "in-process", str(path)))


def test_without_flow_factory_the_class_stands_alone():
    from paintkit.rewards import flow_factory

    assert flow_factory.FLOW_FACTORY_BASE is object or \
        flow_factory.FLOW_FACTORY_BASE.__name__ == "PointwiseRewardModel"


def test_a_prompt_not_in_the_dataset_is_an_error_not_a_zero(dataset):
    import torch

    from paintkit.rewards import FlowFactoryPixelMIoU

    model = FlowFactoryPixelMIoU({"dataset": str(dataset), "device": "cpu"})
    with pytest.raises(ValueError, match="is in no line of"):
        model(prompt=["paint the moon"], image=[torch.zeros(3, 256, 256)],
              condition_images=[[torch.zeros(3, 48, 48)]])
