"""paintkit run with an API editor: problems/s at concurrency 1, 8 and 32 on a loopback server.

    python -m bench.run_api_throughput [--problems 64] [--latency 0.1] [--model gpt-image-2]

The loopback server of the tests (tests/support/loopback.py: the real openai / google-genai
clients, 127.0.0.1) answers each request after ``--latency`` seconds, like a provider
would; the run's throughput should grow with the concurrency until the client's own cost
(PNG encode and decode, HTTP) is the limit. Prints problems/s and the most requests the
server saw in flight at once.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from paintkit.eval.synthetic import write_synthetic_tree
from paintkit.run.registry import build_model
from paintkit.run.runner import run_model
from tests.support.loopback import Loopback


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.1, help="server seconds per request")
    parser.add_argument("--model", default="gpt-image-2", choices=("gpt-image-2", "nano-banana-2"))
    parser.add_argument("--size", type=int, default=256, help="image side in pixels")
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "bench")
    os.environ.setdefault("GEMINI_API_KEY", "bench")
    with tempfile.TemporaryDirectory() as tmp:
        bench, _ = write_synthetic_tree(tmp, problems=args.problems, tasks=4, width=args.size,
                                        height=args.size, models=())
        print(f"{args.model}, {args.problems} problems of {args.size}x{args.size}, "
              f"server latency {args.latency * 1000:.0f} ms")
        print(f"{'concurrency':>11s} {'problems/s':>10s} {'seconds':>8s} {'max in flight':>13s}")
        for concurrency in (1, 8, 32):
            with Loopback(delay=args.latency) as server:
                base = server.url + ("/v1" if args.model.startswith("gpt") else "")
                model = build_model(args.model, api_base=base, concurrency=concurrency)
                start = time.perf_counter()
                summary = run_model(model, bench, Path(tmp) / f"out{concurrency}",
                                    progress=False)
                seconds = time.perf_counter() - start
                model.close()
            assert summary.written == args.problems, summary.failures
            print(f"{concurrency:>11d} {args.problems / seconds:>10.1f} {seconds:>8.2f} "
                  f"{server.max_in_flight:>13d}")


if __name__ == "__main__":
    main()
