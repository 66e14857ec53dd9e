"""Proof that the reward trains: a small policy learns PaintBench point operations from
paintkit's hard reward (GRPO-style policy gradient), on CPU, in about a minute.

Problems: ``point_operations`` (invert / grayscale / brighten or darken by a stated amount,
applied to every pixel, the background or the shapes inside an outline). Training problems
come from the seed namespace ``"train_example"``; the held-out problems are PaintBench's own
(namespace ``"paintbench"``), so the two sets never share a seed.

Policy (about 7k parameters, starts near random): a linear head over a hashed bag of the
instruction's words gives a categorical distribution over the operation (4) and the scope (3);
a Gaussian over the brightness amount has its mean ``100 * (a * stated / 100 + b)`` from the
number the instruction states (``a``, ``b`` learned, starting at 0 and 0.5).
An action is rendered with paintkit's own kernel
(:func:`paintkit.kernels.point_ops.point_operation_numba`) on the pixels the scope selects.
Which pixels a scope selects is a fixed, non-learned perception step read from the input
image and the problem's metadata (the outline colour, a pixel inside it, the background
colours); the policy has to learn from the reward alone which words mean which operation and
scope, and how the stated number maps to the offset. It is never shown an answer.

Training: per step ``--batch`` problems, ``--group`` (G) sampled actions each, every output
scored with :func:`paintkit.metrics.reward` (the benchmark's hard mIoU) against targets
prepared once (``samples_per_problem=G``), group-normalised advantages, one Adam step on
``-(advantage * log-prob) - bonus * entropy`` (the bonus decays linearly to 0: early
exploration keeps the scope head from settling on "every pixel", which already earns a partial
reward). Every ``--eval-every`` steps it prints the hard mIoU
(:func:`paintkit.metrics.score`, full canvases) of the policy's most likely edit on the
held-out problems.

    python examples/train_with_reward.py                        # about a minute on 2 CPU cores
    python examples/train_with_reward.py --train 30 --held-out 15 --steps 40   # ~10 s
"""

from __future__ import annotations

import argparse
import re
import time
import zlib

import numpy as np
import torch
from torch import nn

from paintkit.colors import hex_to_rgb
from paintkit.kernels.color_mask import color_mask
from paintkit.kernels.flood_fill import connected_region_numba
from paintkit.kernels.point_ops import point_operation_numba
from paintkit.metrics import prepare_targets, reward, score
from paintkit.sources import generate

TASK = "point_operations"
MODES = ("invert", "grayscale", "brightness")
OPERATIONS = ("invert", "grayscale", "brighten", "darken")
SCOPES = ("all", "background", "shapes")
HASHED_WORDS = 1024  # bag-of-words features (crc32 of each lowercase word, modulo this)


# --------------------------------------------------------------------------- problems


def load_problems(count: int, namespace: str, first_slot: int = 0) -> list:
    """``count`` problems, modes in turn (slots ``first_slot``, ``first_slot + 1``, ...)."""
    return [generate(TASK, first_slot + k // len(MODES), "baseline", MODES[k % len(MODES)],
                     namespace=namespace) for k in range(count)]


def scope_masks(problem) -> tuple[tuple[slice, slice], dict[str, np.ndarray]]:
    """The fixed perception step: ``(window, {scope: bool (h, w) mask over the window})``.

    Inside = the pixels a 4-connected fill from the metadata's interior pixel reaches without
    crossing the outline's colour; background = inside pixels of a background colour
    (metadata ``bg_colors``); shapes = the other inside pixels.
    """
    params = problem.metadata["params"]
    image = problem.input
    fence = color_mask(image, [hex_to_rgb(params["outline_color"])])
    inside = connected_region_numba(np.repeat(fence[:, :, None].view(np.uint8), 3, axis=2),
                                    tuple(params["interior_pixel"]))
    rows, cols = np.nonzero(inside)
    window = (slice(rows.min(), rows.max() + 1), slice(cols.min(), cols.max() + 1))
    inside = inside[window]
    background = color_mask(image[window], [hex_to_rgb(c) for c in problem.metadata["bg_colors"]])
    return window, {"all": inside, "background": inside & background,
                    "shapes": inside & ~background}


def render(window_pixels: np.ndarray, mask: np.ndarray, operation: str, amount: int) -> np.ndarray:
    """The window edited by one action (paintkit's point-operation kernel)."""
    if not mask.any():
        return window_pixels.copy()
    if operation in ("invert", "grayscale"):
        return point_operation_numba(window_pixels, mask, operation)
    offset = amount if operation == "brighten" else -amount
    return point_operation_numba(window_pixels, mask, "brightness", offset)


def features(instruction: str) -> np.ndarray:
    """float32 ``(HASHED_WORDS + 2,)``: hashed bag of words, the amount after "by" / 100, 1."""
    out = np.zeros(HASHED_WORDS + 2, np.float32)
    for word in re.findall(r"[a-z]+", instruction.lower()):
        out[zlib.crc32(word.encode()) % HASHED_WORDS] = 1.0
    stated = re.search(r"\bby (\d+)", instruction)
    out[HASHED_WORDS] = int(stated.group(1)) / 100 if stated else 0.0
    out[HASHED_WORDS + 1] = 1.0
    return out


class Prepared:
    """One problem ready for training or evaluation: features, window, scope masks, and
    the prepared target of the window (the reward on the window equals the reward on the
    whole canvas: every candidate edit changes only pixels inside the outline)."""

    def __init__(self, problem):
        self.problem = problem
        self.x = torch.from_numpy(features(problem.instruction))
        self.window, self.masks = scope_masks(problem)
        self.pixels = np.ascontiguousarray(problem.input[self.window])
        self.target = prepare_targets([np.ascontiguousarray(problem.answer[self.window])],
                                        [self.pixels])

    def output(self, operation: str, scope: str, amount: int, full: bool = False) -> np.ndarray:
        edited = render(self.pixels, self.masks[scope], operation, amount)
        if not full:
            return edited
        out = self.problem.input.copy()
        out[self.window] = edited
        return out


# --------------------------------------------------------------------------- policy


class Policy(nn.Module):
    """Features ``(B, F)`` -> operation logits ``(B, 4)``, scope logits ``(B, 3)`` (a linear
    head over all features) and a Gaussian over the brightness amount: mean
    ``100 * (a * stated + b)`` from the stated number alone, one learned standard deviation."""

    def __init__(self, n_features: int, generator: torch.Generator):
        super().__init__()
        self.head = nn.Linear(n_features, len(OPERATIONS) + len(SCOPES), bias=False)
        with torch.no_grad():
            self.head.weight.normal_(0, 0.01, generator=generator)
        self.amount = nn.Parameter(torch.tensor([0.0, 0.5]))  # (a, b): 50 whatever is stated
        self.log_std = nn.Parameter(torch.tensor(np.log(0.2), dtype=torch.float32))

    def forward(self, x):
        logits = self.head(x)
        mean = 100 * (x[:, -2] * self.amount[0] + self.amount[1])
        return logits[:, :4], logits[:, 4:], mean, 100 * self.log_std.exp()


def greedy_outputs(policy: Policy, problems: list[Prepared]) -> list[np.ndarray]:
    """Full-canvas outputs of the most likely action per problem."""
    with torch.no_grad():
        ops, scopes, mean, _ = policy(torch.stack([p.x for p in problems]))
    return [p.output(OPERATIONS[int(o)], SCOPES[int(s)], int(min(abs(round(float(m))), 255)),
                     full=True)
            for p, o, s, m in zip(problems, ops.argmax(1), scopes.argmax(1), mean, strict=True)]


def held_out_miou(policy: Policy, problems: list[Prepared]) -> float:
    """Mean benchmark mIoU (full canvases, :func:`paintkit.metrics.score`) of greedy edits."""
    results = score(greedy_outputs(policy, problems), [p.problem.answer for p in problems],
                    [p.problem.input for p in problems])
    return float(np.mean([r.miou for r in results]))


def train_step(policy, optimiser, batch: list[Prepared], group: int,
               generator: torch.Generator, entropy: float = 0.0) -> float:
    """One GRPO-style step on ``batch``; returns the mean reward of the sampled outputs."""
    op_logits, scope_logits, mean, std = policy(torch.stack([p.x for p in batch]))
    ops = torch.distributions.Categorical(logits=op_logits)
    scopes = torch.distributions.Categorical(logits=scope_logits)
    amounts = torch.distributions.Normal(mean, std)
    op = ops.sample((group,)).T  # (B, G)
    scope = scopes.sample((group,)).T
    amount = (mean[:, None] + std * torch.randn(op.shape, generator=generator)).detach()
    rewards = []
    for k, problem in enumerate(batch):
        outputs = [problem.output(OPERATIONS[int(o)], SCOPES[int(s)],
                                  int(min(abs(round(float(a))), 255)))
                   for o, s, a in zip(op[k], scope[k], amount[k], strict=True)]
        rewards.append(reward(outputs, problem.target, samples_per_problem=group))
    rewards = torch.stack(rewards)  # (B, G)
    advantage = (rewards - rewards.mean(1, keepdim=True)) / (rewards.std(1, keepdim=True) + 1e-4)
    uses_amount = op >= OPERATIONS.index("brighten")
    log_prob = (ops.log_prob(op.T).T + scopes.log_prob(scope.T).T
                + uses_amount * amounts.log_prob(amount.T).T)
    spread = ops.entropy().mean() + scopes.entropy().mean()  # keeps it exploring early on
    loss = -(advantage * log_prob).mean() - entropy * spread
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()
    return float(rewards.mean())


def main(argv=None) -> tuple[float, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=90, help="training problems")
    parser.add_argument("--held-out", type=int, default=30, help="held-out PaintBench problems")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch", type=int, default=8, help="problems per step")
    parser.add_argument("--group", type=int, default=8, help="G: sampled actions per problem")
    parser.add_argument("--lr", type=float, default=0.03)
    parser.add_argument("--entropy", type=float, default=0.2,
                        help="entropy bonus at the start (decays linearly to 0)")
    parser.add_argument("--eval-every", type=int, default=25)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    generator = torch.Generator().manual_seed(args.seed)
    torch.manual_seed(args.seed)
    train = [Prepared(p) for p in load_problems(args.train, "train_example")]
    held_out = [Prepared(p) for p in load_problems(args.held_out, "paintbench")]
    print(f"{len(train)} training problems (namespace train_example), {len(held_out)} held-out "
          f"PaintBench problems, prepared in {time.perf_counter() - start:.1f} s", flush=True)

    policy = Policy(HASHED_WORDS + 2, generator)
    optimiser = torch.optim.Adam(policy.parameters(), lr=args.lr)
    order = np.random.default_rng(args.seed)
    before = held_out_miou(policy, held_out)
    print(f"step    0  held-out mIoU {before:.3f}", flush=True)
    after, recent = before, []
    for step in range(1, args.steps + 1):
        batch = [train[k] for k in order.choice(len(train), args.batch, replace=False)]
        bonus = args.entropy * (1 - (step - 1) / args.steps)  # explore early, settle late
        recent.append(train_step(policy, optimiser, batch, args.group, generator, bonus))
        if step % args.eval_every == 0 or step == args.steps:
            after = held_out_miou(policy, held_out)
            print(f"step {step:4d}  held-out mIoU {after:.3f}  train reward {np.mean(recent):.3f}"
                  f"  amount std {float(policy.log_std.detach().exp()) * 100:.1f}"
                  f"  ({time.perf_counter() - start:.0f} s)", flush=True)
            recent = []
    print(f"held-out mIoU {before:.3f} -> {after:.3f} in {time.perf_counter() - start:.0f} s")
    return before, after


if __name__ == "__main__":
    main()
