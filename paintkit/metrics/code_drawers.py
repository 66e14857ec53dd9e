"""Drawers of code outputs the metric scores without loading their renderer.

The metric scores pixels. An output that is code a renderer outside the metric draws (a
TinyGrafixBench chart state, drawn by matplotlib in :mod:`paintkit.tinygrafix`) reaches the
metric through a drawer registered here by the renderer's side
(:mod:`paintkit.code_outputs`, which ``import paintkit`` loads): the metric never imports
the renderer, so no import ties ``paintkit.metrics`` back to the tasks that import it.

A drawer is ``(accepts, draw)``: ``accepts(item) -> bool`` says whether an output is its
kind (cheap, no parsing); ``draw(item) -> uint8 (H, W, 3)`` draws it, raising
``ValueError`` with a one-line reason for an output it refuses (the metric scores that
output as missing, the reason kept).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["CodeDrawer", "drawer_for", "register_code_drawer", "registered_kinds"]


@dataclass(frozen=True)
class CodeDrawer:
    """One kind of code output: ``kind`` names it in errors (``"chart state"``)."""

    kind: str
    accepts: Callable[[Any], bool]
    draw: Callable[[Any], Any]


_DRAWERS: dict[str, CodeDrawer] = {}


def register_code_drawer(kind: str, accepts: Callable[[Any], bool],
                         draw: Callable[[Any], Any]) -> None:
    """Register (or replace) the drawer of ``kind``; registering the same kind again
    replaces it, so a module reloaded registers once."""
    if not kind or not callable(accepts) or not callable(draw):
        raise ValueError("register_code_drawer: expected a kind name and two callables")
    _DRAWERS[kind] = CodeDrawer(kind, accepts, draw)


def drawer_for(item: Any) -> CodeDrawer | None:
    """The registered drawer that accepts ``item``, or None (the item is not code of a
    registered kind)."""
    for drawer in _DRAWERS.values():
        if drawer.accepts(item):
            return drawer
    return None


def registered_kinds() -> tuple[str, ...]:
    """The kinds with a drawer, in registration order."""
    return tuple(_DRAWERS)
