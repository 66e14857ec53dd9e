"""Run the reward service on uvicorn (what ``paintkit serve`` calls).

uvicorn handles Ctrl-C and SIGTERM: it stops accepting connections, answers the requests in
flight (up to ``graceful_s`` seconds), then runs the application's shutdown.
"""

from __future__ import annotations

import logging
import re
import signal
import sys

import uvicorn
from uvicorn.config import LOGGING_CONFIG

from paintkit.metrics.version import METRIC_VERSION
from paintkit.serve.app import create_app
from paintkit.serve.options import ServeOptions

#: Query parameters whose value never reaches the access log (a token sent in the URL).
SECRET_PARAMETER = re.compile(r"(?i)([?&][^=&]*(?:token|auth|key|secret|password|passwd)"
                              r"[^=&]*=)[^&]*")


class RedactSecrets(logging.Filter):
    """On uvicorn's access log: the value of any query parameter named like a secret, and
    the service's token wherever it appears in the path, written as ``***``."""

    def __init__(self, token: str | None):
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            path = SECRET_PARAMETER.sub(r"\1***", args[2])
            if self.token:
                path = path.replace(self.token, "***")
            record.args = (*args[:2], path, *args[3:])
        return True


def build_server(options: ServeOptions, host: str = "127.0.0.1", port: int = 8000, *,
                 log_level: str = "info", graceful_s: float = 30.0, announce=None,
                 log_config="uvicorn"):
    """A ``uvicorn.Server`` for the service (``server.run()`` serves until a signal, or until
    ``server.should_exit`` is set). ``announce(url)`` is called once it listens;
    ``log_config`` ``"uvicorn"`` is uvicorn's own logging setup, None leaves logging as the
    caller set it up."""
    class RewardServer(uvicorn.Server):
        stopped_by: int | None = None  # the first SIGINT / SIGTERM that stopped it

        def handle_exit(self, sig, frame):
            if self.stopped_by is None:
                self.stopped_by = sig
            super().handle_exit(sig, frame)

        async def startup(self, sockets=None):
            await super().startup(sockets)
            if self.started and announce is not None:
                bound = self.servers[0].sockets[0].getsockname()
                announce(f"http://{bound[0]}:{bound[1]}")

    config = uvicorn.Config(create_app(options), host=host, port=port, log_level=log_level,
                            timeout_graceful_shutdown=graceful_s, lifespan="on",
                            proxy_headers=False, server_header=False,
                            log_config=LOGGING_CONFIG if log_config == "uvicorn" else log_config)
    access = logging.getLogger("uvicorn.access")
    for old in [f for f in access.filters if isinstance(f, RedactSecrets)]:
        access.removeFilter(old)
    access.addFilter(RedactSecrets(options.token))
    return RewardServer(config)


#: What ``paintkit serve`` says when a signal stopped it.
STOPPED = "stopped after answering the requests in flight"


def serve(options: ServeOptions, host: str = "127.0.0.1", port: int = 8000, *,
          log_level: str = "info") -> int:
    """Serve until Ctrl-C / SIGTERM, printing the URL and the metric version first.

    uvicorn re-raises the signal once it has shut down (the command then exits 130 / 143);
    where the signal is ignored in this process (started in the background by a script
    without job control, SIGINT is), nothing is raised: the same line is printed here and
    the same status returned."""
    def announce(url):
        print(f"paintkit serve: {url} (metric version {METRIC_VERSION}, device "
              f"{options.torch_device()}, {'token required' if options.token else 'no token'})",
              file=sys.stderr, flush=True)

    server = build_server(options, host, port, log_level=log_level, announce=announce)
    server.run()
    if server.stopped_by is None:
        return 0
    what = "terminated (SIGTERM)" if server.stopped_by == signal.SIGTERM else "interrupted"
    print(f"paintkit serve: {what}; {STOPPED}", file=sys.stderr, flush=True)
    return 128 + int(server.stopped_by)
