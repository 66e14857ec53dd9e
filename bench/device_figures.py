"""The device check's figures: ``reward`` throughput (fused kernel, torch kernel, a kornia
scorer as a user writes it) against the copy-bandwidth floor, the fused kernel's tuning and
host time per call, device memory, and the Markdown summary."""

from __future__ import annotations

import json
import time

from bench.device_common import benchmark_problems, log, synchronize, tile_to


def kornia_miou(outputs, lab_answers, edit):
    """A competent user's batched GPU scorer: kornia Lab, CIE76 ΔE, 11 thresholds, IoU.

    ``outputs`` float32 ``(B, 3, H, W)`` in [0, 1]; ``lab_answers`` float32 ``(B, 3, H, W)``
    (kornia Lab of the answers, once); ``edit`` bool ``(B, H, W)``. Returns mIoU ``(B,)``.
    """
    import kornia
    import torch

    lab = kornia.color.rgb_to_lab(outputs)
    delta = torch.linalg.vector_norm(lab - lab_answers, dim=1)  # (B, H, W)
    t = torch.arange(11, device=outputs.device, dtype=delta.dtype).view(1, 11, 1, 1)
    correct = delta.unsqueeze(1) <= t  # (B, 11, H, W)
    e = edit.unsqueeze(1)
    ce = (correct & e).sum(dim=(2, 3))
    wrong_kept = (~correct & ~e).sum(dim=(2, 3))
    denominator = e.sum(dim=(2, 3)) + wrong_kept
    iou = torch.where(denominator > 0, ce / denominator.clamp(min=1),
                      torch.ones_like(ce, dtype=delta.dtype))
    return iou.mean(dim=1)


def timed(device, fn, budget: float) -> float:
    """Seconds per call: two warm-up calls, then as many as fit in ``budget`` (at least 3)."""
    fn()
    fn()
    synchronize(device)
    calls, start = 0, time.perf_counter()
    while calls < 3 or time.perf_counter() - start < budget:
        fn()
        calls += 1
        if calls % 4 == 0 or calls < 4:
            synchronize(device)
    synchronize(device)
    return (time.perf_counter() - start) / calls


def throughput(device, dry: bool, copy_gbps: float) -> dict:
    import torch

    batch = 4 if dry else 64
    rows = []
    for side in ((64,) if dry else (512, 1024)):
        rows += _side_rows(device, side, batch, 0.2 if dry else 1.5,
                           copy_gbps * 1e9 / (3 * 3 * side * side))  # floor: O, A, I read once
        if device.type == "cuda":
            torch.cuda.empty_cache()
    return {"rows": rows, "copy_gbps": copy_gbps}


def _side_rows(device, side: int, batch: int, budget: float, floor: float) -> list[dict]:
    """One row per scoring path at ``side``², B = ``batch``, noisy outputs on ``device``."""
    import kornia
    import torch

    from paintkit.metrics import prepare_targets, reward

    answers, inputs = benchmark_problems(min(batch, 8), None)
    pick = [k % len(answers) for k in range(batch)]
    a = torch.stack([torch.from_numpy(tile_to(answers[k], side)) for k in pick]).to(device)
    i = torch.stack([torch.from_numpy(tile_to(inputs[k], side)) for k in pick]).to(device)
    targets = prepare_targets(a, i, device=device)
    noise = torch.randint(-4, 5, a.shape, device=device, dtype=torch.int16)
    out_u8 = (a.to(torch.int16) + noise).clamp_(0, 255).to(torch.uint8).permute(0, 3, 1, 2)
    out_f = out_u8.float().div_(255)
    lab_a = kornia.color.rgb_to_lab(a.permute(0, 3, 1, 2).float() / 255)
    edit = (a != i).any(dim=-1)
    paths = {
        "fused uint8": lambda: reward(out_u8, targets),
        "fused float32": lambda: reward(out_f, targets),
        "torch uint8": lambda: reward(out_u8, targets, backend="torch"),
        "torch float32": lambda: reward(out_f, targets, backend="torch"),
        "kornia float32": lambda: kornia_miou(out_f, lab_a, edit),
    }
    if device.type != "cuda":  # the fused kernel needs CUDA
        paths = {k: v for k, v in paths.items() if not k.startswith("fused")}
    rows = []
    for name, fn in paths.items():
        seconds = timed(device, fn, budget)
        rows.append({"side": side, "batch": batch, "path": name,
                     "problems_per_s": round(batch / seconds, 1),
                     "ms_per_batch": round(1e3 * seconds, 3),
                     "floor_share": round(batch / seconds / floor, 4)})
        log(f"  {side}² {name}: {rows[-1]['problems_per_s']} problems/s")
    return rows


#: Pixels per thread of the fused kernel to time (the grid's width).
PIXELS_PER_THREAD = (4, 16, 64)


def kernel_variants(device, dry: bool) -> dict:
    """GPU time of the fused kernel's variants (CUDA events), their counts against the
    default's, and where the host time of one ``reward`` call goes."""
    if device.type != "cuda":
        return {"skipped": "no CUDA device (dry run)"}
    report: dict = {"rows": []}
    answers, inputs = benchmark_problems(8, None)
    for side in (512, 1024):
        rows, host = _kernel_side(device, side, answers, inputs)
        report["rows"] += rows
        report[f"host_ms_{side}"] = host
    return report


def _kernel_side(device, side: int, answers, inputs, batch: int = 64):
    import torch
    from numba import cuda

    from paintkit.kernels.counting import cie76_cuda as kernel
    from paintkit.metrics import prepare_targets, reward

    a = torch.stack([torch.from_numpy(tile_to(answers[k % 8], side)) for k in range(batch)])
    i = torch.stack([torch.from_numpy(tile_to(inputs[k % 8], side)) for k in range(batch)])
    a, i = a.to(device), i.to(device)
    noise = torch.randint(-4, 5, a.shape, device=device, dtype=torch.int16)
    out = (a.to(torch.int16) + noise).clamp_(0, 255).to(torch.uint8)
    reference, _ = kernel.tolerance_histograms_cuda(out, a, i)
    rows = []
    for per_thread in PIXELS_PER_THREAD:
        def call(per_thread=per_thread):
            return kernel.tolerance_histograms_cuda(out, a, i, pixels_per_thread=per_thread)
        same = bool(torch.equal(call()[0], reference))
        ms = _gpu_ms(call)
        rows.append({"side": side, "pixels_per_thread": per_thread,
                     "gpu_ms": round(ms, 3), "problems_per_s": round(batch / ms * 1e3),
                     "equal_counts": same})
        log(f"  {side}² x{per_thread} pixels a thread: {ms:.3f} ms, equal {same}")
    targets = prepare_targets(a, i, device=device)
    nchw = out.permute(0, 3, 1, 2)
    reward(nchw, targets)
    torch.cuda.synchronize()
    calls = {
        "reward": lambda: reward(nchw, targets),
        "kernel call": lambda: kernel.tolerance_histograms_cuda(out, a, i),
        "as_cuda_array x6": lambda: [cuda.as_cuda_array(t, sync=False)
                                     for t in (out, a, i, a, i, out)],
        "rewards kernel call": lambda: kernel.rewards_cuda(out, a, i),
        "cuda.gpus context": lambda: _enter_device(cuda),
        "torch.zeros x2": lambda: (torch.zeros((batch, 3, 12), dtype=torch.int64, device=device),
                                   torch.zeros(batch, dtype=torch.int32, device=device)),
    }
    host = {}
    for name, fn in calls.items():
        t = time.perf_counter()
        for _ in range(20):
            fn()
        host[name] = round((time.perf_counter() - t) / 20 * 1e3, 3)
        torch.cuda.synchronize()
    log(f"  {side}² host ms per call: {host}")
    return rows, host


def _gpu_ms(call, repeats: int = 10) -> float:
    import torch

    call()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(repeats):
        call()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) / repeats


def _enter_device(cuda) -> None:
    with cuda.gpus[0]:
        pass


def memory(device) -> dict:
    import torch

    if device.type != "cuda":
        return {"skipped": "no CUDA device (dry run)"}
    from paintkit.kernels.color.lab_table import lab_table
    from paintkit.kernels.counting.cie76_cuda import interleaved_lab_table

    return {"interleaved_table_mib": interleaved_lab_table(device).numel() * 4 / 2**20,
            "planar_table_mib": lab_table(device).numel() * 4 / 2**20,
            "allocated_mib": round(torch.cuda.memory_allocated(device) / 2**20, 1),
            "peak_allocated_mib": round(torch.cuda.max_memory_allocated(device) / 2**20, 1)}


def markdown(results: dict) -> str:
    env = results.get("environment", {})
    lines = [f"# Device check: {env.get('name', env.get('device', '?'))}", "",
             f"torch {env.get('torch')}, numba {env.get('numba')}, numba-cuda "
             f"{env.get('numba_cuda')}, fused kernel available: {env.get('fused_kernel')}, "
             f"copy bandwidth {env.get('copy_gbps')} GB/s (read + write)", ""]
    ex = results.get("exact", {})
    lines += ["## Exact counts", "", "```", json.dumps(ex, indent=1, default=str)[:3000], "```", ""]
    sync = results.get("sync", {})
    lines += ["## Synchronisations per warm call", "", "| call | synchronisations | first site |",
              "| --- | --- | --- |"]
    for name, v in sync.items():
        if isinstance(v, dict):
            first = v["where"][0]["paintkit_stack"] if v.get("where") else ""
            lines.append(f"| {name} | {v.get('synchronisations')} | {first or v.get('error', '')} |")
    lines += ["", "## Throughput (reward, noisy outputs)", "",
              "| side | B | path | problems/s | ms per batch | share of copy floor |",
              "| --- | --- | --- | --- | --- | --- |"]
    for r in results.get("throughput", {}).get("rows", []):
        lines.append(f"| {r['side']}² | {r['batch']} | {r['path']} | {r['problems_per_s']:,} | "
                     f"{r['ms_per_batch']} | {100 * r['floor_share']:.1f} % |")
    kernel = results.get("kernel", {})
    if kernel.get("rows"):
        lines += ["", "## Fused kernel variants (GPU time, B = 64, noisy uint8)", "",
                  "| side | kernel | pixels / thread | GPU ms | problems/s | counts equal |",
                  "| --- | --- | --- | --- | --- | --- |"]
        lines += [f"| {r['side']}² | {r.get('variant', 'shipped')} | {r['pixels_per_thread']} | "
                  f"{r['gpu_ms']} | {r['problems_per_s']:,} | {r['equal_counts']} "
                  f"{r.get('error', '')}|" for r in kernel["rows"]]
        lines += ["", f"Host ms per call: 512² {kernel.get('host_ms_512')}, "
                  f"1024² {kernel.get('host_ms_1024')}"]
    lines += ["", "## Memory", "", "```", json.dumps(results.get("memory", {}), default=str), "```",
              "", f"Seconds per section: {results.get('seconds')}", ""]
    errors = {k: v["error"] for k, v in results.items() if isinstance(v, dict) and "error" in v}
    if errors:
        lines += ["## Errors", "", "```", json.dumps(errors, indent=1), "```"]
    return "\n".join(lines)
