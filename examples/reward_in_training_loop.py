"""The PaintBench reward inside a (toy) GRPO-style loop over ``ProblemStream`` batches, on CPU.

Per batch of problems the targets are prepared once (answer/input Lab and edit mask on the
device); each step a dummy "policy" samples G outputs per problem (float NCHW in [0, 1], as
a network produces) and ``stream_pixel_miou`` scores them: one prepared target, G outputs, no copies
of the target. Swap ``DEVICE`` for ``"cuda"``: nothing leaves the GPU. A
``PixelEditIoUAccumulator`` keeps the run's figures; at its default backend it counts with the
Numba kernel on the CPU and the fused kernel on CUDA (``backend="torch"`` is the slow
reference path on a CPU: do not copy it into a loop).

    python examples/reward_in_training_loop.py
"""

import torch
from torch.utils.data import DataLoader

from paintkit.data import ProblemStream
from paintkit.metrics import PixelEditIoUAccumulator
from paintkit.rewards import stream_pixel_miou
from paintkit.rewards.plain import batch_targets
from paintkit.suites import Suite

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
G = 4  # samples per problem
suite = Suite(tasks=("translation", "removal"), conditions=("baseline", "horizontal"), per_cell=2,
              namespace="example", preservation=False)
loader = DataLoader(ProblemStream(suite, layout="chw", batch_size=4), batch_size=None,
                    num_workers=2, pin_memory=DEVICE == "cuda")


def dummy_policy(inputs, answers, skill, generator):
    """G samples per problem: the answer with probability ``skill`` per pixel, else the input,
    plus a little colour noise. ``inputs``/``answers``: uint8 (3, H, W) tensors."""
    samples = []
    for inp, ans in zip(inputs, answers, strict=True):
        for _ in range(G):
            take = torch.rand(ans.shape[1:], generator=generator) < skill
            out = torch.where(take, ans, inp).float() / 255
            noise = torch.randn(out.shape, generator=generator) / 255
            samples.append((out + noise).clamp(0, 1).to(DEVICE))
    return samples  # a list: PaintBench mixes canvas sizes


generator = torch.Generator().manual_seed(0)
accumulator = PixelEditIoUAccumulator()  # the fast path of the outputs' device
for step, problems in enumerate(loader):
    targets = batch_targets(problems, device=DEVICE)  # once per batch of problems
    inputs = problems["input"] if isinstance(problems["input"], list) else list(problems["input"])
    answers = problems["answer"] if isinstance(problems["answer"], list) else list(problems["answer"])
    skill = (step + 1) / len(loader)
    outputs = dummy_policy(inputs, answers, skill, generator)
    rewards = stream_pixel_miou(outputs, targets, samples_per_problem=G)  # (B * G,) on DEVICE
    advantages = rewards.view(-1, G) - rewards.view(-1, G).mean(dim=1, keepdim=True)  # GRPO
    accumulator.update(outputs, targets, samples_per_problem=G)
    print(f"step {step}: problems {problems['index']}, skill {skill:.2f}, mean reward "
          f"{rewards.mean():.3f}, advantage spread {advantages.abs().max():.3f}")

summary = accumulator.compute()
print(f"over all steps: mIoU {summary['miou']:.3f} on {summary['problems']} samples")
