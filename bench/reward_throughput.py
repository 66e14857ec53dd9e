"""Rewards/s with prepared targets: ``reward(outputs, targets)`` at 512² and 1024², B = 16..256.

    python -m bench.reward_throughput [--sizes 512,1024] [--batches 16,64,256]
        [--backends numba,torch]
        [--kinds noisy,flat] [--repeats 3]
        [--torch-threads N]

Targets are prepared once (``prepare_targets(..., device=...)``) and outside the timing,
as in a training loop; outputs are float ``(B, 3, H, W)`` tensors in [0, 1] on the device
(what a policy produces), so the float -> uint8 step is timed too. ``noisy`` outputs are
the answer with +-3 per channel (every pixel a new colour: no shortcut applies), ``flat``
outputs are palette images (most pixels equal the answer or input). On CPU both the Numba
and the torch backends run; on CUDA (when present) the torch backend on the GPU as well,
in the same run (one backend after the other, OpenMP threads waiting passively).
Rates
are problems/s, best of ``--repeats``; the machine may be shared, so
read the ratios, not only the figures. Batches above 64 at 1024² are synthesised by
repeating 16 distinct problems (a reward does not care). Each rate is also given as a
percentage of its device's memory floor (reading the float output, the answer and the input
once at the copy bandwidth measured in the same run; docs/performance.md). On one GPU:
``python -m bench.reward_throughput --sizes 1024 --batches 64 --kinds noisy`` (the goal is
>= 20,000 problems/s on one H100).
"""

from __future__ import annotations

import argparse
import os
import time

# Numba's and torch's OpenMP pools spin-wait after each parallel region; on a small, shared
# machine a pool spinning while the other computes made torch 10x slower in this script.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np
import torch

from paintkit.eval.synthetic import model_output, synthetic_problem
from paintkit.metrics import prepare_targets, reward

DISTINCT = 16


def make_batch(kind: str, n: int, size: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    k = min(n, DISTINCT)
    pairs = [synthetic_problem(rng, size, size, n_shapes=12) for _ in range(k)]
    inp = np.stack([p[0] for p in pairs])
    ans = np.stack([p[1] for p in pairs])
    style = "partial" if kind == "flat" else "noisy"
    out = np.stack([model_output(rng, a, i, style) for a, i in zip(ans, inp, strict=True)])
    reps = -(-n // k)
    return tuple(np.concatenate([x] * reps)[:n] for x in (out, ans, inp))


def rate(fn, n: int, repeats: int, device) -> float:
    def sync():
        if device.type == "cuda":
            torch.cuda.synchronize()

    fn()  # warm-up: JIT, lookup tables, workspaces
    sync()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        sync()
        best = min(best, time.perf_counter() - start)
    return n / best


#: Bytes a reward must at least read per pixel: the float32 output (3 x 4) plus the
#: answer and the input (uint8 RGB each). The memory-bandwidth floor of a backend is
#: ``bandwidth / (FLOOR_BYTES_PER_PIXEL * H * W)`` problems/s.
FLOOR_BYTES_PER_PIXEL = 3 * 4 + 3 + 3


def copy_bandwidth(device) -> float:
    """Bytes/s a device copy moves (read + write), best of 5: the memory floor's bandwidth."""
    n = (1 << 30) if device.type == "cuda" else (64 << 20)
    # written, so every page is backed: untouched pages would all read the kernel's one
    # zero page from cache and report a bandwidth no real data moves at
    src = torch.ones(n, dtype=torch.uint8, device=device)
    dst = torch.zeros_like(src)
    dst.copy_(src)
    best = float("inf")
    for _ in range(5):
        if device.type == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        dst.copy_(src)
        if device.type == "cuda":
            torch.cuda.synchronize()
        best = min(best, time.perf_counter() - start)
    return 2 * n / best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="512,1024")
    parser.add_argument("--batches", default="16,64,256")
    parser.add_argument("--backends", default="numba,torch")
    parser.add_argument("--kinds", default="noisy,flat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--torch-threads", type=int, default=None)
    args = parser.parse_args()
    if args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    runs = [("cpu", b) for b in args.backends.split(",")]
    if torch.cuda.is_available():
        runs.append(("cuda", "torch"))
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, "
          f"cuda: {torch.cuda.get_device_name() if torch.cuda.is_available() else 'none'}")
    cases = [(kind, int(size), int(batch)) for kind in args.kinds.split(",")
             for size in args.sizes.split(",") for batch in args.batches.split(",")]
    rates: dict = {}
    for device_name, backend in runs:  # backend by backend: see OMP_WAIT_POLICY above
        device = torch.device(device_name)
        for kind, size, batch in cases:
            out, ans, inp = make_batch(kind, batch, size)
            a, i = (torch.from_numpy(x).to(device) for x in (ans, inp))
            targets = prepare_targets(a, i, device=device if backend != "numba" else None)
            outputs = torch.from_numpy(out).to(device).permute(0, 3, 1, 2).float() / 255
            rates[device_name, backend, kind, size, batch] = rate(
                lambda o=outputs, t=targets, b=backend: reward(o, t, backend=b),
                batch, args.repeats, device)
    bandwidths = {name: copy_bandwidth(torch.device(name)) for name in {d for d, _ in runs}}
    print("memory floor: reading the float32 output, the answer and the input once "
          f"({FLOOR_BYTES_PER_PIXEL} bytes/pixel) at the device's copy bandwidth: " + ", ".join(
              f"{name} {bw / 1e9:.0f} GB/s" for name, bw in bandwidths.items()))
    print("problems/s (% of the memory floor)")
    print(f"{'outputs':>8}{'size':>6}{'batch':>6}" + "".join(f"{d + '/' + b:>24}" for d, b in runs))
    for kind, size, batch in cases:
        floor = {name: bw / (FLOOR_BYTES_PER_PIXEL * size * size) for name, bw in bandwidths.items()}
        cells = [(rates[d, b, kind, size, batch], floor[d]) for d, b in runs]
        print(f"{kind:>8}{size:>6}{batch:>6}" + "".join(
            f"{rate:>14.1f} ({100 * rate / limit:5.1f} %)" for rate, limit in cells))


if __name__ == "__main__":
    main()
