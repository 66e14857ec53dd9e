"""Harder problems from the same exact machinery: chains of 2-3 edits on one scene, asked at
once (``multi_edit``) or turn by turn (``conversational``). See docs/compositional.md."""

from paintkit.compositional.chain import (
    KINDS,
    STEP_COUNTS,
    generate_compositional,  # deprecated alias of make_compositional_problem
    make_compositional_problem,
)
from paintkit.compositional.operations import OPERATIONS

__all__ = ["KINDS", "OPERATIONS", "STEP_COUNTS", "generate_compositional",
           "make_compositional_problem"]
