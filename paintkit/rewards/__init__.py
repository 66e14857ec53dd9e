"""The PaintBench reward where RL trainers consume rewards: small adapters over
:func:`paintkit.metrics.reward`, one per trainer, each named after it.

- :func:`~paintkit.rewards.flow_grpo.flow_grpo_pixel_miou` — flow_grpo style ``fn(images,
  prompts, metadata) -> (scores, info)``;
- :func:`~paintkit.rewards.verl.verl_pixel_miou` — verl-omni style, one image ->
  ``{"score": ...}`` (``paintkit.rewards.verl.compute_score`` is the same function under the
  name verl-omni's config looks up by default);
- :class:`~paintkit.rewards.flow_factory.FlowFactoryPixelMIoU` — Flow-Factory style pointwise
  reward model over ``image`` and ``condition_images`` (its registry imports it by dotted
  path);
- :func:`~paintkit.rewards.trl.trl_pixel_miou` — trl style ``(prompts, completions,
  **dataset_columns) -> list[float]`` for ``GRPOTrainer`` / ``RLOOTrainer``;
- :func:`~paintkit.rewards.plain.stream_pixel_miou` — ``stream_pixel_miou(outputs,
  problems)`` for hand-written loops over :class:`paintkit.data.ProblemStream` batches.

The earlier names (``pixel_miou``, ``compute_score``, ``PixelIoURewardModel``,
``pixel_miou_reward``, ``reward_fn``) still resolve here, with a ``DeprecationWarning``.

:class:`TargetCache` (prepared problems, bounded in bytes) and :class:`ProblemIndex`
(``problem_id`` -> files of a benchmark folder) are what the adapters and ``paintkit serve``
share; :mod:`paintkit.rewards.remote` holds the adapters' twins, of the same names, that
score on a ``paintkit serve`` service (docs/serve.md).

How each treats an output whose size differs from the answer (the trainer resized or
letterboxed or stretched it) is in :mod:`paintkit.metrics.fit`; see docs/rewards.md.
"""

from paintkit.metrics.fit import FITS, fit_output
from paintkit.old_names import deprecated_aliases
from paintkit.rewards.flow_factory import FlowFactoryPixelMIoU
from paintkit.rewards.flow_grpo import flow_grpo_pixel_miou
from paintkit.rewards.plain import stream_pixel_miou
from paintkit.rewards.problem_index import ProblemIndex
from paintkit.rewards.target_cache import TargetCache
from paintkit.rewards.trl import trl_pixel_miou
from paintkit.rewards.verl import verl_pixel_miou

__all__ = ["FITS", "FlowFactoryPixelMIoU", "ProblemIndex", "TargetCache", "fit_output",
           "flow_grpo_pixel_miou", "stream_pixel_miou", "trl_pixel_miou", "verl_pixel_miou"]

__getattr__ = deprecated_aliases(__name__, {
    "PixelIoURewardModel": "FlowFactoryPixelMIoU", "compute_score": "verl_pixel_miou",
    "pixel_miou": "flow_grpo_pixel_miou", "pixel_miou_reward": "trl_pixel_miou",
    "reward_fn": "stream_pixel_miou",
})
