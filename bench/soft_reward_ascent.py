"""Does ``soft_reward`` train from where an editing model starts? The table in docs/rewards.md.

    python -m bench.soft_reward_ascent [--tasks recolor,flood_fill,translation,removal]
        [--seeds 0,1,2,3,4] [--conditions baseline] [--size 128] [--steps 300] [--lr 0.03]
        [--tau 1.0] [--loops projected]

For each problem (``paintkit.generate(task, seed, condition)``, input and answer resized to
``size`` x ``size`` by nearest neighbour, so their colours are unchanged), the output pixels
start at the unchanged input and take Adam steps on ``-soft_reward``, written one of three
ways (``--loops``, comma-separated):

- ``projected``: the pixels ``x`` in [0, 1], projected back to [0, 1] after each step;
- ``clamp``: a decoder's output ``(z / 2 + 0.5).clamp(0, 1)`` of unconstrained ``z`` (the
  clamp in the forward pass: a pixel out of range gets no gradient);
- ``straight-through``: the same ``z``, ``soft_reward(z / 2 + 0.5, clamp=True)`` (the values
  before the clamp, clamped inside with the identity as gradient).

Printed per problem: the **hard** mIoU (``paintkit.metrics.reward``) at the start, the first
step (checked every 10) where it reaches 0.9, and after ``steps``. Single-threaded torch on CPU.
"""

from __future__ import annotations

import argparse
import time

import torch

import paintkit
from paintkit.kernels.normalize import pillow_nearest_sources
from paintkit.metrics import prepare_targets, reward, soft_reward


def resized(image, size):
    h, w = image.shape[:2]
    return image[pillow_nearest_sources(h, size)][:, pillow_nearest_sources(w, size)]


LOOPS = ("projected", "clamp", "straight-through")


def ascend(task, seed, size, steps, lr, tau, condition="baseline", loop="projected"):
    problem = paintkit.generate(task, seed, condition)
    inp, ans = (torch.from_numpy(resized(x, size))[None] for x in (problem.input, problem.answer))
    targets = prepare_targets(ans, inp)
    x = inp.permute(0, 3, 1, 2).float() / 255
    if loop != "projected":
        x = x * 2 - 1  # the decoder's [-1, 1] space
    x.requires_grad_(True)
    optimizer = torch.optim.Adam([x], lr=lr)

    def output():  # what the loop scores: the pixels, or the decoder's clamped output
        return x if loop == "projected" else (x / 2 + 0.5).clamp(0, 1)

    start = float(reward(inp, targets))
    reached = None
    for step in range(steps):
        if reached is None and step % 10 == 0 and \
                float(reward(output().detach(), targets)) >= 0.9:
            reached = step
        optimizer.zero_grad()
        if loop == "straight-through":
            value = soft_reward(x / 2 + 0.5, targets, tau=tau, clamp=True)
        else:
            value = soft_reward(output(), targets, tau=tau)
        (-value.sum()).backward()
        optimizer.step()
        if loop == "projected":
            with torch.no_grad():
                x.clamp_(0, 1)
    final = float(reward(output().detach(), targets))
    if reached is None and final >= 0.9:
        reached = steps
    edited = float(targets.torch_groups("cpu")[0].edit.float().mean())
    return start, reached, final, edited


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="recolor,flood_fill,translation,removal")
    parser.add_argument("--seeds", default="0,1,2,3,4")
    parser.add_argument("--conditions", default="baseline")
    parser.add_argument("--loops", default="projected", help=f"comma-separated of {LOOPS}")
    parser.add_argument("--size", type=int, default=128)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--lr", type=float, default=0.03)
    parser.add_argument("--tau", type=float, default=1.0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    print(f"size {args.size}, Adam lr {args.lr}, tau {args.tau}, {args.steps} steps")
    loops = args.loops.split(",")
    for loop in loops:
        if loop not in LOOPS:
            parser.error(f"--loops: {loop!r} is not one of {', '.join(LOOPS)}")
    print("| loop | task | condition | seed | edited pixels | hard mIoU at start | "
          f"step reaching 0.9 | hard mIoU after {args.steps} |")
    print("|---|---|---|---|---|---|---|---|")
    for loop in loops:
        for task in args.tasks.split(","):
            for condition in args.conditions.split(","):
                for seed in (int(s) for s in args.seeds.split(",")):
                    t0 = time.perf_counter()
                    start, reached, final, edited = ascend(task, seed, args.size, args.steps,
                                                           args.lr, args.tau, condition, loop)
                    print(f"| {loop} | {task} | {condition} | {seed} | {edited:.1%} | "
                          f"{start:.3f} | {'never' if reached is None else reached} | "
                          f"{final:.3f} |  <!-- {time.perf_counter() - t0:.1f} s -->",
                          flush=True)


if __name__ == "__main__":
    main()
