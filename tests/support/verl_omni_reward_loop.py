"""verl-omni's reward configuration and reward managers, reproduced in this project's words.

Follows verl-project/verl-omni at a1139ba (it does not install from PyPI):

- ``verl_omni/trainer/config/_generated_diffusion_trainer.yaml``: the ``reward`` defaults
  (``custom_reward_function`` path null / name ``compute_score``, ``reward_functions`` {},
  ``reward_manager.name`` ``VisualRewardManager``); Hydra overrides ``key=value`` must name
  an existing key, ``+key=value`` a new one;
- ``verl_omni/reward_loop/reward_manager/visual.py`` ``VisualRewardManager``: with no custom
  function it scores through ``default_compute_score_image``
  (``verl_omni/utils/reward_score/__init__.py``), which raises ``NotImplementedError`` for
  any ``data_source`` but ``jpeg_compressibility``;
- ``verl_omni/reward_loop/reward_manager/multi.py`` ``MultiVisualRewardManager``: each
  ``reward_functions`` entry's ``path``/``name`` loaded (``pkg://module``), the keys beyond
  ``path``, ``name``, ``weight``, ``required`` passed to the function, kwargs filtered by its
  signature, an ``async def`` awaited; an exception is 0.0 unless ``required`` (then a
  ``RuntimeError``); a dict result's ``score`` is the reward.
"""

from __future__ import annotations

import asyncio
import copy
import importlib
import inspect
import re
from typing import Any

DEFAULTS = {"reward": {
    "reward_model": {"enable": False, "model_path": None},
    "custom_reward_function": {"path": None, "name": "compute_score"},
    "reward_functions": {},
    "aggregation": "weighted_sum",
    "reward_manager": {"source": "importlib", "name": "VisualRewardManager",
                       "module": {"path": "pkg://verl_omni.reward_loop.reward_manager"}},
}}
MANAGERS_MODULE = "pkg://verl_omni.reward_loop.reward_manager"


def _value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if text.lower() in ("null", "none"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def overrides_of(block: str) -> list[str]:
    """The overrides of a shell block: one per line, quotes and the trailing ``\\`` dropped."""
    out = []
    for line in block.splitlines():
        line = line.strip().rstrip("\\").strip()
        if not line or line.startswith("#"):
            continue
        if line[0] in "'\"" and line[-1] == line[0]:
            line = line[1:-1]
        out.append(line)
    return out


def apply_overrides(overrides: list[str]) -> dict:
    config = copy.deepcopy(DEFAULTS)
    for item in overrides:
        add = item.startswith("+")
        key, _, raw = item.lstrip("+").partition("=")
        *parents, leaf = key.split(".")
        node = config
        for part in parents:
            if part not in node:
                if not add:
                    raise KeyError(f"Could not override '{key}': key not in struct (use +)")
                node[part] = {}
            node = node[part]
        if add and leaf in node:
            raise KeyError(f"Could not append to config. An item is already at '{key}'")
        if not add and leaf not in node:
            raise KeyError(f"Could not override '{key}': key not in struct (use +)")
        node[leaf] = _value(raw)
    return config


def multi_reward_placeholder(**kwargs):
    raise RuntimeError("_multi_reward_placeholder should never be called directly")


def load_function(path: str | None, name: str):
    if path is None:
        return None
    if path == "pkg://verl_omni.reward_loop.reward_manager.multi" and \
            name == "_multi_reward_placeholder":
        return multi_reward_placeholder  # verl-omni's own object, reproduced here
    module = importlib.import_module(re.sub(r"^pkg://", "", path))
    return getattr(module, name)


def default_compute_score_image(data_source, solution_image, ground_truth, extra_info=None,
                                **kwargs):
    raise NotImplementedError(f"Reward function is not implemented for {data_source=}")


class VisualRewardManager:
    def __init__(self, config, compute_score):
        self.compute_score = compute_score or default_compute_score_image

    async def run_single(self, sample: dict) -> dict:
        fn = self.compute_score
        kwargs = dict(data_source=sample["data_source"], solution_image=sample["responses"],
                      ground_truth=sample["reward_model"]["ground_truth"],
                      extra_info=sample.get("extra_info", {}))
        result = await fn(**kwargs) if inspect.iscoroutinefunction(fn) else \
            await asyncio.get_running_loop().run_in_executor(None, lambda: fn(**kwargs))
        score = result["score"] if isinstance(result, dict) else result
        return {"reward_score": float(score)}


class MultiVisualRewardManager(VisualRewardManager):
    def __init__(self, config, compute_score):
        super().__init__(config, compute_score)
        entries = config["reward"]["reward_functions"]
        if not entries:
            raise ValueError("MultiVisualRewardManager requires non-empty reward.reward_functions")
        self.subs = []
        for key, entry in entries.items():
            required = entry.get("required", False)
            if isinstance(required, str):
                required = required.lower() == "true"
            fn = load_function(entry["path"], entry["name"])
            extra = {k: v for k, v in entry.items()
                     if k not in ("path", "name", "weight", "required")}
            self.subs.append((key, fn, float(entry.get("weight", 1.0)), required, extra))

    async def run_single(self, sample: dict) -> dict:
        base = dict(data_source=sample["data_source"], solution_image=sample["responses"],
                    ground_truth=sample["reward_model"]["ground_truth"],
                    extra_info=sample.get("extra_info", {}))
        combined, info = 0.0, {}
        for key, fn, weight, required, extra in self.subs:
            kwargs = {**base, **extra}
            sig = inspect.signature(fn)
            if not any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()):
                kwargs = {k: v for k, v in kwargs.items() if k in sig.parameters}
            try:
                if inspect.iscoroutinefunction(fn):
                    result = await fn(**kwargs)
                else:
                    result = await asyncio.get_running_loop().run_in_executor(
                        None, lambda f=fn, kw=kwargs: f(**kw))
                score = float(result["score"]) if isinstance(result, dict) else float(result)
            except Exception as exc:
                if required:
                    raise RuntimeError(f"Required sub-reward '{key}' failed: {exc}") from exc
                score = 0.0
            info[f"reward/{key}"] = score
            combined += weight * score
        return {"reward_score": combined, "reward_extra_info": info}


def load_reward_manager(config: dict):
    manager = config["reward"]["reward_manager"]
    if manager["module"]["path"] != MANAGERS_MODULE:
        raise ImportError(f"reward manager module {manager['module']['path']!r}")
    cls = {"VisualRewardManager": VisualRewardManager,
           "MultiVisualRewardManager": MultiVisualRewardManager}[manager["name"]]
    custom = config["reward"]["custom_reward_function"]
    return cls(config, load_function(custom["path"], custom["name"]))
