"""Deprecated name of :mod:`paintkit.scene_parts` (placing shapes, glyphs and marks in task
scenes; unrelated to :mod:`paintkit.compositional`, the multi-edit problems). Kept for one
version: ``paintkit.composition.placement`` / ``.glyphs`` / ``.marks`` are the
``paintkit.scene_parts`` modules themselves."""

import sys

from paintkit.deprecation import warn_deprecated
from paintkit.scene_parts import glyphs, marks, placement

warn_deprecated("paintkit.composition", "paintkit.scene_parts", stacklevel=2)

for _module in (glyphs, marks, placement):
    sys.modules[f"{__name__}.{_module.__name__.rsplit('.', 1)[1]}"] = _module

__all__ = ["glyphs", "marks", "placement"]
