"""The Ray engine: units of work run as Ray tasks, results come back to the driver.

``address=None`` starts a local Ray instance with ``jobs`` CPUs (or uses the one this
process already joined); ``address="auto"`` joins the cluster this machine belongs to;
``"HOST:PORT"`` / ``"ray://HOST:PORT"`` join a remote cluster, after checking within a
few seconds that the address answers at all. Workers must have paintkit installed (the
same version), see ``docs/generate.md``. The driver writes every file, so the output
folder only needs to exist on the driver's machine.
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from paintkit.engines.local import Engine
from paintkit.engines.work import run_unit
from paintkit.parallel import default_jobs, single_thread_worker

CONNECT_TIMEOUT_S = 5.0
_RAY_CLIENT_PORT = 10001
_GCS_PORT = 6379


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """``ValueError`` naming ``address`` unless a TCP connection to it opens in ``timeout``."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    default_port = _RAY_CLIENT_PORT if parts.scheme == "ray" else _GCS_PORT
    try:
        host, port = parts.hostname, parts.port or default_port
    except ValueError as exc:
        raise ValueError(f"Ray address {address!r} is not HOST:PORT: {exc}") from None
    if not host:
        raise ValueError(f"Ray address {address!r} is not HOST:PORT or ray://HOST:PORT")
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        raise ValueError(f"cannot reach the Ray cluster at {address} ({host}:{port}): "
                         f"{exc.strerror or exc}") from None


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
            if address not in (None, "auto", "local"):
                check_reachable(address)
            kwargs = {"num_cpus": jobs or default_jobs()} if address is None else {}
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False,
                         logging_level="ERROR", **kwargs)
            except ConnectionError as exc:
                raise ValueError(f"cannot connect to the Ray cluster at {address}: {exc}") from None
            self._owns = True
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._task = ray.remote(num_cpus=1)(_ray_unit)
        self._suite_refs: dict[int, object] = {}

    def submit(self, suite, start, stop, options):
        ref = self._suite_refs.get(id(suite))
        if ref is None:  # ship the suite once, not with every unit
            ref = self._suite_refs[id(suite)] = (self._ray.put(suite), suite)
        return self._task.remote(ref[0], start, stop, options)

    def wait(self, handles):
        ray, pending = self._ray, list(handles)
        ray.wait(pending, num_returns=1)  # block for one, then take every finished unit
        ready, rest = ray.wait(pending, num_returns=len(pending), timeout=0)
        return list(zip(ready, ray.get(ready), strict=True)), set(rest)

    def close(self) -> None:
        self._suite_refs.clear()
        if self._owns:
            self._ray.shutdown()
