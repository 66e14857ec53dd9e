"""The device check's ``launches`` section: ``reward`` on CUDA as one launch (the counting
kernel's last block per output writes the reward) against the design before it (the
counting launch, then a second launch that turns the histograms into rewards), on the same
batches, alternated.

Both at 16 pixels a thread, and the one launch at 64 too. Two ways of timing each path,
B = 64 and 256 noisy uint8 outputs at 512² and 1024²:

- ``steady``: 200 calls, one synchronisation at the end: calls per second once the host's
  launches and the GPU overlap (whichever is slower sets the rate);
- ``latency``: one call and a synchronisation, repeated: what a training step that reads
  its rewards at once waits.

Both paths' rewards are checked equal (bit for bit) first.
"""

from __future__ import annotations

import statistics
import time

from bench.device_common import benchmark_problems, log, tile_to


def _two_launches():
    """``fn(out, a, i) -> rewards`` of the design before: counts, then a rewards kernel."""
    import torch
    from numba import cuda

    from paintkit.kernels.cuda_launch import launch, numba_views, stream_of
    from paintkit.kernels.tolerance_counts_cuda import tolerance_histograms_cuda
    from paintkit.kernels.tolerance_counts_cuda_kernels import SLOTS, _reward

    @cuda.jit
    def rewards_kernel(hist, outside, tolerance, rewards):
        n = cuda.grid(1)
        if n < hist.shape[0]:
            rewards[n] = _reward(hist[n], outside[n], tolerance)

    def fn(out, a, i):
        hist, outside = tolerance_histograms_cuda(out, a, i, pixels_per_thread=16)
        n = len(hist)
        rewards = torch.empty(n, dtype=torch.float32, device=out.device)
        with cuda.gpus[out.device.index or 0]:
            h, f, r = numba_views((hist.view(n, SLOTS), outside, rewards))
            launch(rewards_kernel, max(1, -(-n // 128)), 128, stream_of(out.device),
                   (h, f, -1, r))
        return rewards

    return fn


def launches(device, dry: bool) -> dict:
    if device.type != "cuda":
        return {"skipped": "no CUDA device (dry run)"}
    import torch

    from paintkit.kernels.tolerance_counts_cuda import rewards_cuda

    paths = {"one launch": lambda o, a, i: rewards_cuda(o, a, i, pixels_per_thread=16),
             "two launches": _two_launches(),
             "one launch, 64 pixels a thread":
                 lambda o, a, i: rewards_cuda(o, a, i, pixels_per_thread=64)}
    answers, inputs = benchmark_problems(8, None)
    rows = []
    for side in (512, 1024):
        for batch in (64, 256):
            a = torch.stack([torch.from_numpy(tile_to(answers[k % 8], side))
                             for k in range(batch)]).to(device)
            i = torch.stack([torch.from_numpy(tile_to(inputs[k % 8], side))
                             for k in range(batch)]).to(device)
            noise = torch.randint(-4, 5, a.shape, device=device, dtype=torch.int16)
            out = (a.to(torch.int16) + noise).clamp_(0, 255).to(torch.uint8)
            first = paths["two launches"](out, a, i)
            same = all(torch.equal(fn(out, a, i), first) for fn in paths.values())
            times: dict = {name: {"steady": [], "latency": []} for name in paths}
            for _ in range(3):  # alternated rounds
                for name, fn in paths.items():
                    times[name]["steady"].append(_steady(fn, out, a, i))
                    times[name]["latency"].append(_latency(fn, out, a, i))
            for name in paths:
                steady = statistics.median(times[name]["steady"])
                latency = statistics.median(times[name]["latency"])
                rows.append({"side": side, "batch": batch, "path": name, "equal": same,
                             "steady_ms": round(1e3 * steady, 3),
                             "problems_per_s": round(batch / steady),
                             "latency_ms": round(1e3 * latency, 3)})
                log(f"  {side}² B={batch} {name}: {rows[-1]['steady_ms']} ms a call "
                    f"({rows[-1]['problems_per_s']:,}/s), latency {rows[-1]['latency_ms']} ms, "
                    f"equal {same}")
            del a, i, out, noise
            torch.cuda.empty_cache()
    return {"rows": rows}


def _steady(fn, out, a, i) -> float:
    return _seconds_a_call(fn, out, a, i, calls=200, sync_each=False)


def _latency(fn, out, a, i) -> float:
    return _seconds_a_call(fn, out, a, i, calls=50, sync_each=True)


def _seconds_a_call(fn, out, a, i, calls: int, sync_each: bool) -> float:
    """Seconds a call over ``calls`` calls after a warm-up, synchronising after each call
    (``sync_each``) or once at the end."""
    import torch

    fn(out, a, i)
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        fn(out, a, i)
        if sync_each:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / calls


def markdown_rows(report: dict) -> list[str]:
    if not report.get("rows"):
        return []
    lines = ["", "## reward on CUDA: one launch against two (alternated, medians of 3)", "",
             "| side | B | path | steady ms a call | problems/s | latency ms | equal |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    lines += [f"| {r['side']}² | {r['batch']} | {r['path']} | {r['steady_ms']} | "
              f"{r['problems_per_s']:,} | {r['latency_ms']} | {r['equal']} |"
              for r in report["rows"]]
    return lines
