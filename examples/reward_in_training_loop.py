"""Use the PaintBench metric as a reward inside a (toy) training loop, on CPU in seconds.

Answers and inputs are prepared once (``prepare_reference``); each step scores a batch of
model outputs (float in [0, 1], NCHW, as a network would produce) and gets a (B,) tensor.
"""

import numpy as np
import torch

from paintkit.evaluate.synthetic import synthetic_problem
from paintkit.metrics import ScoreAccumulator, prepare_reference, reward

rng = np.random.default_rng(0)
pairs = [synthetic_problem(rng, 256, 256) for _ in range(8)]
inputs = torch.from_numpy(np.stack([p[0] for p in pairs])).permute(0, 3, 1, 2)  # (B,3,H,W)
answers = torch.from_numpy(np.stack([p[1] for p in pairs])).permute(0, 3, 1, 2)
targets = prepare_reference(answers, inputs)  # once, reused every step

accumulator = ScoreAccumulator()
for step in range(5):
    # A stand-in "model": blends input and answer, more answer as training goes on.
    alpha = (step + 1) / 5
    outputs = ((1 - alpha) * inputs.float() + alpha * answers.float()) / 255  # float [0, 1]
    r = reward(outputs, targets)  # (B,) float32 mIoU, on the outputs' device
    accumulator.update(outputs, targets)
    print(f"step {step}: mean reward {r.mean():.3f}  per problem {r.numpy().round(2)}")

summary = accumulator.compute()
print(f"over all steps: mIoU {summary['miou']:.3f}, problems {summary['problems']}")
