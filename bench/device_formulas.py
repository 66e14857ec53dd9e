"""The device check's ΔE formula sections: every formula and Lab source, exact and timed.

- ``formulas_exact``: real PaintBench problems (perfect, unchanged, noisy, JPEG-damaged and
  random outputs, G samples per problem, uint8 and float32 NCHW outputs): the fused kernel's
  histograms for CIE76, CIE94 and CIEDE2000, with the Lab from the table and computed in the
  kernel, equal the CPU Numba kernel's; ``reward(delta_e=...)`` on the device equals it on
  the CPU bit for bit. In a dry run (no CUDA) the torch CPU kernel stands in for the fused
  one (the simulator proof of the fused kernel is in the test suite).
- ``formulas_throughput``: per formula and Lab source at 512² and 1024², B = 64, noisy uint8
  outputs: the kernel's GPU time (CUDA events; ns per pixel) and ``reward`` end to end
  (problems/s and its share of the copy floor: reading O, A and I once at the measured
  device-to-device bandwidth), and which Lab source is faster per formula.
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import numpy as np

from bench.device_common import benchmark_problems, log, synchronize, tile_to

FORMULAS = ("cie76", "cie94", "ciede2000")
LABS = ("table", "compute")


@contextmanager
def default_lab(formula: str, lab: str):
    """``reward`` on CUDA with ``formula`` takes its Lab from ``lab`` inside the block."""
    from paintkit.kernels.counting import cie76_cuda

    before = cie76_cuda.DEFAULT_LAB[formula]
    cie76_cuda.DEFAULT_LAB[formula] = lab
    try:
        yield
    finally:
        cie76_cuda.DEFAULT_LAB[formula] = before


def _histograms(device, formula: str, lab: str, outputs, answers, inputs, samples: int):
    """int64 ``(N, 3, 12)`` on the CPU: the fused kernel on CUDA, else the torch kernel."""
    if device.type == "cuda":
        from paintkit.kernels.counting.cie76_cuda import tolerance_histograms_cuda

        return tolerance_histograms_cuda(outputs, answers, inputs, samples=samples,
                                         delta_e=formula, lab=lab)[0].cpu().numpy()
    from paintkit.kernels.counting.formulas import tolerance_histograms_delta_e

    return tolerance_histograms_delta_e(outputs, answers, inputs, formula,
                                        samples_per_problem=samples).cpu().numpy()


def formulas_exact(device, dry: bool) -> dict:
    import torch

    from bench.device_check import damaged_outputs
    from paintkit.kernels.counting.formulas import tolerance_histograms_delta_e
    from paintkit.metrics import prepare_targets, reward

    rng = np.random.default_rng(1)
    answers, inputs = benchmark_problems(2 if dry else 12, 48 if dry else 384)
    samples = 6
    report: dict = {"problems": len(answers), "outputs": 0, "mismatched_outputs": {},
                    "reward_mismatches": {}, "fused": device.type == "cuda"}
    bad, bad_reward = report["mismatched_outputs"], report["reward_mismatches"]
    for answer, inp in zip(answers, inputs, strict=True):
        outs = np.stack(damaged_outputs(answer, inp, rng))
        a1, i1 = answer[None], inp[None]
        o, a, i = (torch.from_numpy(x).to(device) for x in (outs, a1, i1))
        planar = o.permute(0, 3, 1, 2).float().div_(255).permute(0, 2, 3, 1)  # float NCHW view
        targets = prepare_targets(a, i, device=device)
        report["outputs"] += samples
        for formula in FORMULAS:
            reference = tolerance_histograms_delta_e(outs, a1, i1, formula,
                                                     samples_per_problem=samples)
            cpu = reward(outs, a1, i1, samples_per_problem=samples, delta_e=formula).numpy()
            for lab in LABS:
                for kind, batch in (("uint8", o), ("float32 nchw", planar)):
                    if kind != "uint8" and device.type != "cuda":
                        continue  # the torch CPU kernel reads uint8 only
                    got = _histograms(device, formula, lab, batch, a, i, samples)
                    key = f"{formula} {lab} {kind}"
                    bad[key] = bad.get(key, 0) + int((got != reference).any(axis=(1, 2)).sum())
                with default_lab(formula, lab):
                    ours = reward(o.permute(0, 3, 1, 2), targets, samples_per_problem=samples,
                                  delta_e=formula).cpu().numpy()
                key = f"{formula} {lab}"
                bad_reward[key] = bad_reward.get(key, 0) + int(
                    (ours.view(np.int32) != cpu.view(np.int32)).sum())
    report["ok"] = not any(bad.values()) and not any(bad_reward.values())
    log(f"  formulas exact: {report['ok']} ({report['outputs']} outputs)")
    return report


def _noisy_batch(device, side: int, batch: int):
    import torch

    answers, inputs = benchmark_problems(8, None)
    a = torch.stack([torch.from_numpy(tile_to(answers[k % len(answers)], side))
                     for k in range(batch)]).to(device)
    i = torch.stack([torch.from_numpy(tile_to(inputs[k % len(inputs)], side))
                     for k in range(batch)]).to(device)
    noise = torch.randint(-4, 5, a.shape, device=device, dtype=torch.int16)
    return (a.to(torch.int16) + noise).clamp_(0, 255).to(torch.uint8), a, i


def _gpu_ms(call, repeats: int) -> float:
    import torch

    call()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(repeats):
        call()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) / repeats


def formulas_throughput(device, dry: bool, copy_gbps: float) -> dict:
    """Kernel GPU time and ``reward`` problems/s per formula and Lab source."""
    import torch

    batch = 4 if dry else 64
    rows = []
    for side in ((32,) if dry else (512, 1024)):
        rows += _side_rows(device, side, batch, dry, copy_gbps * 1e9 / (3 * 3 * side * side))
        if device.type == "cuda":
            torch.cuda.empty_cache()
    faster = {}
    for formula in FORMULAS:
        for side in sorted({r["side"] for r in rows}):
            mine = [r for r in rows if r["formula"] == formula and r["side"] == side]
            best = max(mine, key=lambda r: r["reward_problems_per_s"])
            faster[f"{formula} {side}"] = best["lab"]
    return {"rows": rows, "faster_lab": faster, "copy_gbps": copy_gbps,
            "at": time.strftime("%Y-%m-%d %H:%M:%S")}


def _side_rows(device, side: int, batch: int, dry: bool, floor: float) -> list[dict]:
    """The rows of one canvas size; ``floor``: problems/s reading O, A and I once."""
    from bench.device_figures import timed
    from paintkit.metrics import prepare_targets, reward

    out, a, i = _noisy_batch(device, side, batch)
    targets = prepare_targets(a, i, device=device)
    nchw = out.permute(0, 3, 1, 2)
    rows = []
    for formula in FORMULAS:
        for lab in LABS:
            if device.type != "cuda" and lab == "compute":
                continue  # the CPU path has one Lab source
            row: dict = {"side": side, "batch": batch, "formula": formula, "lab": lab}
            if device.type == "cuda":
                from paintkit.kernels.counting.cie76_cuda import rewards_cuda

                ms = _gpu_ms(lambda f=formula, s=lab: rewards_cuda(out, a, i, delta_e=f, lab=s),
                             repeats=10)
                row.update(kernel_ms=round(ms, 3), kernel_problems_per_s=round(batch / ms * 1e3),
                           kernel_ns_per_pixel=round(ms * 1e6 / (batch * side * side), 4))
            with default_lab(formula, lab):
                seconds = timed(device, lambda f=formula: reward(nchw, targets, delta_e=f),
                                0.2 if dry else 1.0)
            row.update(reward_problems_per_s=round(batch / seconds, 1),
                       reward_ms=round(1e3 * seconds, 3),
                       floor_share=round(batch / seconds / floor, 4))
            rows.append(row)
            log(f"  {side}² {formula} {lab}: reward {row['reward_problems_per_s']}/s "
                f"kernel {row.get('kernel_ms', '-')} ms")
    synchronize(device)
    return rows


def formulas_markdown(results: dict) -> list[str]:
    """Markdown lines of both sections (empty where they did not run)."""
    lines: list[str] = []
    exact = results.get("formulas_exact")
    if isinstance(exact, dict) and "ok" in exact:
        lines += ["## Every formula and Lab source: exact", "",
                  f"ok: **{exact['ok']}** ({exact['outputs']} outputs of {exact['problems']} "
                  f"problems; fused kernel: {exact['fused']})", "",
                  "| case | outputs that differ |", "| --- | --- |"]
        lines += [f"| {k} | {v} |" for k, v in exact["mismatched_outputs"].items()]
        lines += [f"| reward {k} | {v} |" for k, v in exact["reward_mismatches"].items()]
        lines.append("")
    speed = results.get("formulas_throughput")
    if isinstance(speed, dict) and "rows" in speed:
        lines += ["## Every formula and Lab source: throughput (B = 64, noisy uint8)", "",
                  "| side | formula | lab | kernel ms | kernel problems/s | ns/pixel | "
                  "reward problems/s | of the copy floor |", "| --- " * 8 + "|"]
        for r in speed["rows"]:
            lines.append(f"| {r['side']}² | {r['formula']} | {r['lab']} | "
                         f"{r.get('kernel_ms', '-')} | {r.get('kernel_problems_per_s', '-')} | "
                         f"{r.get('kernel_ns_per_pixel', '-')} | {r['reward_problems_per_s']} | "
                         f"{100 * r['floor_share']:.1f} % |")
        lines += ["", f"faster Lab source: {speed['faster_lab']}", ""]
    return lines
