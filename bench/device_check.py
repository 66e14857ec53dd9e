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
5. ``kernel``: the fused kernel's GPU time per grid width (CUDA events) with its counts
   checked, and where the host time of one ``reward`` call goes;
6. ``memory``: what a process holds on the device per path (tables, prepared targets);
7. ``formulas_exact`` and ``formulas_throughput``: CIE76, CIE94 and CIEDE2000 with the Lab
   from the table and computed in the kernel, exact against the CPU and timed side by side
   (``bench/device_formulas.py``);
8. ``serve``: ``paintkit serve --device cuda`` driven by client processes over 127.0.0.1
   (``bench/device_serve.py``);
9. ``pipeline`` and ``ray``: problems generated on every core and scored on the device, and
   ``paintkit eval --engine ray`` with device actors against the local eval
   (``bench/device_pipeline.py``).

Sections 4-6 and the Markdown summary are in ``bench/device_figures.py``; the problems and
helpers they share in ``bench/device_common.py``.

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

from bench.device_common import PROBLEMS_FILE, benchmark_problems, log, make_problems, synchronize
from bench.device_figures import kernel_variants, markdown, memory, throughput
from bench.device_formulas import formulas_exact, formulas_markdown, formulas_throughput
from bench.device_pipeline import pipeline_markdown, pipeline_section, ray_section
from bench.device_serve import serve_markdown, serve_section

#: Every section, in the order they run (``environment`` always runs).
SECTIONS = ("environment", "exact", "formulas_exact", "sync", "throughput",
            "formulas_throughput", "kernel", "memory", "serve", "pipeline", "ray")


def section(results: dict, name: str, fn, *args) -> None:
    start = time.perf_counter()
    log(f"{name} ...")
    try:
        results[name] = fn(*args)
    except Exception as exc:  # recorded, and the next section runs
        results[name] = {"error": f"{type(exc).__name__}: {exc}",
                         "traceback": traceback.format_exc()[-4000:]}
        log(f"{name} FAILED: {type(exc).__name__}: {exc}")
    except KeyboardInterrupt:  # the run's time limit (SIGINT): recorded, no further section
        results[name] = {"error": "stopped by the run's time limit"}
        log(f"{name} STOPPED by the time limit")
        raise
    finally:
        results.setdefault("seconds", {})[name] = round(time.perf_counter() - start, 1)
    log(f"{name} done in {results['seconds'][name]} s")


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
    from paintkit.metrics.counts import fused_cuda_available

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

    from paintkit.kernels.counting.cie76_cuda import tolerance_histograms_cuda
    from paintkit.kernels.counting.cie76_numba import tolerance_histograms_numba
    from paintkit.kernels.counting.cie76_torch import tolerance_histograms_torch
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
    from paintkit.rewards.flow_factory import FlowFactoryPixelMIoU
    from paintkit.rewards.flow_grpo import flow_grpo_pixel_miou

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
    grpo = flow_grpo_pixel_miou(device)
    factory = FlowFactoryPixelMIoU(device=device)
    metric = PixelEditIoU().to(device)
    calls = {
        "reward uint8 NCHW": lambda: reward(outputs_u8, targets),
        "reward float32 NCHW": lambda: reward(noisy, targets),
        "reward G=2 samples": lambda: reward(torch.cat([outputs_u8, outputs_u8]).view(
            2, 4, *outputs_u8.shape[1:]).transpose(0, 1).reshape(8, *outputs_u8.shape[1:]),
            targets, samples_per_problem=2),
        "reward backend=torch uint8": lambda: reward(outputs_u8, targets, backend="torch"),
        "flow_grpo flow_grpo_pixel_miou": lambda: grpo(noisy, ["p"] * 4, meta),
        "Flow-Factory FlowFactoryPixelMIoU": lambda: factory(image=list(noisy), metadata=meta),
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


def main(argv=None) -> int:
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--out", type=Path, required=True, help="folder for the summaries")
    parser.add_argument("--dry-run", action="store_true",
                        help="every section on the CPU at toy sizes (checks this script)")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"comma-separated sections to run (default: all of {SECTIONS})")
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
    chosen = [name.strip() for name in args.sections.split(",") if name.strip()]
    unknown = sorted(set(chosen) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown sections {unknown}: choose from {SECTIONS}")
    results: dict = {"dry_run": args.dry_run}
    section(results, "environment", environment, device)  # always: the copy bandwidth
    copy_gbps = results["environment"].get("copy_gbps") or 1.0
    arguments = {"exact": (exact, device, args.dry_run),
                 "sync": (sync_check, device, args.dry_run),
                 "throughput": (throughput, device, args.dry_run, copy_gbps),
                 "kernel": (kernel_variants, device, args.dry_run),
                 "memory": (memory, device),
                 "formulas_exact": (formulas_exact, device, args.dry_run),
                 "formulas_throughput": (formulas_throughput, device, args.dry_run, copy_gbps),
                 "serve": (serve_section, device, args.dry_run),
                 "pipeline": (pipeline_section, device, args.dry_run),
                 "ray": (ray_section, device, args.dry_run)}
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        for name in SECTIONS[1:]:
            if name in chosen:
                section(results, name, *arguments[name])
                # after every section: a run stopped by its time limit keeps what it measured
                (args.out / "device_check.json").write_text(json.dumps(results, indent=1,
                                                                       default=str))
    except KeyboardInterrupt:
        results["stopped"] = "the run's time limit: later sections did not run"
    (args.out / "device_check.json").write_text(json.dumps(results, indent=1, default=str))
    extra = formulas_markdown(results) + serve_markdown(results) + pipeline_markdown(results)
    (args.out / "device_check.md").write_text(
        markdown(results) + "\n\n" + "\n".join(extra) + "\n")
    log(f"wrote {args.out / 'device_check.json'} and device_check.md")
    failed = [k for k, v in results.items() if isinstance(v, dict) and "error" in v]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
