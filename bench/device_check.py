"""Everything to check and measure on a GPU machine, in one run: ``bash bench/device_check.sh``.

Sections, each recorded even when another fails (most important first):

1. ``environment``: device, versions, the measured device-to-device copy bandwidth;
2. ``exact``: real PaintBench problems (perfect, unchanged, noisy, JPEG-damaged and random
   outputs, three canvas sizes, G samples per problem, float NCHW outputs): the fused CUDA
   kernel's and the torch CUDA kernel's histograms equal the CPU Numba kernel's, and
   ``reward`` on CUDA equals ``reward`` on the CPU;
3. ``sync``: ``reward``, the flow_grpo / Flow-Factory adapters and ``PixelEditIoU.update`` on
   CUDA batches under ``torch.cuda.set_sync_debug_mode("warn")``: every device -> host
   synchronisation, with where it happened;
4. ``throughput``: ``reward`` at 512² and 1024², B = 64, noisy outputs, uint8 and float32 on the
   device: the fused Numba kernel, the torch kernel and a kornia scorer as a competent user
   writes it; problems/s and the share of the copy-bandwidth floor;
5. ``memory``: what a process holds on the device per path (tables, prepared targets).

Writes ``device_check.json`` and ``device_check.md`` into ``--out``. ``--dry-run`` runs every
section on the CPU at toy sizes (the test suite runs it: the script itself stays correct
between GPU loans).
"""

from __future__ import annotations

import argparse
import io
import json
import platform
import sys
import time
import traceback
import warnings
from pathlib import Path

import numpy as np

TASKS = ("translation", "recolor", "flood_fill", "removal", "scaling", "gradient", "rotation",
         "outline")


def log(message: str) -> None:
    print(f"[device_check {time.strftime('%H:%M:%S')}] {message}", flush=True)


def section(results: dict, name: str, fn, *args) -> None:
    start = time.perf_counter()
    log(f"{name} ...")
    try:
        results[name] = fn(*args)
    except Exception as exc:  # recorded, and the next section runs
        results[name] = {"error": f"{type(exc).__name__}: {exc}",
                         "traceback": traceback.format_exc()[-4000:]}
        log(f"{name} FAILED: {type(exc).__name__}: {exc}")
    results.setdefault("seconds", {})[name] = round(time.perf_counter() - start, 1)
    log(f"{name} done in {results['seconds'][name]} s")


def synchronize(device) -> None:
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize(device)


def environment(device) -> dict:
    import numba
    import torch

    env = {"python": platform.python_version(), "torch": torch.__version__,
           "numba": numba.__version__, "numpy": np.__version__, "device": str(device)}
    try:
        from importlib.metadata import version
        env["numba_cuda"] = version("numba-cuda")
    except Exception:
        env["numba_cuda"] = None
    from paintkit.metrics.histograms import fused_cuda_available

    env["fused_kernel"] = fused_cuda_available()
    if device.type == "cuda":
        p = torch.cuda.get_device_properties(device)
        env.update(name=p.name, sms=p.multi_processor_count,
                   memory_gib=round(p.total_memory / 2**30, 1), cuda=torch.version.cuda)
    env["copy_gbps"] = copy_bandwidth(device)
    return env


def copy_bandwidth(device) -> float:
    """Device-to-device copy, GB/s counting bytes read and written (best of 5)."""
    import torch

    n = (1 << 30) if device.type == "cuda" else (1 << 26)
    src = torch.empty(n, dtype=torch.uint8, device=device).fill_(1)
    dst = torch.empty_like(src)
    dst.copy_(src)
    best = float("inf")
    for _ in range(5):
        synchronize(device)
        t = time.perf_counter()
        dst.copy_(src)
        synchronize(device)
        best = min(best, time.perf_counter() - t)
    return round(2 * n / best / 1e9, 1)


#: Real PaintBench problems made on the machine that fills .whl/ (bench/device_wheels.sh):
#: the GPU machine lacks the GL libraries Skia links against, so it does not render them.
PROBLEMS_FILE = Path(".whl") / "device_problems.npz"


def make_problems(path: Path, count: int = 24) -> None:
    """Write ``count`` real PaintBench problems (answers and inputs) to ``path``."""
    answers, inputs = _generate(count)
    arrays = {f"answer_{k}": a for k, a in enumerate(answers)}
    arrays.update({f"input_{k}": i for k, i in enumerate(inputs)})
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)


def _generate(count: int):
    import paintkit

    answers, inputs, error = [], [], None
    seed = 0
    while len(answers) < count and seed < 20 * count:
        task = TASKS[seed % len(TASKS)]
        try:
            problem = paintkit.generate(task, seed=seed)
        except Exception as exc:  # a rejected seed: the next one
            error = exc
            seed += 1
            continue
        seed += 1
        answers.append(np.ascontiguousarray(problem.answer))
        inputs.append(np.ascontiguousarray(problem.input))
    if not answers:
        raise RuntimeError(f"no problem could be generated; the last error: {error!r}")
    return answers, inputs


def benchmark_problems(count: int, size_cap: int | None):
    """Real PaintBench problems over several tasks and canvas sizes: ``(answers, inputs)``
    lists of uint8 ``(H, W, 3)`` arrays (from :data:`PROBLEMS_FILE` where it exists)."""
    source = Path(__file__).resolve().parents[1] / PROBLEMS_FILE
    if source.exists():
        with np.load(source) as data:
            n = len([k for k in data.files if k.startswith("answer_")])
            answers = [data[f"answer_{k}"] for k in range(n)][:count]
            inputs = [data[f"input_{k}"] for k in range(n)][:count]
    else:
        answers, inputs = _generate(count)
    if size_cap:
        answers = [np.ascontiguousarray(a[:size_cap, :size_cap]) for a in answers]
        inputs = [np.ascontiguousarray(i[:size_cap, :size_cap]) for i in inputs]
    return answers, inputs


def damaged_outputs(answer, inp, rng):
    """Perfect, unchanged, noisy ±3, noisy ±8, JPEG q75 and random outputs of one problem."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(answer).save(buffer, format="JPEG", quality=75)
    jpeg = np.asarray(Image.open(io.BytesIO(buffer.getvalue())).convert("RGB"))
    noisy = [np.clip(answer.astype(np.int16) + rng.integers(-s, s + 1, answer.shape), 0, 255)
             .astype(np.uint8) for s in (3, 8)]
    return [answer, inp, *noisy, jpeg, rng.integers(0, 256, answer.shape, dtype=np.uint8)]


def exact(device, dry: bool) -> dict:
    import torch

    from paintkit.kernels.tolerance_counts import tolerance_histograms_numba
    from paintkit.kernels.tolerance_counts_cuda import tolerance_histograms_cuda
    from paintkit.kernels.tolerance_counts_torch import tolerance_histograms_torch
    from paintkit.metrics import prepare_targets, reward

    rng = np.random.default_rng(0)
    answers, inputs = benchmark_problems(4 if dry else 24, 64 if dry else None)
    samples = 6
    report = {"problems": len(answers), "outputs": 0, "mismatched_outputs": {},
              "sizes": sorted({a.shape[:2] for a in answers})}
    bad = report["mismatched_outputs"]
    fused = device.type == "cuda"
    for answer, inp in zip(answers, inputs, strict=True):
        outs = np.stack(damaged_outputs(answer, inp, rng))
        reference = tolerance_histograms_numba(outs, np.repeat(answer[None], samples, 0),
                                               np.repeat(inp[None], samples, 0))
        o, a, i = (torch.from_numpy(x).to(device) for x in (outs, answer[None], inp[None]))
        report["outputs"] += samples
        torch_hist = tolerance_histograms_torch(o, a.expand_as(o), i.expand_as(o))
        bad["torch"] = bad.get("torch", 0) + int((torch_hist.cpu().numpy() != reference)
                                                 .any(axis=(1, 2)).sum())
        if fused:
            h, outside = tolerance_histograms_cuda(o, a, i, samples=samples)
            bad["fused"] = bad.get("fused", 0) + int((h.cpu().numpy() != reference)
                                                     .any(axis=(1, 2)).sum())
            planar = o.permute(0, 3, 1, 2).float().div_(255)  # (G, 3, H, W) float32
            hf, outside = tolerance_histograms_cuda(planar.permute(0, 2, 3, 1), a, i,
                                                    samples=samples)
            bad["fused_float_nchw"] = bad.get("fused_float_nchw", 0) + int(
                (hf.cpu().numpy() != reference).any(axis=(1, 2)).sum())
            bad["float_flagged"] = bad.get("float_flagged", 0) + int(outside.sum())
        cpu = reward(outs, prepare_targets(answer[None], inp[None]), samples_per_problem=samples)
        for backend in ("auto", "torch"):
            on_device = reward(o.permute(0, 3, 1, 2), prepare_targets(a, i, device=device),
                               samples_per_problem=samples, backend=backend)
            diff = float((on_device.cpu() - cpu).abs().max())
            key = f"reward_max_abs_diff_{backend}"
            report[key] = max(report.get(key, 0.0), diff)
    report["ok"] = all(v == 0 for v in bad.values()) and all(
        report.get(f"reward_max_abs_diff_{b}", 0) == 0 for b in ("auto", "torch"))
    return report


def sync_check(device, dry: bool) -> dict:
    """Every synchronising CUDA call of a warm training step, with its Python call site."""
    import torch

    from paintkit.metrics import PixelEditIoU, prepare_targets, reward
    from paintkit.rewards.flow_factory import PixelIoURewardModel
    from paintkit.rewards.flow_grpo import pixel_miou

    if device.type != "cuda":
        return {"skipped": "no CUDA device (dry run)"}
    answers, inputs = benchmark_problems(4, None)
    answers = [a[:256, :256] for a in answers]
    inputs = [i[:256, :256] for i in inputs]
    a = torch.from_numpy(np.stack(answers)).to(device)
    i = torch.from_numpy(np.stack(inputs)).to(device)
    targets = prepare_targets(a, i, device=device)
    noisy = (a.permute(0, 3, 1, 2).float() / 255 + 0.01 * torch.randn(
        a.permute(0, 3, 1, 2).shape, device=device)).clamp_(0, 1)
    outputs_u8 = (noisy * 255).round().to(torch.uint8)
    meta = [{"answer": x, "image": y} for x, y in zip(answers, inputs, strict=True)]
    grpo = pixel_miou(device)
    factory = PixelIoURewardModel(device=device)
    metric = PixelEditIoU().to(device)
    calls = {
        "reward uint8 NCHW": lambda: reward(outputs_u8, targets),
        "reward float32 NCHW": lambda: reward(noisy, targets),
        "reward G=2 samples": lambda: reward(torch.cat([outputs_u8, outputs_u8]).view(
            2, 4, *outputs_u8.shape[1:]).transpose(0, 1).reshape(8, *outputs_u8.shape[1:]),
            targets, samples_per_problem=2),
        "reward backend=torch uint8": lambda: reward(outputs_u8, targets, backend="torch"),
        "flow_grpo pixel_miou": lambda: grpo(noisy, ["p"] * 4, meta),
        "Flow-Factory PixelIoURewardModel": lambda: factory(image=list(noisy), metadata=meta),
        "PixelEditIoU.update": lambda: metric.update(outputs_u8, a, i),
    }
    report = {}
    for name, call in calls.items():
        try:
            call()  # warm-up: prepares targets, tables, compiles
        except Exception as exc:  # this call's error, and the next call runs
            report[name] = {"synchronisations": None, "error": f"{type(exc).__name__}: {exc}"}
            continue
        synchronize(device)
        seen = []

        def record(message, category, filename, lineno, file=None, line=None, seen=seen):
            stack = [f"{f.filename.split('site-packages/')[-1]}:{f.lineno}"
                     for f in traceback.extract_stack()[:-1] if "paintkit" in f.filename]
            seen.append({"message": str(message)[:160], "at": f"{filename}:{lineno}",
                         "paintkit_stack": stack[-4:]})

        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = record
            torch.cuda.set_sync_debug_mode("warn")
            try:
                for _ in range(2):  # the second call counts: the first may pay a one-time cost
                    seen.clear()
                    call()
            finally:
                torch.cuda.set_sync_debug_mode("default")
        synchronize(device)
        report[name] = {"synchronisations": len(seen), "where": seen[:8]}
    report["ok"] = all(v.get("synchronisations") == 0 for v in report.values())
    return report


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
    a = torch.stack([torch.from_numpy(_fit(answers[k], side)) for k in pick]).to(device)
    i = torch.stack([torch.from_numpy(_fit(inputs[k], side)) for k in pick]).to(device)
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

    from paintkit.kernels import tolerance_counts_cuda as kernel
    from paintkit.metrics import prepare_targets, reward

    a = torch.stack([torch.from_numpy(_fit(answers[k % 8], side)) for k in range(batch)])
    i = torch.stack([torch.from_numpy(_fit(inputs[k % 8], side)) for k in range(batch)])
    a, i = a.to(device), i.to(device)
    noise = torch.randint(-4, 5, a.shape, device=device, dtype=torch.int16)
    out = (a.to(torch.int16) + noise).clamp_(0, 255).to(torch.uint8)
    reference, _ = kernel.tolerance_histograms_cuda(out, a, i)
    rows = []
    for per_thread in PIXELS_PER_THREAD:
        def call(per_thread=per_thread):
            return kernel.tolerance_histograms_cuda(out, a, i, pixels_per_thread=per_thread)
        same = bool(torch.equal(call()[0], reference))
        call()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(10):
            call()
        stop.record()
        stop.synchronize()
        ms = start.elapsed_time(stop) / 10
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
        "rewards from histograms": lambda: kernel.rewards_from_histograms_cuda(
            reference, torch.zeros(batch, dtype=torch.int32, device=device)),
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


def _enter_device(cuda) -> None:
    with cuda.gpus[0]:
        pass


def _fit(image: np.ndarray, side: int) -> np.ndarray:
    """``image`` tiled / cropped to ``side x side`` (benchmark pixels at a training size)."""
    reps = (-(-side // image.shape[0]), -(-side // image.shape[1]), 1)
    return np.ascontiguousarray(np.tile(image, reps)[:side, :side])


def memory(device) -> dict:
    import torch

    if device.type != "cuda":
        return {"skipped": "no CUDA device (dry run)"}
    from paintkit.kernels.lab_table import lab_table
    from paintkit.kernels.tolerance_counts_cuda import interleaved_lab_table

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
                  "| side | pixels / thread | GPU ms | problems/s | counts equal |",
                  "| --- | --- | --- | --- | --- |"]
        lines += [f"| {r['side']}² | {r['pixels_per_thread']} | {r['gpu_ms']} | "
                  f"{r['problems_per_s']:,} | {r['equal_counts']} |" for r in kernel["rows"]]
        lines += ["", f"Host ms per call: 512² {kernel.get('host_ms_512')}, "
                  f"1024² {kernel.get('host_ms_1024')}"]
    lines += ["", "## Memory", "", "```", json.dumps(results.get("memory", {}), default=str), "```",
              "", f"Seconds per section: {results.get('seconds')}", ""]
    errors = {k: v["error"] for k, v in results.items() if isinstance(v, dict) and "error" in v}
    if errors:
        lines += ["## Errors", "", "```", json.dumps(errors, indent=1), "```"]
    return "\n".join(lines)


def main(argv=None) -> int:
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--out", type=Path, required=True, help="folder for the summaries")
    parser.add_argument("--dry-run", action="store_true",
                        help="every section on the CPU at toy sizes (checks this script)")
    parser.add_argument("--make-problems", action="store_true",
                        help=f"only write the real problems the GPU run reads to {PROBLEMS_FILE}")
    args = parser.parse_args(argv)
    if args.make_problems:
        make_problems(args.out / PROBLEMS_FILE.name)
        log(f"wrote {args.out / PROBLEMS_FILE.name}")
        return 0
    if not args.dry_run and not torch.cuda.is_available():
        print("device_check: no CUDA device here; use --dry-run to check the script on the CPU",
              file=sys.stderr)
        return 2
    device = torch.device("cpu" if args.dry_run else "cuda")
    results: dict = {"dry_run": args.dry_run}
    section(results, "environment", environment, device)
    section(results, "exact", exact, device, args.dry_run)
    section(results, "sync", sync_check, device, args.dry_run)
    copy_gbps = results["environment"].get("copy_gbps") or 1.0
    section(results, "throughput", throughput, device, args.dry_run, copy_gbps)
    section(results, "kernel", kernel_variants, device, args.dry_run)
    section(results, "memory", memory, device)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "device_check.json").write_text(json.dumps(results, indent=1, default=str))
    (args.out / "device_check.md").write_text(markdown(results))
    log(f"wrote {args.out / 'device_check.json'} and device_check.md")
    failed = [k for k, v in results.items() if isinstance(v, dict) and "error" in v]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
