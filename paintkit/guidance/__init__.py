"""Visual guidance: single-target problems whose target is marked by a drawn ring or arrow
instead of named in words; made by slot by :class:`paintkit.sources.guidance.GuidanceSource`.
See docs/guidance.md."""

from paintkit.guidance.cues import CUES
from paintkit.guidance.generate import GUIDED_TASKS, guide

__all__ = ["CUES", "GUIDED_TASKS", "guide"]
