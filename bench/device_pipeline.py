"""The device check's whole-pipeline sections: problems generated on every CPU core and
scored on the device, and ``paintkit eval --engine ray`` with device scoring actors.

``pipeline``: one suite (4 tasks x 2 square conditions of a ``bench`` namespace, no
preservation split) per canvas size, three ways, each one timed run from nothing to scored:

- ``files``: ``paintkit generate --format directory --jobs <cores>`` (the CLI), then the
  tree read back with ``paintkit.load`` (PNG decode on a thread per core), noisy outputs made
  on the device and scored with ``reward`` in batches of 64;
- ``shards``: the same through ``--format webdataset`` shards (tar: nothing to install on a
  bare machine, where Parquet would need pyarrow);
- ``stream``: ``ProblemStream(batch_size=64)`` through a ``DataLoader`` with a worker per
  core but one, each batch copied to the device and scored as it arrives (generation and
  scoring overlap).

Per way: problems/hour and each stage's share of the wall time (generate, read, make
outputs, prepare targets, score; for the stream, ``wait`` is the time the scorer waited for
the workers).

``ray``: a small directory suite with three models' outputs (the answer, the input, a noisy
answer), scored by ``paintkit eval`` (the local process pool) and by ``paintkit eval
--engine ray --num-gpus 0.25 --device cuda`` on a local Ray instance (a dry run: CPU
actors): the rows must be equal (every field but the ones naming how they were computed),
with both throughputs. Where Ray is not installed (the first device call: its wheel does not
fit beside .whl/), the section is skipped with the second call that runs it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.device_common import log, synchronize

TASKS = ("translation", "recolor", "flood_fill", "scaling")
CONDITIONS = ("baseline", "n_med")
BATCH = 64


def _generate(out: Path, side: int, per_cell: int, fmt: str, jobs: int) -> float:
    """Seconds of one ``paintkit generate`` run (the CLI, a fresh process)."""
    command = [sys.executable, "-m", "paintkit", "generate", "paintbench", "--out", str(out),
               "--tasks", ",".join(TASKS), "--conditions", ",".join(CONDITIONS),
               "--per-cell", str(per_cell), "--size", f"{side}x{side}", "--namespace", "bench",
               "--no-preservation", "--format", fmt, "--jobs", str(jobs), "--quiet"]
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if run.returncode:
        raise RuntimeError(f"paintkit generate --format {fmt} failed: {run.stderr[-800:]}")
    return time.perf_counter() - start


class Stages:
    """Seconds per named stage, and the device synchronised at each stage's end."""

    def __init__(self, device):
        self.device, self.seconds = device, {}

    def run(self, name: str, fn, *args):
        start = time.perf_counter()
        value = fn(*args)
        synchronize(self.device)
        self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - start
        return value


def _score_batch(stages: Stages, answers, inputs, generator) -> None:
    """Noisy outputs of a ``(B, H, W, 3)`` uint8 batch made on the device, then scored."""
    import torch

    from paintkit.metrics import prepare_targets, reward

    device = stages.device
    a, i = stages.run("copy", lambda: (answers.to(device, non_blocking=True),
                                       inputs.to(device, non_blocking=True)))

    def noisy():
        noise = torch.randint(-4, 5, a.shape, device=device, dtype=torch.int16,
                              generator=generator)
        return (a.to(torch.int16) + noise).clamp_(0, 255).to(torch.uint8)

    out = stages.run("make outputs", noisy)
    targets = stages.run("prepare targets", lambda: prepare_targets(a, i, device=device))
    stages.run("score", reward, out.permute(0, 3, 1, 2), targets)


def _from_disk(device, root: Path, jobs: int, generator) -> tuple[int, dict]:
    """Read ``root`` (a tree or shards) with ``paintkit.load`` and score it: problems, stages."""
    from concurrent.futures import ThreadPoolExecutor

    import torch

    import paintkit

    stages = Stages(device)
    loaded = paintkit.load(root)
    with ThreadPoolExecutor(jobs) as pool:
        for start in range(0, len(loaded), BATCH):
            items = [loaded[k] for k in range(start, min(start + BATCH, len(loaded)))]
            pairs = stages.run("read", lambda items=items: list(pool.map(
                lambda item: (item.answer, item.input), items)))
            answers = torch.from_numpy(np.stack([p[0] for p in pairs]))
            inputs = torch.from_numpy(np.stack([p[1] for p in pairs]))
            _score_batch(stages, answers, inputs, generator)
    return len(loaded), stages.seconds


def _streamed(device, side: int, per_cell: int, jobs: int, generator) -> tuple[int, dict]:
    import torch
    from torch.utils.data import DataLoader

    from paintkit.data import ProblemStream
    from paintkit.suites.suite import Suite

    suite = Suite(tasks=TASKS, conditions=CONDITIONS, per_cell=per_cell, size=(side, side),
                  preservation=False, namespace="bench")
    loader = DataLoader(ProblemStream(suite, batch_size=BATCH), batch_size=None,
                        num_workers=max(1, jobs - 1), prefetch_factor=2,
                        pin_memory=device.type == "cuda")
    stages = Stages(device)
    count = 0
    it = iter(loader)
    while True:
        batch = stages.run("wait", next, it, None)
        if batch is None:
            break
        answers, inputs = batch["answer"], batch["input"]
        if isinstance(answers, list):  # mixed sizes cannot happen here: square conditions
            answers, inputs = torch.stack(answers), torch.stack(inputs)
        _score_batch(stages, answers, inputs, generator)
        count += len(batch["index"])
    return count, stages.seconds


def _row(way: str, side: int, problems: int, seconds: dict, wall: float) -> dict:
    return {"way": way, "side": side, "problems": problems, "seconds": round(wall, 2),
            "problems_per_hour": round(problems / wall * 3600),
            "stage_shares": {k: round(v / wall, 3) for k, v in seconds.items()}}


def pipeline_section(device, dry: bool) -> dict:
    import torch

    jobs = os.cpu_count() or 1
    generator = torch.Generator(device=device)
    generator.manual_seed(0)
    rows = []
    with tempfile.TemporaryDirectory(prefix="paintkit-device-pipeline-") as tmp:
        for side, per_cell in (((128, 1),) if dry else ((512, 150), (1024, 75))):
            for way, fmt in (("files", "directory"), ("shards", "webdataset")):
                root = Path(tmp) / f"{way}-{side}"
                start = time.perf_counter()
                generated = _generate(root, side, per_cell, fmt, jobs)
                problems, seconds = _from_disk(device, root, jobs, generator)
                wall = time.perf_counter() - start
                rows.append(_row(way, side, problems, {"generate": generated, **seconds}, wall))
                shutil.rmtree(root, ignore_errors=True)
                log(f"  pipeline {side}² {way}: {rows[-1]['problems_per_hour']:,} problems/h")
            start = time.perf_counter()
            problems, seconds = _streamed(device, side, per_cell, jobs, generator)
            rows.append(_row("stream", side, problems, seconds, time.perf_counter() - start))
            log(f"  pipeline {side}² stream: {rows[-1]['problems_per_hour']:,} problems/h")
    return {"cores": jobs, "batch": BATCH, "rows": rows}


#: Row fields that say how a row was computed, not what it measured.
HOW_FIELDS = ("device", "engine", "seconds", "scored_at", "host", "worker")


def _rows(results: Path) -> list[dict]:
    rows = [json.loads(line) for line in (results / "problem_stats.jsonl").read_text()
            .splitlines() if line.strip()]
    rows = [{k: v for k, v in row.items() if k not in HOW_FIELDS} for row in rows]
    return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))


def _eval(benchmarks: Path, outputs: Path, results: Path, extra: list[str]) -> float:
    command = [sys.executable, "-m", "paintkit", "eval", "--benchmarks", str(benchmarks),
               "--outputs", str(outputs), "--results", str(results), "--quiet", *extra]
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True, timeout=600,
                         env=dict(os.environ, RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0"))
    if run.returncode:
        raise RuntimeError(f"paintkit eval {' '.join(extra)} failed: {run.stderr[-1500:]}")
    return time.perf_counter() - start


def ray_section(device, dry: bool) -> dict:
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        return {"skipped": "Ray is not installed here (its wheel, ~76 MiB, is more than a "
                           "device call carries with .whl/): a second call carrying .whl_ray "
                           "(bash bench/device_ray_wheels.sh) runs it: DEVICE_CHECK_SECTIONS=ray "
                           "DEVICE_CHECK_TESTS=0 bash bench/device_check.sh"}
    import paintkit
    from paintkit.eval.synthetic import model_output
    from paintkit.io.png_encode import encode_png

    jobs = os.cpu_count() or 1
    rng = np.random.default_rng(3)
    with tempfile.TemporaryDirectory(prefix="paintkit-device-ray-") as tmp:
        tree, outputs = Path(tmp) / "tree", Path(tmp) / "outputs"
        _generate(tree, 128 if dry else 512, 1 if dry else 4, "directory", jobs)
        loaded = paintkit.load(tree)
        for item in loaded:
            for model, image in (("oracle", item.answer), ("echo", item.input),
                                 ("noisy", model_output(rng, item.answer, item.input, "noisy"))):
                target = item.problem.output_path(outputs, model)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(encode_png(image))
        local = _eval(tree, outputs, Path(tmp) / "local", ["--jobs", str(jobs)])
        gpu = ["--num-gpus", "0.25", "--device", "cuda"] if device.type == "cuda" \
            else ["--device", "cpu"]
        ray = _eval(tree, outputs, Path(tmp) / "ray", ["--engine", "ray", *gpu])
        local_rows, ray_rows = _rows(Path(tmp) / "local"), _rows(Path(tmp) / "ray")
    scored = len(local_rows)
    report = {"problems": len(loaded), "rows": scored, "equal_rows": local_rows == ray_rows,
              "local_seconds": round(local, 2), "ray_seconds": round(ray, 2),
              "local_rows_per_s": round(scored / local, 2),
              "ray_rows_per_s": round(len(ray_rows) / ray, 2), "ray_arguments": gpu}
    if not report["equal_rows"]:
        differ = [k for k, (x, y) in enumerate(zip(local_rows, ray_rows, strict=False)) if x != y]
        report["first_differing_rows"] = differ[:5]
    log(f"  ray: equal rows {report['equal_rows']} ({scored} rows; local {local:.1f} s, "
        f"ray {ray:.1f} s, both with process start)")
    return report


def pipeline_markdown(results: dict) -> list[str]:
    lines: list[str] = []
    pipeline = results.get("pipeline")
    if isinstance(pipeline, dict) and "rows" in pipeline:
        lines += [f"## The whole pipeline ({pipeline['cores']} cores generating, one device "
                  f"scoring, batches of {pipeline['batch']})", "",
                  "| side | way | problems | s | problems/hour | stage shares |",
                  "| --- " * 6 + "|"]
        lines += [f"| {r['side']}² | {r['way']} | {r['problems']} | {r['seconds']} | "
                  f"{r['problems_per_hour']:,} | "
                  + ", ".join(f"{k} {100 * v:.0f} %" for k, v in r["stage_shares"].items()) + " |"
                  for r in pipeline["rows"]]
        lines.append("")
    ray = results.get("ray")
    if isinstance(ray, dict) and "equal_rows" in ray:
        lines += ["## paintkit eval --engine ray on the device", "",
                  f"rows equal to the local eval: **{ray['equal_rows']}** ({ray['rows']} rows, "
                  f"{' '.join(ray['ray_arguments'])}); local {ray['local_rows_per_s']} rows/s, "
                  f"ray {ray['ray_rows_per_s']} rows/s (each with its start)", ""]
    return lines
