"""Flow-Factory style: a pointwise reward model over ``image`` and ``condition_images``.

The condition image of an edit is its input; the answer goes in ``answer_images``.

    python examples/rewards_flow_factory.py
"""

import torch

from paintkit.data import ProblemStream
from paintkit.rewards import PixelIoURewardModel
from paintkit.suites import Suite

suite = Suite(tasks=("translation",), conditions=("baseline",), per_cell=4, namespace="example",
              preservation=False)
model = PixelIoURewardModel("cpu")
for problems in ProblemStream(suite, layout="chw", batch_size=4):
    inputs, answers = problems["input"], problems["answer"]  # (4, 3, H, W): one canvas size
    images = torch.where(torch.rand(inputs.shape[0], 1, *inputs.shape[2:]) < 0.9,
                         answers, inputs).float() / 255  # dummy policy output
    rewards = model(image=images, condition_images=list(inputs), answer_images=list(answers))
    print(f"problems {problems['index']}: rewards {rewards.numpy().round(3)}")
