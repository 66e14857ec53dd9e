"""The reward service against in-process ``reward()`` on the same images, side by side.

    python bench/serve_throughput.py [--sizes 512,1024] [--clients 1,4,16] [--requests 48]
        [--problems 8] [--max-wait-ms 2]

For each size, ``--problems`` PaintBench problems (keys of a ``bench`` namespace suite) and a
noisy output each (every pixel off by a few units, as in bench/reward_throughput.py);
``--requests`` rewards are asked for by N client threads at once:

- ``in-process``: each thread calls ``reward([output], target)`` with the problem's
  targets prepared once (what the in-process adapters do with their cache);
- ``http json``: each thread calls ``RewardClient.score`` (one image per request, the
  batch endpoint, raw uint8 in base64 inside JSON) on a ``paintkit serve`` started as a
  separate process on 127.0.0.1;
- ``http raw``: the single-image endpoint, the body the bare uint8 bytes (what the
  verl-omni ``compute_score`` sends).

Every case is warmed up first (targets prepared on both sides). Printed: rewards/s over all
threads, p50/p99 latency per reward, and the service/in-process ratio; then what one image
costs on the way (base64, JSON) measured alone. On a shared machine read the ratios.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np


def start_service(max_wait_ms: float):
    process = subprocess.Popen([sys.executable, "-m", "paintkit", "serve", "--port", "0",
                                "--device", "cpu", "--max-wait-ms", str(max_wait_ms),
                                "--log-level", "warning"], stderr=subprocess.PIPE, text=True)
    while True:
        line = process.stderr.readline()
        if not line and process.poll() is not None:
            raise RuntimeError("paintkit serve did not start")
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        if found:
            return process, found.group(0)


def run_case(call, requests: int, clients: int) -> tuple[float, float, float]:
    """(rewards/s, p50 ms, p99 ms) of ``requests`` calls ``call(k)`` from ``clients`` threads."""
    latencies = []

    def timed(k):
        start = time.perf_counter()
        call(k)
        latencies.append(time.perf_counter() - start)

    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(timed, range(requests)))
    wall = time.perf_counter() - start
    ms = np.array(latencies) * 1000
    return requests / wall, float(np.percentile(ms, 50)), float(np.percentile(ms, 99))


def bench_size(size: int, args, url: str) -> None:
    """Print the rows of one canvas size."""
    import httpx

    from paintkit.eval.synthetic import model_output
    from paintkit.metrics import prepare_targets, reward
    from paintkit.rewards.client import RewardClient
    from paintkit.suites import build_problem
    from paintkit.suites.suite import Suite

    client = RewardClient(url)
    raw = httpx.Client(timeout=120)
    suite = Suite(tasks=("translation", "recolor", "flood_fill", "scaling"),
                  conditions=("baseline", "n_med"), per_cell=1, size=(size, size),
                  preservation=False, namespace="bench")
    problems = [build_problem(suite, suite.spec(i % len(suite))) for i in range(args.problems)]
    rng = np.random.default_rng(0)
    outputs = [model_output(rng, p.answer, p.input, "noisy") for p in problems]
    ids = [p.metadata["problem_id"] for p in problems]
    targets = [prepare_targets([p.answer], [p.input]) for p in problems]
    n = len(problems)

    def local(k):
        return reward([outputs[k % n]], targets[k % n])

    def http_json(k):
        return client.score([outputs[k % n]], [ids[k % n]])

    def http_raw(k):
        response = raw.post(f"{url}/v1/score/{ids[k % n]}", content=outputs[k % n].tobytes(),
                            params={"shape": f"{size},{size},3"},
                            headers={"content-type": "application/octet-stream"})
        response.raise_for_status()

    for k in range(n):  # warm-up: kernels compiled, targets prepared on both sides
        local(k), http_json(k), http_raw(k)
    for clients in (int(c) for c in args.clients.split(",")):
        base = run_case(local, args.requests, clients)
        print(f"| {size}² | {clients} | in-process | {base[0]:.1f} | {base[1]:.0f} | "
              f"{base[2]:.0f} | 1.00 |")
        for name, call in (("http json", http_json), ("http raw", http_raw)):
            got = run_case(call, args.requests, clients)
            print(f"| {size}² | {clients} | {name} | {got[0]:.1f} | {got[1]:.0f} | "
                  f"{got[2]:.0f} | {got[0] / base[0]:.2f} |", flush=True)
    image = outputs[0]
    start = time.perf_counter()
    for _ in range(10):
        text = json.dumps({"items": [{"problem_id": ids[0], "image": {
            "raw": base64.b64encode(image.data).decode(), "shape": list(image.shape)}}]})
        base64.b64decode(json.loads(text)["items"][0]["image"]["raw"])
    per = (time.perf_counter() - start) / 10 * 1000
    print(f"\n{size}²: base64 + JSON there and back {per:.1f} ms per image "
          f"({image.nbytes / 2**20:.1f} MiB raw)\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="512,1024")
    parser.add_argument("--clients", default="1,4,16")
    parser.add_argument("--requests", type=int, default=48)
    parser.add_argument("--problems", type=int, default=8)
    parser.add_argument("--max-wait-ms", type=float, default=2.0)
    args = parser.parse_args()
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

    import httpx

    process, url = start_service(args.max_wait_ms)
    try:
        while httpx.get(url + "/health").status_code != 200:
            time.sleep(0.1)
        print(f"load average {os.getloadavg()[0]:.1f}; service {url}, max-wait {args.max_wait_ms} ms")
        print("| size | clients | path | rewards/s | p50 ms | p99 ms | x in-process |")
        print("|---|---|---|---|---|---|---|")
        for size in (int(s) for s in args.sizes.split(",")):
            bench_size(size, args, url)
    finally:
        process.terminate()
        process.wait(60)


if __name__ == "__main__":
    main()
