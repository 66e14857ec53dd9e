"""Visual guidance: single-target problems whose target is marked by a drawn ring or arrow
instead of named in words. See docs/guidance.md."""

from paintkit.guidance.cues import CUES
from paintkit.guidance.generate import (
    GUIDED_TASKS,
    generate_guided,  # deprecated alias of make_guided_problem
    make_guided_problem,
)

__all__ = ["CUES", "GUIDED_TASKS", "generate_guided", "make_guided_problem"]
