"""The reward service against in-process ``reward()`` on the same images, side by side.

    python bench/serve_throughput.py [--sizes 512,1024] [--clients 1,4,16] [--requests 48]
        [--problems 8] [--max-wait-ms MS] [--rounds 3]

For each size, ``--problems`` PaintBench problems (keys of a ``bench`` namespace suite) and a
noisy output each (every pixel off by a few units, as in bench/reward_throughput.py);
``--requests`` rewards are asked for by N client threads at once:

- ``in-process``: each thread calls ``reward([output], target)`` with the problem's
  targets prepared once (what the in-process adapters do with their cache);
- ``http json``: ``RewardClient(batch="json").score`` (one image per request: the batch
  endpoint, raw uint8 in base64 inside JSON) on a ``paintkit serve`` started as a separate
  process on 127.0.0.1;
- ``http binary``: ``RewardClient.score`` (the batch endpoint, a binary batch: a JSON header
  line, then the raw bytes);
- ``http raw``: ``RewardClient.score_one`` (the single-image endpoint, the body the bare
  uint8 bytes: what the verl-omni ``compute_score`` sends);
- ``http raw, unscored``: the same bodies sent against a problem of another size, so the
  service reads, checks and refuses each (422) without scoring it: what HTTP, the body and
  the request's path through the service cost alone.

Every case is warmed up first (targets prepared on both sides), and the cases of one client
count are run ``--rounds`` times in turn (in-process, then each HTTP path), so that a burst
of other work on a shared machine hits both sides. Printed, as medians over the rounds:
rewards/s over all threads, p50/p99 latency per reward, the service/in-process ratio (the
median of each round's ratio, then the lowest and highest round's), and CPU time per reward
(ms) of the service's process and of this process (the clients, or the in-process reward):
on one machine both share the same cores, so the clients' CPU is paid out of the service's
throughput; ``in-process CPU / service CPU`` is what the ratio would be with the clients on
other cores. Then what one image costs on the way (base64, JSON) measured alone. On a shared
machine read the ratios and CPU times, not the absolute rates.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import resource
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np


def start_service(max_wait_ms: float | None):
    """``paintkit serve`` on the CPU in its own process (``max_wait_ms`` None: its default)."""
    wait = [] if max_wait_ms is None else ["--max-wait-ms", str(max_wait_ms)]
    process = subprocess.Popen([sys.executable, "-m", "paintkit", "serve", "--port", "0",
                                "--device", "cpu", *wait, "--log-level", "warning"],
                               stderr=subprocess.PIPE, text=True)
    while True:
        line = process.stderr.readline()
        if not line and process.poll() is not None:
            raise RuntimeError("paintkit serve did not start")
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        if found:
            return process, found.group(0)


def cpu_seconds(pid: int | None) -> float:
    """CPU time (user + system, all threads) of process ``pid`` (None: this process)."""
    if pid is None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")  # not Linux
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_case(call, requests: int, clients: int, server_pid: int) -> dict:
    """Rewards/s, p50/p99 ms and CPU ms per reward (service, this process) of ``requests``
    calls ``call(k)`` from ``clients`` threads."""
    latencies = []

    def timed(k):
        start = time.perf_counter()
        call(k)
        latencies.append(time.perf_counter() - start)

    cpu = cpu_seconds(server_pid), cpu_seconds(None)
    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(timed, range(requests)))
    wall = time.perf_counter() - start
    ms = np.array(latencies) * 1000
    return {"rate": requests / wall, "p50": float(np.percentile(ms, 50)),
            "p99": float(np.percentile(ms, 99)),
            "server_cpu": (cpu_seconds(server_pid) - cpu[0]) / requests * 1000,
            "client_cpu": (cpu_seconds(None) - cpu[1]) / requests * 1000}


def median_case(cases: list[dict]) -> dict:
    """Each figure's median over the rounds."""
    return {key: float(np.median([c[key] for c in cases])) for key in cases[0]}


def bench_size(size: int, args, url: str, server_pid: int) -> None:
    """Print the rows of one canvas size."""
    from paintkit.eval.synthetic import model_output
    from paintkit.metrics import prepare_targets, reward
    from paintkit.rewards.client import RewardClient
    from paintkit.suites import build_problem
    from paintkit.suites.suite import Suite

    client = RewardClient(url, max_connections=64)
    json_client = RewardClient(url, max_connections=64, batch="json")

    def problems_of(side):
        suite = Suite(tasks=("translation", "recolor", "flood_fill", "scaling"),
                      conditions=("baseline", "n_med"), per_cell=1, size=(side, side),
                      preservation=False, namespace="bench")
        return [build_problem(suite, suite.spec(i % len(suite))) for i in range(args.problems)]

    problems = problems_of(size)
    other = problems_of(size // 2)[0].metadata["problem_id"]  # refuses a size x size image
    rng = np.random.default_rng(0)
    outputs = [model_output(rng, p.answer, p.input, "noisy") for p in problems]
    ids = [p.metadata["problem_id"] for p in problems]
    targets = [prepare_targets([p.answer], [p.input]) for p in problems]
    n = len(problems)

    def local(k):
        return reward([outputs[k % n]], targets[k % n])

    def http_json(k):
        return json_client.score([outputs[k % n]], [ids[k % n]])

    def http_binary(k):
        return client.score([outputs[k % n]], [ids[k % n]])

    def http_raw(k):
        return client.score_one(outputs[k % n], ids[k % n])

    def http_unscored(k):
        try:
            client.score_one(outputs[k % n], other)
        except ValueError as exc:  # 422: read, checked, refused
            assert "HTTP 422" in str(exc), exc
        else:
            raise AssertionError("a wrong-size image was scored")

    for k in range(n):  # warm-up: kernels compiled, targets prepared on both sides
        local(k), http_json(k), http_binary(k), http_raw(k), http_unscored(k)
    paths = (("http json", http_json), ("http binary", http_binary), ("http raw", http_raw),
             ("http raw, unscored", http_unscored))
    for clients in (int(c) for c in args.clients.split(",")):
        rounds: dict = {name: [] for name in ("in-process", *(name for name, _ in paths))}
        for _ in range(args.rounds):  # alternated, so a burst of load hits both sides
            rounds["in-process"].append(run_case(local, args.requests, clients, server_pid))
            for name, call in paths:
                rounds[name].append(run_case(call, args.requests, clients, server_pid))
        base = median_case(rounds["in-process"])
        print(f"| {size}² | {clients} | in-process | {base['rate']:.1f} | {base['p50']:.0f} | "
              f"{base['p99']:.0f} | 1.00 | - | {base['client_cpu']:.2f} | |", flush=True)
        for name, _ in paths:
            got = median_case(rounds[name])
            ratios = [g["rate"] / b["rate"] for g, b in zip(rounds[name], rounds["in-process"],
                                                             strict=True)]
            ratio = "-" if "unscored" in name else \
                f"{float(np.median(ratios)):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
            alone = "" if "unscored" in name else f"{base['client_cpu'] / got['server_cpu']:.2f}"
            print(f"| {size}² | {clients} | {name} | {got['rate']:.1f} | {got['p50']:.0f} | "
                  f"{got['p99']:.0f} | {ratio} | {got['server_cpu']:.2f} | "
                  f"{got['client_cpu']:.2f} | {alone} |", flush=True)
    image = outputs[0]
    start = time.perf_counter()
    for _ in range(10):
        text = json.dumps({"items": [{"problem_id": ids[0], "image": {
            "raw": base64.b64encode(image.data).decode(), "shape": list(image.shape)}}]})
        base64.b64decode(json.loads(text)["items"][0]["image"]["raw"])
    per = (time.perf_counter() - start) / 10 * 1000
    print(f"\n{size}²: base64 + JSON there and back {per:.1f} ms per image "
          f"({image.nbytes / 2**20:.1f} MiB raw)\n")
    client.close()
    json_client.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="512,1024")
    parser.add_argument("--clients", default="1,4,16")
    parser.add_argument("--requests", type=int, default=48)
    parser.add_argument("--problems", type=int, default=8)
    parser.add_argument("--max-wait-ms", type=float, default=None,
                        help="the service's --max-wait-ms (default: the service's own)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternated repeats of every case; medians are printed")
    args = parser.parse_args()
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

    from paintkit.rewards.client import RewardClient

    process, url = start_service(args.max_wait_ms)
    try:
        probe = RewardClient(url)
        while probe.health().get("status") != "ok":
            time.sleep(0.1)
        print(f"load average {os.getloadavg()[0]:.1f}; service {url}, "
              f"max-wait {'default' if args.max_wait_ms is None else args.max_wait_ms} ms")
        print("| size | clients | path | rewards/s | p50 ms | p99 ms | x in-process (rounds) | "
              "service CPU ms | this process CPU ms | in-process CPU / service CPU |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for size in (int(s) for s in args.sizes.split(",")):
            bench_size(size, args, url, process.pid)
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
    finally:
        process.terminate()
        process.wait(60)


if __name__ == "__main__":
    main()
