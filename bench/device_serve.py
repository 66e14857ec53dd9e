"""The device check's ``serve`` section: ``paintkit serve`` on the device, driven from client
processes over 127.0.0.1.

The service is started as users start it (``python -m paintkit serve --device cuda``, or
``--device cpu`` in a dry run) with room for one GRPO step per request (``--max-batch 64``,
``--max-mb 256``). Client *processes* (spawned, up to 8, each running its share of the
client threads) ask for rewards of noisy outputs of real problems (keys of a ``bench``
namespace suite), for a fixed time per case:

- ``clients``: 1, 16 and 64 concurrent clients, each sending one image per request through
  the single-image endpoint (``RewardClient.score_one``), the body raw uint8 bytes or a PNG,
  at 512² and 1024²: rewards/s over all clients, p50/p99 latency per request, and the
  service's CPU ms per reward;
- ``grpo_step``: one client sending a GRPO step's 64 images (1024²; 512² too) as one batch
  request (``RewardClient.score``), raw and PNG: p50/p99 per step, next to where a step's
  time goes when measured alone in this process (PNG decode of 64 images with paintkit's
  decoder, the host-to-device copy and ``reward`` on the device): the device's share of the
  step is ``score_ms / p50``, the rest is HTTP, Python and the service's queueing.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import subprocess
import sys
import time

import numpy as np

from bench.device_common import log, synchronize

TASKS = ("translation", "recolor", "flood_fill", "scaling")


def start_service(device: str):
    """``paintkit serve`` in its own process on ``device``: ``(process, url)``."""
    process = subprocess.Popen([sys.executable, "-m", "paintkit", "serve", "--port", "0",
                                "--device", device, "--max-batch", "64", "--max-mb", "256",
                                "--log-level", "warning"], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line and process.poll() is not None:
            raise RuntimeError(f"paintkit serve exited with {process.returncode}")
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        if found:
            return process, found.group(0)
    process.kill()
    raise RuntimeError("paintkit serve did not print its address within 120 s")


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system, all threads) of process ``pid`` (NaN off Linux)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def problems_of(side: int, count: int):
    """``(outputs, ids, problems)``: noisy outputs of ``count`` real problems at ``side``²."""
    from paintkit.eval.synthetic import model_output
    from paintkit.suites import build_problem
    from paintkit.suites.suite import Suite

    suite = Suite(tasks=TASKS, conditions=("baseline", "n_med"), per_cell=1, size=(side, side),
                  preservation=False, namespace="bench")
    problems = [build_problem(suite, suite.spec(k % len(suite))) for k in range(count)]
    rng = np.random.default_rng(side)
    outputs = [model_output(rng, p.answer, p.input, "noisy") for p in problems]
    return outputs, [p.metadata["problem_id"] for p in problems], problems


def client_worker(url: str, encoding: str, outputs, ids, threads: int, seconds: float,
                  batch: int) -> tuple[float, float, list[float]]:
    """In a client process: ``threads`` clients asking until ``seconds`` have passed:
    ``(start, stop, latencies)`` (wall-clock seconds; each request's latency in s).
    ``batch`` > 1: each request is one batch of that many."""
    from concurrent.futures import ThreadPoolExecutor

    from paintkit.rewards.client import RewardClient

    client = RewardClient(url, encoding=encoding, max_connections=max(threads, 1), timeout=120)
    n = len(outputs)

    def one(k: int) -> None:
        if batch > 1:
            picked = [(k + j) % n for j in range(batch)]
            client.score([outputs[j] for j in picked], [ids[j] for j in picked])
        else:
            client.score_one(outputs[k % n], ids[k % n])

    for k in range(min(n, 4)):  # warm: this process's connections, the service's targets
        one(k)

    def loop(offset: int) -> list[float]:
        latencies, k = [], offset
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            start = time.perf_counter()
            one(k)
            latencies.append(time.perf_counter() - start)
            k += threads
        return latencies

    with ThreadPoolExecutor(threads) as pool:
        start = time.time()
        parts = list(pool.map(loop, range(threads)))
        stop = time.time()
    client.close()
    return start, stop, [x for part in parts for x in part]


#: Client processes (spawned once per run, shared by every case).
CLIENT_PROCESSES = 8


def drive(pool, url: str, pid: int, encoding: str, outputs, ids, clients: int, seconds: float,
          batch: int = 1) -> dict:
    """One case: ``clients`` client threads spread over the pool's processes. Rewards/s
    over the span from the first process's start of asking to the last one's end (each
    process warms up its connections first, outside the span)."""
    processes = min(clients, CLIENT_PROCESSES)
    shares = [clients // processes + (k < clients % processes) for k in range(processes)]
    cpu = cpu_seconds(pid)
    parts = pool.starmap(client_worker, [(url, encoding, outputs, ids, share, seconds, batch)
                                         for share in shares], chunksize=1)
    cpu = cpu_seconds(pid) - cpu  # includes the clients' warm-up requests
    wall = max(p[1] for p in parts) - min(p[0] for p in parts)
    latencies = np.array([x for part in parts for x in part[2]]) * 1000
    rewards = len(latencies) * batch
    return {"clients": clients, "encoding": encoding, "requests": int(len(latencies)),
            "rewards_per_s": round(rewards / wall, 1),
            "p50_ms": round(float(np.percentile(latencies, 50)), 2),
            "p99_ms": round(float(np.percentile(latencies, 99)), 2),
            "service_cpu_ms_per_reward": round(cpu / max(rewards, 1) * 1000, 3)}


def step_alone(device, outputs, problems, batch: int) -> dict:
    """Where a batch of ``batch`` images' time goes in this process: PNG decode, copy to
    the device, ``reward`` on it (targets prepared once)."""
    import torch

    from paintkit.io.images import decode_rgb_bytes
    from paintkit.io.png_encode import encode_png
    from paintkit.metrics import prepare_targets, reward

    picked = [k % len(outputs) for k in range(batch)]
    pngs = [encode_png(outputs[k]) for k in picked]
    start = time.perf_counter()
    decoded = [decode_rgb_bytes(data) for data in pngs]
    decode_ms = (time.perf_counter() - start) * 1000
    targets = prepare_targets([problems[k].answer for k in picked],
                              [problems[k].input for k in picked], device=device)
    host = torch.from_numpy(np.stack(decoded))
    on_device = host.to(device)
    reward(on_device.permute(0, 3, 1, 2), targets)  # warm
    synchronize(device)
    start = time.perf_counter()
    on_device = host.to(device)
    synchronize(device)
    copy_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    for _ in range(3):
        reward(on_device.permute(0, 3, 1, 2), targets)
    synchronize(device)
    score_ms = (time.perf_counter() - start) / 3 * 1000
    return {"png_decode_ms_one_core": round(decode_ms, 2), "copy_ms": round(copy_ms, 3),
            "score_ms": round(score_ms, 3)}


def serve_section(device, dry: bool) -> dict:
    process, url = start_service("cuda" if device.type == "cuda" else "cpu")
    report: dict = {"url": url, "rows": [], "grpo_step": []}
    pool = multiprocessing.get_context("spawn").Pool(2 if dry else CLIENT_PROCESSES)
    try:
        seconds = 0.3 if dry else 1.5
        for side in ((128,) if dry else (512, 1024)):
            outputs, ids, problems = problems_of(side, 4 if dry else 8)
            for encoding in ("raw", "png"):
                for clients in ((1, 2) if dry else (1, 16, 64)):
                    row = drive(pool, url, process.pid, encoding, outputs, ids, clients,
                                seconds)
                    report["rows"].append({"side": side, **row})
                    log(f"  serve {side}² {encoding} x{clients}: {row['rewards_per_s']} rewards/s "
                        f"p50 {row['p50_ms']} ms")
            batch = 4 if dry else 64
            alone = step_alone(device, outputs, problems, batch)
            for encoding in ("raw", "png"):
                row = drive(pool, url, process.pid, encoding, outputs, ids, 1, seconds,
                            batch=batch)
                row.update(side=side, batch=batch, **alone,
                           device_share=round(alone["score_ms"] / row["p50_ms"], 4))
                report["grpo_step"].append(row)
                log(f"  serve GRPO step {side}² x{batch} {encoding}: p50 {row['p50_ms']} ms")
    finally:
        pool.terminate()
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
    return report


def serve_markdown(results: dict) -> list[str]:
    report = results.get("serve")
    if not isinstance(report, dict) or "rows" not in report:
        return []
    lines = ["## paintkit serve on the device (client processes over 127.0.0.1)", "",
             "| side | body | clients | rewards/s | p50 ms | p99 ms | service CPU ms/reward |",
             "| --- " * 7 + "|"]
    lines += [f"| {r['side']}² | {r['encoding']} | {r['clients']} | {r['rewards_per_s']} | "
              f"{r['p50_ms']} | {r['p99_ms']} | {r['service_cpu_ms_per_reward']} |"
              for r in report["rows"]]
    lines += ["", "| side | GRPO step | body | p50 ms | p99 ms | alone: PNG decode (1 core) | "
              "copy | reward | device share |", "| --- " * 9 + "|"]
    lines += [f"| {r['side']}² | {r['batch']} images | {r['encoding']} | {r['p50_ms']} | "
              f"{r['p99_ms']} | {r['png_decode_ms_one_core']} ms | {r['copy_ms']} ms | "
              f"{r['score_ms']} ms | {100 * r['device_share']:.1f} % |"
              for r in report["grpo_step"]]
    return [*lines, ""]
