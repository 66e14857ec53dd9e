"""Any Python function as a model: ``paintkit run --model my_pkg.editor:edit``.

The function takes a batch, a list of ``(PIL image, instruction)`` pairs, and returns one
item per pair, in order. An item is the edited image (a PIL image, a uint8 ``(H, W, 3)``
array, or encoded image bytes), or ``(image, text)`` where ``text`` is the model's
reasoning (saved as ``NNNN_reasoning.txt``), an edited SVG (text starting ``<svg`` or
``<?xml``) or chart state (a dict with ``"chart"``), written as ``NNNN_output.svg`` / ``.json``
(docs/svg.md), or an ``Exception`` for a problem the model could not do (recorded as failed,
retried on the next run). If the function declares a
``seeds`` parameter it also gets the per-problem seeds (a list of ints); options given with
``--option key=value`` arrive as keyword arguments. An exception raised by the function
fails the whole batch, with its message as the reason.

Which problems the batch holds, for a function that declares the parameter by name (one
list entry per pair, in order; ``**kwargs`` alone gets none of them, so functions written
before these existed see the same call):

- ``keys``: ``<Benchmark>/<task>/<NNNN>``, the problem's key in the outputs tree;
- ``problem_ids``: each problem's ``problem_id`` (the key ``paintkit serve`` and the
  trainer formats use; None for a problem whose metadata has none);
- ``metadata``: each problem's metadata dict, its ``NNN.json``;
- ``problems``: all of it, a dict per problem: ``key``, ``problem_id``, ``benchmark``,
  ``task``, ``index``, ``metadata``.

The problem's reference images (a problem may have some besides its input, each with a
role: docs/references.md), for a function that declares ``references`` by name: one list
per pair, in order, of :class:`~paintkit.run.interface.ReferenceImage` ``(image, role)``
tuples (RGB PIL images, in the order the model gets them after the input; an empty list
for a one-image problem). A function that does not declare it takes one image: it is never
called with a problem that has references (that problem fails with one line naming the
parameter; the rest of the batch runs), so no reference is ever dropped unseen.

To load weights once rather than per batch, write ``module:factory()``: paintkit calls
``factory(**options)`` once and then calls what it returns for every batch.

The module is found in the current folder first, then on ``sys.path`` (as uvicorn and
pytest do): ``cd mymods && paintkit run --model mymodel:edit ...`` finds ``mymodel.py``.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import sys
from collections.abc import Callable

from paintkit.run.interface import EditModel, EditRequest, EditResult, too_many_images


def load_callable(spec: str) -> tuple[Callable, bool]:
    """``"pkg.module:function"`` or ``"pkg.module:factory()"`` -> (object, is_factory).

    Raises:
        ValueError: a malformed spec, a module that does not import, a missing name.
    """
    module_name, sep, attr = spec.partition(":")
    factory = attr.endswith("()")
    attr = attr[:-2] if factory else attr
    if not sep or not module_name or not attr.isidentifier():
        raise ValueError(f"model {spec!r}: expected 'module:function' or 'module:factory()'")
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:  # the console script lacks the cwd
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        hint = ""
        if isinstance(exc, ModuleNotFoundError) and exc.name == module_name.split(".")[0]:
            hint = (f" (looked in the current folder {here} and on sys.path; cd into the "
                    "folder holding it, or set PYTHONPATH=FOLDER)")
        raise ValueError(f"model {spec!r}: cannot import {module_name}: {exc}{hint}") from None
    target = getattr(module, attr, None)
    if not callable(target):
        raise ValueError(f"model {spec!r}: {module_name} has no function {attr}")
    return target, factory


def _accepts(function: Callable, name: str, by_name: bool = False) -> bool:
    """Whether ``function`` takes ``name`` as a keyword (``by_name``: declared as such, not
    only through ``**kwargs``)."""
    try:
        params = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False
    param = params.get(name)
    if param is not None:
        return param.kind in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY)
    return not by_name and any(p.kind is p.VAR_KEYWORD for p in params.values())


#: What a callable may ask for about its batch's problems, by parameter name.
IDENTITY: dict[str, Callable[[EditRequest], object]] = {
    "keys": lambda r: r.key,
    "problem_ids": lambda r: r.problem_id,
    "metadata": lambda r: r.metadata,
    "problems": lambda r: r.identity(),
}


class CallableModel(EditModel):
    """:class:`EditModel` around a user function (see the module docstring)."""

    def __init__(self, spec: str, *, batch_size: int = 1, options: dict | None = None) -> None:
        target, factory = load_callable(spec)
        self.spec, self.options = spec, dict(options or {})
        self.function = target(**self.options) if factory else target
        self.call_options = {} if factory else self.options
        self.name = spec
        self.batch_size = batch_size
        self._seeds = _accepts(self.function, "seeds")
        self._identity = [name for name in IDENTITY if _accepts(self.function, name, True)]
        self._references = _accepts(self.function, "references", True)
        self.max_images = None if self._references else 1
        clash = sorted((set(self._identity) | ({"references"} if self._references else set()))
                       & set(self.call_options))
        if clash:
            raise ValueError(f"model {spec!r}: --option {clash[0]}= is the name of the problem "
                             f"identity paintkit passes to {spec}; rename the option")

    def refusal(self, request: EditRequest) -> str | None:
        return too_many_images(self.spec, request, self.max_images,
                               "declare a 'references' parameter to get the reference images")

    def edit_batch(self, requests: list[EditRequest]) -> list[EditResult]:
        batch = [(r.image, r.instruction) for r in requests]
        kwargs = dict(self.call_options)
        if self._seeds:
            kwargs["seeds"] = [r.seed for r in requests]
        for name in self._identity:
            kwargs[name] = [IDENTITY[name](r) for r in requests]
        if self._references:
            kwargs["references"] = [list(r.references) for r in requests]
        items = self.function(batch, **kwargs)
        items = list(items) if items is not None else []
        if len(items) != len(requests):
            raise ValueError(f"{self.spec} returned {len(items)} items for a batch of "
                             f"{len(requests)}")
        results = []
        for item in items:
            if isinstance(item, BaseException):
                results.append(EditResult(error=f"{type(item).__name__}: {item}"))
            elif isinstance(item, EditResult):
                results.append(item)
            elif isinstance(item, str) and item.lstrip()[:5].lower() in ("<svg ", "<svg>", "<?xml"):
                results.append(EditResult(code=item, code_kind="svg"))  # an edited SVG
            elif isinstance(item, dict) and "chart" in item:
                results.append(EditResult(code=json.dumps(item), code_kind="json"))  # a state
            elif isinstance(item, tuple) and len(item) == 2:
                results.append(EditResult(image=item[0], text=None if item[1] is None
                                          else str(item[1])))
            else:
                results.append(EditResult(image=item))
        return results

    def describe(self) -> dict:
        module = self.spec.partition(":")[0]
        version = getattr(importlib.import_module(module), "__version__", None)
        return {"name": self.spec, "kind": "callable", "module_version": version,
                "options": self.options}
