"""The single-image endpoint without FastAPI's per-request machinery, for plain requests.

A trainer's reward is one ``POST /v1/score/{problem_id}`` with the image as the body, many
times a second. FastAPI's routing, parameter solving, exception middleware and response
wrappers cost about 0.4 ms of the event loop's CPU per request, a third of what the loop
spends on a 1024x1024 image (docs/performance.md, "Reward service"). This middleware sits
inside :class:`~paintkit.serve.guard.GuardMiddleware` (the token is checked, the body read
under its limits) and answers a request whose query holds only the endpoint's parameters,
each once, with a plain value: through the code the FastAPI route calls
(:meth:`RewardService.answer_one <paintkit.serve.app.RewardService.answer_one>`), so the
answer is the route's, byte for byte. Anything else (another path or method, an unknown or
repeated parameter, a value FastAPI would refuse or coerce) goes on to FastAPI, which
answers it as before: validation and its errors keep one owner.
"""

from __future__ import annotations

from typing import get_args
from urllib.parse import parse_qsl

from paintkit.serve.guard import BODY_KEY
from paintkit.serve.protocol import Fit

PREFIX = "/v1/score/"
FITS = get_args(Fit)
BOOLEANS = {"true": True, "false": False, "1": True, "0": False}
TOLERANCES = {str(t): t for t in range(11)}


def route_path(scope) -> str:
    """The path the application routes on: without the ``root_path`` it is mounted under
    (Ray Serve's route prefix), as Starlette's router reads it."""
    path, root = scope["path"], scope.get("root_path", "")
    if root and path.startswith(root) and path[len(root):len(root) + 1] == "/":
        return path[len(root):]
    return path


def plain_parameters(query: bytes) -> dict | None:
    """``{"fit", "tolerance", "figures", "shape"}`` of a query string, or None where FastAPI
    should read it (an unknown or repeated key, a value outside the plain forms)."""
    found = {"fit": "exact", "tolerance": None, "figures": False, "shape": None}
    seen = set()
    for key, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if key in seen or key not in found:
            return None
        seen.add(key)
        if key == "fit":
            if value not in FITS:
                return None
            found["fit"] = value
        elif key == "tolerance":
            if value not in TOLERANCES:
                return None
            found["tolerance"] = TOLERANCES[value]
        elif key == "figures":
            if value.lower() not in BOOLEANS:
                return None
            found["figures"] = BOOLEANS[value.lower()]
        else:
            found["shape"] = value
    return found


class FastPath:
    """See the module docstring. ``service``: the app's ``RewardService``; it counts the
    requests answered here in ``fast_answers``."""

    def __init__(self, app, *, service):
        self.app = app
        self.service = service

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST" and BODY_KEY in scope:
            path = route_path(scope)
            problem_id = path[len(PREFIX):] if path.startswith(PREFIX) else ""
            if problem_id and "/" not in problem_id:
                found = plain_parameters(scope.get("query_string", b""))
                if found is not None:
                    kind = dict(scope["headers"]).get(b"content-type", b"").decode("latin-1")
                    response = await self._answer(problem_id, kind, scope[BODY_KEY], found)
                    return await response(scope, receive, send)
        return await self.app(scope, receive, send)

    async def _answer(self, problem_id: str, kind: str, body, found: dict):
        service = self.service
        try:
            response = await service.answer_one(problem_id, kind, body, found["shape"],
                                                found["fit"], found["tolerance"],
                                                found["figures"])
        except Exception as exc:  # noqa: BLE001 - answered as the app's handler does
            response = service.failure_response(exc)
        service.fast_answers += 1
        return response
