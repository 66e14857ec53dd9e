"""``paintkit serve``: the exact reward as an HTTP service (docs/serve.md).

- :func:`~paintkit.serve.app.create_app`: the FastAPI application (uvicorn, Ray Serve);
- :class:`~paintkit.serve.options.ServeOptions`: its settings;
- :func:`~paintkit.serve.problem_keys.problem_from_key`: a problem regenerated from its id;
- :class:`~paintkit.serve.client.RewardClient`: a Python client (sync and asyncio).
"""

from paintkit.serve.problem_keys import ProblemKeyError, problem_from_key

__all__ = ["ProblemKeyError", "create_app", "problem_from_key", "RewardClient", "ServeOptions"]


def __getattr__(name):  # the web stack loads only when the service or client is used
    if name == "create_app":
        from paintkit.serve.app import create_app

        return create_app
    if name == "ServeOptions":
        from paintkit.serve.options import ServeOptions

        return ServeOptions
    if name == "RewardClient":
        from paintkit.serve.client import RewardClient

        return RewardClient
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
