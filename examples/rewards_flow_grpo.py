"""flow_grpo style: ``flow_grpo_pixel_miou(device)`` as a reward function over ``ProblemStream`` batches.

flow_grpo calls ``fn(images, prompts, metadata)`` with the decoded images of a batch; the
answer and input travel in each sample's metadata (arrays here; paths work too).

    python examples/rewards_flow_grpo.py
"""

import torch

from paintkit.data import ProblemStream
from paintkit.rewards import flow_grpo_pixel_miou
from paintkit.suites import Suite

suite = Suite(tasks=("translation",), conditions=("baseline", "vertical"), per_cell=2,
              namespace="example")
reward = flow_grpo_pixel_miou("cpu")  # "cuda" in a real run: the images stay there
G = 3
for problems in ProblemStream(suite, layout="chw", batch_size=2):
    images, prompts, metadata = [], [], []
    for k in range(len(problems["index"])):
        inp, ans = problems["input"][k], problems["answer"][k]
        for g in range(G):  # a dummy policy: the answer, more of the input for later samples
            mix = torch.rand(ans.shape[1:]) < g / G
            images.append(torch.where(mix, inp, ans))
            prompts.append(problems["instruction"][k])
            metadata.append({"answer": ans.permute(1, 2, 0).numpy(),
                             "image": inp.permute(1, 2, 0).numpy(),  # flow_grpo's key
                             "problem_id": problems["metadata"][k]["problem_id"]})
    batch = torch.stack(images).float() / 255  # (B, 3, H, W) in [0, 1], one canvas size
    scores, info = reward(batch, prompts, metadata)
    print(f"problems {problems['index']}: scores {scores.numpy().round(3)} "
          f"mean {float(info['miou_mean']):.3f}")
