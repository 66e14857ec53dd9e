"""The remote flow_grpo reward registered as flow_grpo registers rewards.

flow_grpo's ``multi_score`` (``flow_grpo/rewards.py`` in yifan123/flow_grpo at 54809b5)
keeps a table of reward factories and builds each one as ``factory(device)`` when the name
``device`` is among the factory's ``__code__.co_varnames``, else ``factory()``; it then calls
each reward with ``(images, prompts, metadata)`` and sums ``weight * score`` per sample. The
helper below does the same in this project's words; the service URL comes from
``PAINTKIT_REWARD_URL``.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from paintkit.rewards import remote
from tests.serve import conftest as serve

problems, start_service = serve.problems, serve.start_service  # the service tests' fixtures


def multi_score_as_flow_grpo(device, score_dict, score_functions):
    """flow_grpo's way: build each reward from its factory, then weight and sum."""
    fns = {}
    for name in score_dict:
        factory = score_functions[name]
        fns[name] = factory(device) if "device" in factory.__code__.co_varnames else factory()

    def fn(images, prompts, metadata):
        details, total = {}, None
        for name, weight in score_dict.items():
            scores, _ = fns[name](images, prompts, metadata)
            details[name] = scores
            weighted = [weight * score for score in scores]
            total = weighted if total is None else [a + b for a, b in zip(total, weighted, strict=True)]
        details["avg"] = total
        return details, {}

    return fn


def _batch(problem):
    answer = torch.from_numpy(problem.answer).permute(2, 0, 1).float() / 255
    inp = torch.from_numpy(problem.input).permute(2, 0, 1).float() / 255
    return torch.stack([answer, inp])


def test_the_factory_itself_registers_with_its_url_from_the_environment(start_service, problems,
                                                                         monkeypatch):
    service = start_service()
    monkeypatch.setenv("PAINTKIT_REWARD_URL", service.url)
    problem = problems[0]
    fn = multi_score_as_flow_grpo("cpu", {"paintbench": 1.0},
                                  {"paintbench": remote.flow_grpo_pixel_miou})
    meta = {"problem_id": problem.metadata["problem_id"], "prompt": problem.instruction}
    details, _ = fn(_batch(problem), [problem.instruction] * 2, [meta, meta])
    scores = details["paintbench"]
    assert scores[0].item() == 1.0 and scores[1].item() <= 0.05
    np.testing.assert_array_equal(np.array([float(s) for s in details["avg"]]), scores.numpy())


def test_without_the_variable_the_error_names_it(monkeypatch):
    monkeypatch.delenv("PAINTKIT_REWARD_URL", raising=False)
    with pytest.raises(ValueError, match="server_url=.*PAINTKIT_REWARD_URL"):
        multi_score_as_flow_grpo("cpu", {"paintbench": 1.0}, {"paintbench": remote.flow_grpo_pixel_miou})
