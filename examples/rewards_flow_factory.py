"""Flow-Factory style: a pointwise reward model over ``image`` and ``condition_images``.

Flow-Factory builds the model from its dotted path with ``(config, accelerator)`` and calls
it with the generated images (PIL or float tensors in [0, 1]) and the condition images; the
answer and the full-size input travel in each sample's metadata.

    python examples/rewards_flow_factory.py
"""

import torch

from paintkit.data import ProblemStream
from paintkit.rewards import FlowFactoryPixelMIoU
from paintkit.suites import Suite

suite = Suite(tasks=("translation",), conditions=("baseline",), per_cell=4, namespace="example",
              preservation=False)
model = FlowFactoryPixelMIoU(config={"device": "cpu"}, accelerator=None)
for problems in ProblemStream(suite, layout="chw", batch_size=4):
    inputs, answers = problems["input"], problems["answer"]  # (4, 3, H, W): one canvas size
    images = torch.where(torch.rand(inputs.shape[0], 1, *inputs.shape[2:]) < 0.9,
                         answers, inputs).float() / 255  # dummy policy output
    metadata = [{"answer": a, "input": i} for a, i in zip(answers, inputs, strict=True)]
    out = model(prompt=problems["instruction"], image=list(images),
                condition_images=[[i] for i in inputs], metadata=metadata)
    print(f"problems {problems['index']}: rewards {out.rewards.numpy().round(3)}")
