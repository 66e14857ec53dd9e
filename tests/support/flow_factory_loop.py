"""Flow-Factory's GRPO sampling, reward and advantage path, reproduced in this project's words.

Follows X-GenGroup/Flow-Factory at a0b2bc5 (it does not install from PyPI):

- ``src/flow_factory/data_utils/dataset.py`` ``GeneralDataset._preprocess_batch``: a JSONL
  split loaded as a table, ``image`` renamed ``images`` (a line may give ``images``, a list,
  itself) and every path opened under ``<dataset>/images``,
  every other column kept in the batch and packed into ``metadata``;
- ``src/flow_factory/trainers/grpo.py`` ``GRPOTrainer.sample``: ``{**training_args,
  compute_log_prob, trajectory_indices, **batch}`` filtered by ``filter_kwargs(
  adapter.inference, ...)`` (``src/flow_factory/utils/base.py``), then
  ``reward_buffer.add_samples``; ``prepare_feedback``: ``finalize()`` then advantages;
- ``src/flow_factory/models/flux/flux1_kontext.py`` ``Flux1KontextAdapter.inference``: its
  parameter list (no ``metadata``, no ``**kwargs``); the samples it returns carry ``image``
  (float ``(3, H, W)`` in [0, 1]), ``prompt``, ``height``, ``width`` and the condition images
  resized for the model; the forward pass is stubbed by a policy given here;
- ``src/flow_factory/samples/samples.py`` ``BaseSample``: a mapping whose keys are its
  fields plus ``extra_kwargs``; ``unique_id`` hashes the prompt and condition images;
- ``src/flow_factory/rewards/reward_processor.py`` ``RewardProcessor`` (models sorted by
  ``isinstance`` of ``PointwiseRewardModel`` / ``GroupwiseRewardModel``,
  ``_compute_pointwise_batch``) and ``RewardBuffer.finalize`` (the synchronous path);
- ``src/flow_factory/advantage/advantage_processor.py`` ``AdvantageProcessor``
  ``compute_weighted_sum`` (``sum``) and ``compute_gdpo`` (the default ``gdpo``), with the
  ``group_contiguous`` sampler (one process).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import torch
from PIL import Image


def filter_kwargs(func, **kwargs):
    parameters = inspect.signature(func).parameters.values()
    if any(p.kind == inspect.Parameter.VAR_KEYWORD for p in parameters):
        return kwargs
    names = {p.name for p in inspect.signature(func).parameters.values()}
    return {k: v for k, v in kwargs.items() if k in names}


def to_tensor(image: Image.Image) -> torch.Tensor:
    return torch.from_numpy(np.asarray(image.convert("RGB")).copy()).permute(2, 0, 1) / 255.0


def general_dataset(folder: Path, split: str) -> list[dict[str, Any]]:
    """Rows as the dataloader yields them (batch size 1), after the preprocessing."""
    rows = []
    for text in (folder / f"{split}.jsonl").read_text().splitlines():
        batch = json.loads(text)
        if "image" in batch:  # one image, or several under "images" (multi-reference data)
            batch["images"] = batch.pop("image")
        paths = [batch["images"]] if isinstance(batch["images"], str) else batch["images"]
        images = [Image.open(folder / "images" / p).convert("RGB") for p in paths]
        batch["images"] = [to_tensor(im) for im in images]
        batch["metadata"] = {k: v for k, v in batch.items()
                             if k not in ("prompt", "negative_prompt", "images")}
        rows.append({k: [v] for k, v in batch.items()})
    return rows


class Sample:
    """``BaseSample`` reduced to what the reward and advantage steps read."""

    FIELDS = ("timesteps", "all_latents", "log_probs", "height", "width", "image", "prompt",
              "prompt_ids", "negative_prompt", "condition_images", "extra_kwargs", "_unique_id")

    def __init__(self, **values):
        for name in self.FIELDS:
            setattr(self, name, values.pop(name, None))
        self.extra_kwargs = {**(self.extra_kwargs or {}), **values}

    def to_dict(self):
        result = {name: getattr(self, name) for name in self.FIELDS}
        result.update(result.pop("extra_kwargs"))
        return result

    def keys(self):
        return self.to_dict().keys()

    def __getitem__(self, key):
        return self.to_dict()[key]

    def __getattr__(self, key):
        extra = self.__dict__.get("extra_kwargs") or {}
        if key in extra:
            return extra[key]
        raise AttributeError(key)

    @property
    def unique_id(self) -> int:
        hasher = hashlib.sha256(self.prompt.encode())
        for image in self.condition_images or []:
            hasher.update((image * 255).round().to(torch.uint8).numpy().tobytes())
        return int.from_bytes(hasher.digest()[:8], "big", signed=True)


class KontextAdapter:
    """``Flux1KontextAdapter.inference``'s parameters; the denoiser replaced by ``policy``:
    ``policy(input uint8 (H, W, 3), k) -> uint8 (H, W, 3)``, the k-th of a group, or the
    text of an SVG (a code model's output: the sample's ``image`` is that text)."""

    def __init__(self, policy, condition_size: int = 48):
        self.policy, self.condition_size, self.calls = policy, condition_size, {}

    def inference(self, images=None, prompt=None, condition_image_size=None,
                  num_inference_steps: int = 50, height: int = 1024, width: int = 1024,
                  guidance_scale: float = 3.5, generator=None, max_sequence_length: int = 512,
                  prompt_ids=None, prompt_embeds=None, pooled_prompt_embeds=None,
                  condition_images=None, image_latents=None, image_ids=None,
                  joint_attention_kwargs=None, compute_log_prob: bool = True,
                  extra_call_back_kwargs=(), trajectory_indices="all"):
        samples = []
        for b, text in enumerate(prompt):
            k = self.calls[text] = self.calls.get(text, -1) + 1
            full = (images[b][0].permute(1, 2, 0) * 255).round().to(torch.uint8).numpy()
            made = self.policy(full, k)
            generated = made if isinstance(made, str) else \
                torch.from_numpy(made.copy()).permute(2, 0, 1) / 255.0
            conds = [torch.nn.functional.interpolate(
                image[None], size=(self.condition_size, self.condition_size), mode="bilinear",
                antialias=True)[0] for image in images[b]]
            samples.append(Sample(image=generated, prompt=text, height=full.shape[0],
                                  width=full.shape[1], condition_images=conds,
                                  timesteps=torch.zeros(3), callback_index_map=torch.zeros(3)))
        return samples


class RewardProcessor:
    def __init__(self, models: dict[str, Any], batch_size: int = 4):
        from flow_factory.rewards.abc import GroupwiseRewardModel, PointwiseRewardModel

        self.pointwise = {k: m for k, m in models.items() if isinstance(m, PointwiseRewardModel)}
        self.groupwise = {k: m for k, m in models.items() if isinstance(m, GroupwiseRewardModel)}
        self.batch_size = batch_size

    def pointwise_batch(self, model, samples) -> torch.Tensor:
        fields = filter_kwargs(model.__call__, **samples[0])
        batch = {k: [getattr(s, k) for s in samples] for k in fields
                 if all(getattr(s, k) is not None for s in samples)}
        if getattr(model, "use_tensor_inputs", False) and "condition_images" in batch:
            batch["condition_images"] = [
                torch.stack(c) if all(x.shape == c[0].shape for x in c) else c
                for c in batch["condition_images"]]
        else:
            for key in ("image", "condition_images"):
                if key in batch:
                    batch[key] = [_pil(v) for v in batch[key]]
        output = model(**batch)
        return torch.as_tensor(getattr(output, "rewards", output), device="cpu",
                               dtype=torch.float32)


def _pil(value):
    if isinstance(value, list):
        return [_pil(v) for v in value]
    return Image.fromarray((value.permute(1, 2, 0).numpy() * 255).round().astype(np.uint8))


class RewardBuffer:
    def __init__(self, processor: RewardProcessor):
        self.rp, self.samples = processor, []

    def add_samples(self, samples):
        self.samples.extend(samples)

    def finalize(self) -> dict[str, torch.Tensor]:
        results = {}
        for name, model in self.rp.pointwise.items():
            parts = [self.rp.pointwise_batch(model, self.samples[i:i + self.rp.batch_size])
                     for i in range(0, len(self.samples), self.rp.batch_size)]
            results[name] = torch.cat(parts)
        return results


def advantages(samples, rewards: dict[str, torch.Tensor], weights: dict[str, float],
               group_size: int, how: str) -> np.ndarray:
    collected = {k: torch.as_tensor(v).numpy() for k, v in rewards.items()}
    _, groups = np.unique(np.array([s.unique_id for s in samples]), return_inverse=True)
    if how == "sum":
        total = np.zeros_like(next(iter(collected.values())), dtype=np.float64)
        for key, values in collected.items():
            total += values * weights[key]
        std = max(float(np.std(total)), 1e-6)
        out = np.zeros_like(total)
        for g in np.unique(groups):
            mask = groups == g
            if mask.sum() != group_size:
                raise RuntimeError("group size mismatch")
            out[mask] = (total[mask] - total[mask].mean()) / std
        return out
    per_reward = []
    for key, values in collected.items():
        adv = np.zeros_like(values, dtype=np.float64)
        for g in np.unique(groups):
            mask = groups == g
            adv[mask] = (values[mask] - values[mask].mean()) / max(np.std(values[mask]), 1e-6)
        per_reward.append(adv * weights[key])
    combined = np.sum(per_reward, axis=0)
    return (combined - combined.mean()) / max(float(combined.std()), 1e-6)


def run(dataset: Path, model, policy, group_size: int = 2) -> dict[str, Any]:
    """One GRPO epoch on the train split: rewards per sample and both advantages."""
    adapter = KontextAdapter(policy)
    buffer = RewardBuffer(RewardProcessor({"paintbench": model}))
    samples = []
    training_args = {"num_inference_steps": 2, "guidance_scale": 3.5, "seed": 0}
    for row in general_dataset(dataset, "train"):
        for _ in range(group_size):
            kwargs = {**training_args, "compute_log_prob": True, "trajectory_indices": "all",
                      **row}
            kwargs = filter_kwargs(adapter.inference, **kwargs)
            batch = adapter.inference(**kwargs)
            samples.extend(batch)
            buffer.add_samples(batch)
    rewards = buffer.finalize()
    result: dict[str, Any] = {"reward_names": sorted(rewards),
                              "prompts": [s.prompt for s in samples]}
    if rewards:
        result["rewards"] = rewards["paintbench"].tolist()
    for how in ("gdpo", "sum"):
        try:
            result[how] = advantages(samples, rewards, {"paintbench": 1.0}, group_size,
                                     how).tolist()
        except Exception as exc:  # what the trainer would raise
            result[how] = f"{type(exc).__name__}: {exc}"
    return result


if __name__ == "__main__":  # python flow_factory_loop.py DATASET in-process|URL [SVGS.json]
    import importlib

    folder = Path(sys.argv[1])
    lines = [json.loads(t) for t in (folder / "train.jsonl").read_text().splitlines()]

    def image(name):
        return np.asarray(Image.open(folder / "images" / name).convert("RGB"))

    answers = {image(ln["input"]).tobytes(): image(ln["answer"]) for ln in lines}
    # SVGS.json: {problem_id: [input SVG, answer SVG]}: a code model writing SVG
    svgs = json.loads(Path(sys.argv[3]).read_text()) if len(sys.argv) > 3 else None
    ids = {image(ln["input"]).tobytes(): ln["problem_id"] for ln in lines}

    def policy(full, k):  # the first of a group is perfect, the second the input unchanged
        if svgs is not None:
            return svgs[ids[full.tobytes()]][1 if k % 2 == 0 else 0]
        return answers[full.tobytes()] if k % 2 == 0 else full

    config = {"dataset": str(folder), "device": "cpu"}
    if sys.argv[2] == "in-process":
        cls = importlib.import_module("paintkit.rewards.flow_factory").FlowFactoryPixelMIoU
    else:
        cls = importlib.import_module("paintkit.rewards.remote").FlowFactoryPixelMIoU
        config["server_url"] = sys.argv[2]
    out = run(folder, cls(config), policy)
    from flow_factory.rewards.abc import PointwiseRewardModel

    out["isinstance"] = isinstance(cls(config), PointwiseRewardModel)
    print(json.dumps(out))
