"""Harder problems from the same exact machinery: chains of 2-3 edits on one scene, asked at
once (``multi_edit``) or turn by turn (``conversational``); made by slot by
:class:`paintkit.sources.compositional.CompositionalSource`. See docs/compositional.md."""

from paintkit.compositional.chain import KINDS, STEP_COUNTS, sample_chain
from paintkit.compositional.operations import OPERATIONS

__all__ = ["KINDS", "OPERATIONS", "STEP_COUNTS", "sample_chain"]
