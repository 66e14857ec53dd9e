"""The reward-model base classes as Flow-Factory defines them (abstract ``__call__``; the
processor reads ``required_fields``, ``use_tensor_inputs``, ``device`` and ``config``)."""

from abc import ABC, abstractmethod


class BaseRewardModel(ABC):
    required_fields: tuple = ()
    use_tensor_inputs: bool = False

    def __init__(self, config, accelerator):
        self.config, self.accelerator = config, accelerator
        self.device = config.device

    @abstractmethod
    def __call__(self, *args, **kwargs):
        """Rewards of a batch."""


class PointwiseRewardModel(BaseRewardModel):
    required_fields = ("image", "prompt")


class GroupwiseRewardModel(BaseRewardModel):
    required_fields = ("image", "prompt")
