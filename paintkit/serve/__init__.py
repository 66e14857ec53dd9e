"""``paintkit serve``: the exact reward as an HTTP service (docs/serve.md).

- :func:`paintkit.serve.app.create_app`: the FastAPI application (uvicorn, Ray Serve);
- :class:`~paintkit.serve.options.ServeOptions`: its settings;
- :func:`~paintkit.suites.problem_keys.problem_from_key`: a problem regenerated from its id;
- :class:`paintkit.rewards.client.RewardClient`: the Python client (sync and asyncio).
"""

from paintkit.serve.options import ServeOptions
from paintkit.suites.problem_keys import ProblemKeyError, problem_from_key

__all__ = ["ProblemKeyError", "ServeOptions", "problem_from_key"]
