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
    #: what ``checked`` counts, by kind (``{"output hashes": 1008, "rows rescored": 1008}``),
    #: where a check counts more than one kind of thing
    kinds: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.differs

    def count(self, kind: str, n: int = 1) -> None:
        """``n`` more things of ``kind`` checked."""
        self.checked += n
        self.kinds[kind] = self.kinds.get(kind, 0) + n

    def what_was_checked(self) -> str:
        """``"1,008 output hashes and 1,008 rows rescored"``; ``"8 checks"`` without kinds."""
        if not self.kinds:
            return f"{self.checked:,} check{'s' if self.checked != 1 else ''}"
        parts = [f"{n:,} {kind}" for kind, n in self.kinds.items()]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
