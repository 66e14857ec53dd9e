"""What a check found (:class:`Verdict`), shared by the benchmark and submission checks."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Verdict"]


@dataclass
class Verdict:
    """What a check found: ``ok`` when nothing differs; ``notes`` (why, for the whole tree),
    ``differs`` (one line per problem or output that differs), ``checked`` (how many)."""

    checked: int = 0
    notes: list[str] = field(default_factory=list)
    differs: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differs
