"""What HTTP alone costs on the reward service's stack: a bare ASGI app against the service.

    python bench/serve_floor.py [--size 1024] [--clients 16] [--requests 1500] [--rounds 3]

Both servers run in a process of their own on uvicorn, with the service's settings (its
default HTTP parser and event loop, no access log), on 127.0.0.1:

- ``bare ASGI app``: a dozen lines that read the request body to its end, join it, and
  answer a fixed JSON reward. No Python ASGI service on this stack can do less per request;
- ``paintkit serve, unscored``: every image sent against a problem of another size, so the
  service reads the body, checks it and refuses it (422) without scoring it: the service's
  whole path except the scoring.

The clients are ``--clients`` threads in this process, sharing paintkit's pool of
keep-alive ``http.client`` connections (one per thread), sending the raw RGB body
(``size x size x 3`` bytes, what ``RewardClient.score_one`` sends). The two servers are
run ``--rounds`` times in turn. Printed, as medians over the rounds: requests/s, and CPU ms
per request of the server's process and of this process (the clients). The service's CPU
per request minus the bare app's is what the service itself adds to HTTP; the bare app's
is the stack's floor.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time

import numpy as np
from serve_throughput import median_case, run_case, start_service

ANSWER = b'{"reward": 0.5, "metric_version": "bare"}'


async def bare_app(scope, receive, send):
    """Read the whole body, then answer a fixed reward."""
    if scope["type"] != "http":
        return
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    b"".join(chunks)
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(ANSWER)).encode())]})
    await send({"type": "http.response.body", "body": ANSWER})


def serve_bare(port: int) -> None:
    """Run :func:`bare_app` on uvicorn on 127.0.0.1:``port``."""
    import uvicorn

    uvicorn.run(bare_app, host="127.0.0.1", port=port, log_level="warning", access_log=False,
                server_header=False)


def start_bare():
    """The bare app in its own process, once it accepts connections: ``(process, url)``."""
    with socket.socket() as probe:  # a free port (uvicorn's own --fd takes a UNIX socket)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, __file__, "--serve-bare", str(port)])
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, f"http://127.0.0.1:{port}"
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the bare ASGI app did not start") from None
            time.sleep(0.1)


def poster(pool, path: str, body, expect: int):
    """``call(k)`` for :func:`serve_throughput.run_case`: POST ``body`` to ``path`` through
    ``pool`` (paintkit's keep-alive ``http.client`` pool), expecting status ``expect``."""
    headers = {"content-type": "application/octet-stream"}

    def call(_):
        status = pool.request("POST", path, body, headers).status
        if status != expect:
            raise RuntimeError(f"{path}: HTTP {status}, expected {expect}")

    return call


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--serve-bare", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bare is not None:
        return serve_bare(args.serve_bare)

    from paintkit.rewards.client import RewardClient
    from paintkit.rewards.connections import ConnectionPool
    from paintkit.suites import build_problem
    from paintkit.suites.suite import Suite

    suite = Suite(tasks=("translation",), conditions=("baseline",), per_cell=1,
                  size=(args.size // 2, args.size // 2), preservation=False, namespace="bench")
    other = build_problem(suite, suite.spec(0)).metadata["problem_id"]  # refuses the image
    body = np.random.default_rng(0).integers(0, 256, (args.size, args.size, 3), np.uint8).data
    shape = f"{args.size},{args.size},3"
    bare, bare_url = start_bare()
    service, service_url = start_service(None)
    pools: list = []
    try:
        probe = RewardClient(service_url)
        while probe.health().get("status") != "ok":
            time.sleep(0.1)
        probe.close()
        pools = [ConnectionPool(url, maxsize=args.clients, timeout=60)
                 for url in (bare_url, service_url)]
        cases = {"bare ASGI app": (poster(pools[0], "/", body, 200), bare.pid),
                 "paintkit serve, unscored": (
                     poster(pools[1], f"/v1/score/{other}?shape={shape}", body, 422),
                     service.pid)}
        for call, pid in cases.values():  # connections opened, both servers warm
            run_case(call, args.clients, args.clients, pid)
        rounds: dict = {name: [] for name in cases}
        for _ in range(args.rounds):  # alternated, so a burst of load hits both
            for name, (call, pid) in cases.items():
                rounds[name].append(run_case(call, args.requests, args.clients, pid))
        print(f"load average {os.getloadavg()[0]:.1f}; {args.size}x{args.size} raw RGB bodies "
              f"({body.nbytes / 2**20:.1f} MiB), {args.clients} clients, {args.requests} "
              f"requests x {args.rounds} rounds")
        print("| server | requests/s | server CPU ms / request | clients CPU ms / request |")
        print("|---|---|---|---|")
        for name in cases:
            got = median_case(rounds[name])
            print(f"| {name} | {got['rate']:.0f} | {got['server_cpu']:.2f} | "
                  f"{got['client_cpu']:.2f} |")
    finally:
        for pool in pools:
            pool.close()
        for process in (bare, service):
            process.terminate()
            process.wait(60)


if __name__ == "__main__":
    main()
