"""What a rank holds, and what crosses between host and device per reward call.

    python -m bench.reward_residency [--device cpu] [--sizes 512,1024] [--batch 8]

For each adapter (``reward`` with prepared targets, ``flow_grpo_pixel_miou``, ``FlowFactoryPixelMIoU``,
the trl ``trl_pixel_miou``, ``soft_reward``) scoring a batch of float outputs on
``--device`` (G = ``--batch`` samples of one problem per size), after one warm-up call:

- bytes the rank keeps: the prepared-target cache (``cache.nbytes``) and the per-device
  tables of the torch counting path (the L*a*b* table and the ΔE² bucket tables);
- per steady-state call, the host <-> device crossings, counted by wrapping the Tensor
  methods that read a device tensor on the host (``item``, ``tolist``, ``cpu``, ``numpy``,
  ``__int__``, ``__float__``, ``__bool__``) and ``to`` between devices, and ``torch.tensor``
  / ``torch.as_tensor`` calls that build a device tensor from host values. On a CPU device
  the same calls are counted (they would cross on a GPU); the byte sizes are what they carry.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import sys

import numpy as np
import torch

import paintkit
from paintkit.kernels.color import lab_table
from paintkit.kernels.counting import cie76_torch as tolerance_counts_torch
from paintkit.metrics import prepare_targets, reward, soft_reward
from paintkit.rewards import FlowFactoryPixelMIoU, flow_grpo_pixel_miou, trl_pixel_miou

READS = ("item", "tolist", "cpu", "numpy", "__int__", "__float__", "__bool__")


def caller() -> str:
    """The paintkit (or kernels) line that made the call."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if ("paintkit" in name or "/kernels/" in name) and "bench" not in name:
            return f"{name.split('/')[-2]}/{name.split('/')[-1]}:{frame.f_lineno}"
        frame = frame.f_back
    return "?"


@contextlib.contextmanager
def crossings(log: list):
    saved = {name: getattr(torch.Tensor, name) for name in (*READS, "to")}
    factories = {name: getattr(torch, name) for name in ("tensor", "as_tensor")}

    def reader(name, original):
        def wrapped(t, *a, **k):
            log.append(f"{name} {t.numel() * t.element_size()} B at {caller()}")
            return original(t, *a, **k)
        return wrapped

    def to(t, *a, **k):
        out = saved["to"](t, *a, **k)
        if out.device != t.device:
            log.append(f"to {t.device}->{out.device} {out.numel() * out.element_size()} B at "
                       f"{caller()}")
        return out

    def factory(name, original):
        def wrapped(data, *a, **k):
            out = original(data, *a, **k)
            if not isinstance(data, torch.Tensor) and k.get("device") is not None:
                log.append(f"torch.{name} host->{out.device} {out.numel() * out.element_size()} "
                           f"B at {caller()}")
            return out
        return wrapped

    try:
        for name in READS:
            setattr(torch.Tensor, name, reader(name, saved[name]))
        torch.Tensor.to = to
        for name, original in factories.items():
            setattr(torch, name, factory(name, original))
        yield
    finally:
        for name, original in saved.items():
            setattr(torch.Tensor, name, original)
        for name, original in factories.items():
            setattr(torch, name, original)


def problem_at(size):
    p = paintkit.generate("recolor", 0, "baseline")
    step = 1024 // size
    return p.input[::step, ::step].copy(), p.answer[::step, ::step].copy()


def calls(device, inp, ans, batch):
    inp_t = torch.from_numpy(inp).to(device)
    ans_t = torch.from_numpy(ans).to(device)
    outputs = (ans_t.permute(2, 0, 1).float() / 255)[None].repeat(batch, 1, 1, 1)
    targets = prepare_targets(ans_t[None], inp_t[None], device=device)
    meta = [{"answer": ans, "image": inp, "problem_id": "p0"}] * batch
    fg = flow_grpo_pixel_miou(device)
    ff = FlowFactoryPixelMIoU(device=device)
    trl = trl_pixel_miou(lambda text, image, row: outputs[0])
    rows = {"answer": [ans] * batch, "input": [inp] * batch, "problem_id": ["p0"] * batch}
    soft_out = outputs[:1].clone().requires_grad_(True)
    return {
        "reward(outputs, targets, samples_per_problem=G)":
            (lambda: reward(outputs, targets, samples_per_problem=batch, backend="torch"), None),
        "flow_grpo_pixel_miou (flow_grpo)": (lambda: fg(outputs, [""] * batch, meta)[0], fg.cache),
        "FlowFactoryPixelMIoU (Flow-Factory)":
            (lambda: ff(image=list(outputs), metadata=meta).rewards, ff.cache),
        "trl_pixel_miou (trl)": (lambda: trl(prompts=[""] * batch, completions=["x"] * batch,
                                                **rows), trl.cache),
        "soft_reward (one output)": (lambda: soft_reward(soft_out, targets), None),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--sizes", default="512,1024")
    parser.add_argument("--batch", type=int, default=8)
    args = parser.parse_args(argv)
    device = torch.device(args.device)
    for size in (int(s) for s in args.sizes.split(",")):
        inp, ans = problem_at(size)
        print(f"\n{size}x{size}, G = {args.batch} samples of one problem, device {device}")
        for name, (call, cache) in calls(device, inp, ans, args.batch).items():
            call()  # warm-up: prepares the target and the device tables
            log: list = []
            with crossings(log):
                call()
            held = f"cache {cache.nbytes / 2**20:.2f} MiB ({len(cache)} problem)" if cache else \
                "targets held by the caller"
            counted = collections.Counter(log)
            lines = [f"{n} x {what}" for what, n in counted.items()]
            print(f"  {name}: {held}; per call: {'nothing' if not log else ''}")
            for line in lines:
                print(f"      {line}")
    tables = sum(t.numel() * t.element_size() for t in lab_table.held_tables().values())
    buckets = sum(t.numel() * t.element_size() for pair in
                  tolerance_counts_torch.held_bucket_tables().values() for t in pair)
    print(f"\nper-device tables: L*a*b* table {tables / 2**20:.1f} MiB on "
          f"{len(lab_table.held_tables())} device(s); ΔE² bucket tables {buckets} B")
    print(f"(numpy {np.__version__}, torch {torch.__version__})")


if __name__ == "__main__":
    main()
