"""``paintkit serve``: the exact reward as an HTTP service (docs/serve.md)."""

from __future__ import annotations

from paintkit.cli.flags import count, integer, number


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the exact reward over HTTP (lossless images in, JSON rewards out)",
        description="Runs the reward service on uvicorn: trainers post images with their "
        "problem_id and get the PaintBench reward back (docs/serve.md). Problems are read "
        "from --benchmarks or regenerated from their key. Needs paintkit[serve].",
    )
    parser.add_argument("--benchmarks", metavar="DIR", default=None,
                        help="a benchmark folder (paintkit generate) to read problems from "
                        "(default: regenerate each problem from its key)")
    parser.add_argument("--prompts", metavar="DIR", default=None,
                        help="a Flow-Factory dataset (paintkit generate --format flow-factory): "
                        "POST /compute requests naming no problem id are matched by prompt")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default: %(default)s; 0.0.0.0 for every interface)")
    parser.add_argument("--port", type=integer(0, 65535), default=8000,
                        help="port (default: %(default)s; 0: any free)")
    parser.add_argument("--token", default=None,
                        help="bearer token scoring requests must carry (default: "
                        "$PAINTKIT_SERVE_TOKEN if set; prefer it: arguments show in ps)")
    parser.add_argument("--device", default="auto", help="scoring device: auto, cpu, cuda, cuda:N "
                        "(default: %(default)s = CUDA when present)")
    parser.add_argument("--cache-mb", type=integer(0, 10**7), default=1024, metavar="MB",
                        help="device memory for prepared problems (default: %(default)s; a "
                        "1024x1024 problem takes 6 MiB on the CPU and with the fused CUDA "
                        "kernel, 31 MiB where the torch kernel counts)")
    parser.add_argument("--max-batch", type=count(1 << 16), default=32, metavar="N",
                        help="most images scored together (default: %(default)s)")
    parser.add_argument("--max-wait-ms", type=number(0, 60_000), default=None, metavar="MS",
                        help="how long a batch waits for more images (default: 0 on the CPU, "
                        "where waiting only idles a core; 5 on CUDA)")
    parser.add_argument("--score-threads", type=integer(0, 1024), default=0, metavar="N",
                        help="batches scored at once (default: one per CPU core on the CPU, "
                        "each on one core; 1 on CUDA)")
    parser.add_argument("--max-items", type=count(1 << 20), default=1024, metavar="N",
                        help="most items in one batch request, counted before any is "
                        "decoded (default: %(default)s)")
    parser.add_argument("--max-mb", type=count(1 << 16), default=64, metavar="MB",
                        help="largest request body (default: %(default)s)")
    parser.add_argument("--max-pixels", type=count(1 << 31), default=4096 * 4096, metavar="N",
                        help="largest image W*H, checked before decoding (default: %(default)s)")
    parser.add_argument("--body-timeout", type=number(0, 86_400, above=True), default=30.0, metavar="S",
                        help="answer 408 when a client stalls mid-body this long (default: %(default)s)")
    parser.add_argument("--log-level", default="info",
                        choices=("critical", "error", "warning", "info", "debug"))
    parser.set_defaults(func=run)


def run(args) -> int:
    try:
        # torch, numba and the web stack (fastapi, uvicorn): loaded only to serve
        from paintkit.serve.run import serve
    except ImportError as exc:
        raise ValueError(f"paintkit serve needs the web stack: pip install 'paintkit[serve]' "
                         f"({exc})") from None
    from paintkit.serve.options import ServeOptions  # numpy, PIL: kept out of paintkit --help
    options = ServeOptions(benchmarks=args.benchmarks, device=args.device, cache_mb=args.cache_mb,
                           max_batch=args.max_batch, max_wait_ms=args.max_wait_ms,
                           max_items=args.max_items,
                           max_mb=args.max_mb, max_pixels=args.max_pixels, token=args.token,
                           body_timeout_s=args.body_timeout, score_threads=args.score_threads,
                           prompts=args.prompts)
    return serve(options, args.host, args.port, log_level=args.log_level)
