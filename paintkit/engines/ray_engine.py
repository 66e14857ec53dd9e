"""The Ray engine: units of work run as Ray tasks.

``address=None`` starts a local Ray instance with ``jobs`` CPUs (or uses the one this
process already joined); ``address="auto"`` joins the cluster this machine belongs to;
``"HOST:PORT"`` / ``"ray://HOST:PORT"`` join a remote cluster, after checking within a
few seconds that the address answers at all. Workers must have paintkit installed (the
same version), see ``docs/generate.md``.

``paintkit generate --engine ray`` runs :func:`paintkit.engines.unit_write.write_unit` on
the workers through :meth:`RayEngine.call`: each worker writes its own files to the output
location and returns their records; the driver writes only the manifest
(:mod:`paintkit.engines.scaleout`). Ray owns scheduling and retries: a task whose node died
runs again elsewhere (``max_retries``), and writes the same files.

Token authentication (Ray >= 2.52 turns it on for ``ray.init()`` and for ``ray start
--head`` when a token exists): a refused connection is reported in one line that says what
to set (:func:`connection_error`).
"""

from __future__ import annotations

import os
import socket
import tempfile
import time
from contextlib import contextmanager
from urllib.parse import urlsplit

from paintkit.engines.local import Engine
from paintkit.engines.work import run_unit
from paintkit.parallel import default_jobs, single_thread_worker

#: Seconds an address gets to open a TCP connection and answer as Ray (gRPC) does.
CONNECT_TIMEOUT_S = 10.0
#: Ray re-runs a task whose worker or node died this many times (Ray's own retry).
MAX_RETRIES = 3
_RAY_CLIENT_PORT = 10001
_GCS_PORT = 6379
_AUTH_MARKERS = ("InvalidAuthToken", "Unauthenticated", "UNAUTHENTICATED")
TOKEN_HELP = ("set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN to the cluster's token (or "
              "RAY_AUTH_TOKEN_PATH to a file holding it); 'ray get-auth-token' on the head prints it")
#: An HTTP/2 client's connection preface and an empty SETTINGS frame: a gRPC server (Ray's
#: GCS and its client server both are) answers with a SETTINGS frame of its own.
_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
_SETTINGS_FRAME = 0x04


def _read_frame_header(sock: socket.socket, deadline: float) -> bytes:
    """The first 9 bytes the peer sends before ``deadline`` (fewer if it closes)."""
    data = b""
    while len(data) < 9:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        sock.settimeout(left)
        chunk = sock.recv(9 - len(data))
        if not chunk:
            break
        data += chunk
    return data


def check_reachable(address: str, timeout: float | None = None) -> None:
    """``ValueError`` naming ``address`` unless, within ``timeout`` seconds (default
    :data:`CONNECT_TIMEOUT_S`), a TCP connection to it opens and the peer answers an HTTP/2
    hello as a gRPC server (Ray's GCS and client server) does; ``ray.init`` has no deadline
    of its own, so an address that accepts and says nothing would hang it."""
    timeout = CONNECT_TIMEOUT_S if timeout is None else timeout
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    default_port = _RAY_CLIENT_PORT if parts.scheme == "ray" else _GCS_PORT
    try:
        host, port = parts.hostname, parts.port or default_port
    except ValueError as exc:
        raise ValueError(f"Ray address {address!r} is not HOST:PORT: {exc}") from None
    if not host:
        raise ValueError(f"Ray address {address!r} is not HOST:PORT or ray://HOST:PORT")
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        raise ValueError(f"cannot reach the Ray cluster at {address} ({host}:{port}): "
                         f"{exc.strerror or exc}") from None
    not_ray = (f"{address} ({host}:{port}) accepts connections but does not answer as a Ray "
               "cluster (a gRPC server)")
    with sock:
        try:
            sock.sendall(_HTTP2_HELLO)
            head = _read_frame_header(sock, deadline)
        except TimeoutError:
            raise ValueError(f"{not_ray}: no answer within {timeout:g} s; check the address "
                             "and port ('ray status' on the head prints them)") from None
        except OSError as exc:
            raise ValueError(f"{not_ray}: {exc.strerror or exc}") from None
    if len(head) < 9 or head[3] != _SETTINGS_FRAME:
        raise ValueError(f"{not_ray}: it answered {head[:16]!r}; check the address and port "
                         "('ray status' on the head prints them)")


def _has_token() -> bool:
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or os.path.expanduser("~/.ray/auth_token")
    return bool(os.environ.get("RAY_AUTH_TOKEN")) or os.path.isfile(path)


def connection_error(address: str | None, exc: BaseException, log: str = "") -> ValueError:
    """The one-line error of a failed ``ray.init``: a token problem says what to set.

    ``log``: what Ray's C++ client printed while connecting (it names ``InvalidAuthToken``
    when the cluster refused this process's token, or the missing one)."""
    where = f"the Ray cluster at {address}" if address else "the local Ray instance"
    if type(exc).__name__ == "AuthenticationError":  # this process asks for token mode
        if not _has_token():
            return ValueError(f"cannot connect to {where}: RAY_AUTH_MODE=token but no token is "
                              f"set; {TOKEN_HELP}")
        return ValueError(f"cannot connect to {where}: the cluster refused the token "
                          f"({str(exc).split('.')[0]}); {TOKEN_HELP}")
    if any(marker in log for marker in _AUTH_MARKERS):
        if os.environ.get("RAY_AUTH_MODE", "").lower() == "token" or _has_token():
            return ValueError(f"cannot connect to {where}: the cluster refused this process's "
                              f"token (InvalidAuthToken); {TOKEN_HELP}")
        return ValueError(f"cannot connect to {where}: it uses token authentication "
                          f"(InvalidAuthToken); {TOKEN_HELP}")
    detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return ValueError(f"cannot connect to {where}: {detail}")


@contextmanager
def _stderr_into(path: str):
    """Send file descriptor 2 (where Ray's C++ client logs) into ``path`` for a while."""
    saved = os.dup(2)
    try:
        with open(path, "wb") as sink:
            os.dup2(sink.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def connect(ray, address: str | None, jobs: int | None) -> None:
    """``ray.init`` for paintkit: quiet, and one clear line when it cannot connect."""
    if address not in (None, "auto", "local"):
        check_reachable(address)
    kwargs = {"num_cpus": jobs or default_jobs()} if address is None else {}
    with tempfile.TemporaryDirectory(prefix="paintkit-ray-") as folder:
        log_path = os.path.join(folder, "connect.log")
        failure = None
        with _stderr_into(log_path):
            try:
                # no address: an instance of our own ("local"), never a cluster that happens
                # to run on this machine or that $RAY_ADDRESS names (--address auto joins one)
                ray.init(address=address or "local", include_dashboard=False,
                         log_to_driver=False, logging_level="ERROR", **kwargs)
            except (ConnectionError, RuntimeError) as exc:
                failure = exc
            except Exception as exc:  # ray.exceptions.AuthenticationError (Ray >= 2.52)
                if type(exc).__name__ != "AuthenticationError":
                    raise
                failure = exc
        with open(log_path, "rb") as fh:
            log = fh.read().decode("utf-8", "replace")
    if failure is not None:
        raise connection_error(address, failure, log) from None


def _ray_call(function, *args):
    single_thread_worker()
    return function(*args)


def _ray_unit(suite, start, stop, options):
    single_thread_worker()
    return run_unit(suite, start, stop, options)


class RayEngine(Engine):
    """Runs units as Ray tasks (one CPU each)."""

    name = "ray"

    def __init__(self, address: str | None = None, jobs: int | None = None):
        try:
            import ray
        except ImportError:
            raise ValueError("--engine ray needs Ray: pip install 'paintkit[ray]'") from None
        self._ray = ray
        self._owns = False
        if not ray.is_initialized():
            connect(ray, address, jobs)
            self._owns = True
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES)(_ray_unit)
        self._call = ray.remote(num_cpus=1, max_retries=MAX_RETRIES)(_ray_call)
        self._suite_refs: dict[int, object] = {}

    def _suite_ref(self, suite):
        ref = self._suite_refs.get(id(suite))
        if ref is None:  # ship the suite once, not with every unit
            ref = self._suite_refs[id(suite)] = (self._ray.put(suite), suite)
        return ref[0]

    def submit(self, suite, start, stop, options):
        return self._task.remote(self._suite_ref(suite), start, stop, options)

    def call(self, function, suite, *args):
        """``function(suite, *args)`` as a Ray task; the suite travels once per run."""
        return self._call.remote(function, self._suite_ref(suite), *args)

    def wait(self, handles):
        ray, pending = self._ray, list(handles)
        ray.wait(pending, num_returns=1)  # block for one, then take every finished unit
        ready, rest = ray.wait(pending, num_returns=len(pending), timeout=0)
        return list(zip(ready, ray.get(ready), strict=True)), set(rest)

    def close(self) -> None:
        self._suite_refs.clear()
        if self._owns:
            self._ray.shutdown()
