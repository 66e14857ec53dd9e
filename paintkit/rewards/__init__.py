"""The PaintBench reward where RL trainers consume rewards: small adapters over
:func:`paintkit.metrics.reward`.

- :func:`~paintkit.rewards.flow_grpo.pixel_miou` — flow_grpo style ``fn(images, prompts,
  metadata) -> (scores, info)``;
- :func:`~paintkit.rewards.verl.compute_score` — verl style, one image -> ``{"score": ...}``;
- :class:`~paintkit.rewards.flow_factory.PixelIoURewardModel` — Flow-Factory style pointwise
  reward model over ``image`` and ``condition_images``;
- :func:`~paintkit.rewards.trl.pixel_miou_reward` — trl style ``(prompts, completions,
  **dataset_columns) -> list[float]`` for ``GRPOTrainer`` / ``RLOOTrainer``;
- :func:`~paintkit.rewards.plain.reward_fn` — ``reward_fn(outputs, problems)`` for
  hand-written loops over :class:`paintkit.data.ProblemStream` batches.

:class:`TargetCache` (prepared problems, bounded in bytes) and :class:`ProblemIndex`
(``problem_id`` -> files of a benchmark folder) are what the adapters and ``paintkit serve``
share; :mod:`paintkit.rewards.remote` holds the adapters' twins that score on a
``paintkit serve`` service (docs/serve.md).

How each treats an output whose size differs from the answer (the trainer resized or
letterboxed or stretched it) is in :mod:`paintkit.metrics.fit`; see docs/rewards.md.
"""

from paintkit.metrics.fit import FITS, fit_output
from paintkit.rewards.flow_factory import PixelIoURewardModel
from paintkit.rewards.flow_grpo import pixel_miou
from paintkit.rewards.plain import reward_fn
from paintkit.rewards.problem_index import ProblemIndex
from paintkit.rewards.target_cache import TargetCache
from paintkit.rewards.trl import pixel_miou_reward
from paintkit.rewards.verl import compute_score

__all__ = ["FITS", "PixelIoURewardModel", "ProblemIndex", "TargetCache", "compute_score",
           "fit_output", "pixel_miou", "pixel_miou_reward", "reward_fn"]
