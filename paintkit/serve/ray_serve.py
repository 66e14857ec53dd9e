"""The reward service on Ray Serve: the same FastAPI application, replicated.

Each replica builds :func:`~paintkit.serve.app.create_app` from the same
:class:`~paintkit.serve.options.ServeOptions` (its own prepared-problem cache and batcher);
Ray Serve's proxy spreads requests over the replicas, across nodes, and scales them.

From Python (a Ray cluster, or a local instance)::

    from ray import serve
    from paintkit.serve.ray_serve import reward_app

    serve.run(reward_app({"benchmarks": "/data/PaintBench"}, num_replicas=4, num_gpus=1),
              route_prefix="/")

From the command line (``ray[serve]``'s own CLI, arguments as ``key=value``)::

    serve run paintkit.serve.ray_serve:build_app num_replicas=4 num_gpus=1 benchmarks=/data/PaintBench

Needs ``paintkit[serve-ray]``.
"""

from __future__ import annotations

from dataclasses import fields

import ray
from ray import serve

from paintkit.serve.app import create_app
from paintkit.serve.options import ServeOptions


class PaintkitReward:
    """One replica: the service application built at replica start from ``options`` (a dict
    of :class:`ServeOptions` fields, so that it travels to the replica as plain data)."""

    def __init__(self, options: dict):
        if not options.get("score_threads"):  # one per CPU Ray gave this replica, not per core
            cpus = ray.get_runtime_context().get_assigned_resources().get("CPU", 1)
            options = {**options, "score_threads": max(1, int(cpus))}
        self.options = ServeOptions(**options)

    def __serve_build_asgi_app__(self):
        return create_app(self.options)


def reward_deployment(*, num_replicas: int | str = 1, num_gpus: float = 0,
                      autoscaling_config: dict | None = None, name: str = "paintkit-reward",
                      **deployment_options):
    """The Ray Serve deployment of the service.

    Args:
        num_replicas: replicas (or ``"auto"`` with ``autoscaling_config``).
        num_gpus: GPUs per replica (scoring runs on CUDA when the replica has one).
        autoscaling_config: Ray Serve's autoscaling settings (``min_replicas``,
            ``max_replicas``, ``target_ongoing_requests``, ...).
        deployment_options: anything else ``serve.deployment`` takes.
    """
    options = dict(deployment_options)
    if autoscaling_config is not None:
        options["autoscaling_config"] = autoscaling_config
        num_replicas = "auto" if num_replicas == 1 else num_replicas
    actor = dict(options.pop("ray_actor_options", None) or {})
    actor.setdefault("num_gpus", num_gpus)
    return serve.deployment(serve.ingress()(PaintkitReward), name=name, num_replicas=num_replicas,
                            ray_actor_options=actor, **options)


def reward_app(service: dict | ServeOptions | None = None, **deployment):
    """A Ray Serve application (``serve.run`` it): ``service`` the :class:`ServeOptions`
    (or a dict of its fields), ``deployment`` the :func:`reward_deployment` arguments."""
    if isinstance(service, ServeOptions):
        service = {f.name: getattr(service, f.name) for f in fields(ServeOptions)}
    ServeOptions(**(service or {}))  # refuse bad settings here, not on every replica
    return reward_deployment(**deployment).bind(dict(service or {}))


def build_app(args: dict):
    """Entry point of ``serve run paintkit.serve.ray_serve:build_app key=value ...``: keys of
    :class:`ServeOptions` configure the service, ``num_replicas`` / ``num_gpus`` the
    deployment (strings from the command line are converted to the fields' types)."""
    deployment = {}
    if "num_replicas" in args:
        value = args["num_replicas"]
        deployment["num_replicas"] = value if value == "auto" else int(value)
    if "num_gpus" in args:
        deployment["num_gpus"] = float(args["num_gpus"])
    types = {f.name: f.type for f in fields(ServeOptions)}
    service = {}
    for key, value in args.items():
        if key in ("num_replicas", "num_gpus"):
            continue
        if key not in types:
            raise ValueError(f"unknown setting {key!r}; allowed: num_replicas, num_gpus, "
                             f"{', '.join(types)}")
        kind = str(types[key])
        if isinstance(value, str) and "int" in kind and "None" not in kind:
            value = int(value)
        elif isinstance(value, str) and "float" in kind:
            value = float(value)
        service[key] = value
    return reward_app(service, **deployment)
