"""Reading JSON Lines results files, with one named policy for damaged lines.

Every reader of a results file (``problem_stats.jsonl``, ``turn_stats.jsonl``,
``explanations.jsonl``, a judgments file) goes through :func:`read_jsonl` and names its
policy, one of :data:`POLICIES`:

``strict``
    The first damaged line raises, naming ``file:line`` and why. For readers whose answer
    would be wrong without every row: ``paintkit stats`` and ``report`` (an aggregate over
    a silently shortened file is a wrong aggregate), ``report --explanations FILE``.
``skip``
    Damaged lines are left out; each is listed in :attr:`JsonlRead.damaged` with its line
    number and reason, for the caller to report. For readers that use what they can:
    ``paintkit agreement`` (its report lists the skipped rows), the explanations the
    report finds in the results rows, the metric version shown in the report.
``repair``
    As ``skip``, and a last line without its newline is damaged too (a write cut short:
    the file is appended to one line at a time). For the file ``paintkit eval`` resumes:
    it reports the damaged lines, rewrites the file atomically without them and scores
    those problems again (:func:`load_results`).

A line is damaged when it is not UTF-8, not JSON (nested too deeply included), or refused
by the reader's ``check``. Blank lines are skipped by every policy. Lines end at ``\\n``
only (a rating's text may hold U+2028 or a form feed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from paintkit.io.jsonl import parse_json
from paintkit.layout.errors import LayoutError
from paintkit.layout.rows import RowKey, row_key

STRICT = "strict"
SKIP = "skip"
REPAIR = "repair"
#: The policies a reader may choose (see the module docstring).
POLICIES = (STRICT, SKIP, REPAIR)


@dataclass(frozen=True)
class Damage:
    """One damaged line: its 1-based number, the reason (``"not JSON"``, ``"partial last
    line"``, ``"not UTF-8 text"`` or the check's own message) and an optional detail."""

    line: int
    reason: str
    detail: str = ""

    def short(self) -> str:
        """``line 7: not JSON`` (for a message that names the file once)."""
        return f"line {self.line}: {self.reason}"

    def located(self, path) -> str:
        """``<path>:7: not JSON (Expecting value)``."""
        return f"{path}:{self.line}: {self.reason}" + (f" ({self.detail})" if self.detail else "")


@dataclass
class JsonlRead:
    """What :func:`read_jsonl` found: ``rows`` as ``(line number, value)`` in file order,
    and the damaged lines left out (never any under ``strict``)."""

    path: Path
    rows: list[tuple[int, object]] = field(default_factory=list)
    damaged: list[Damage] = field(default_factory=list)


def check_policy(policy: str) -> str:
    if policy not in POLICIES:
        raise ValueError(f"policy: expected one of {', '.join(POLICIES)}, got {policy!r}")
    return policy


def read_jsonl(path, policy: str, check: Callable[[object, str], None] | None = None,
               error: type[Exception] = LayoutError) -> JsonlRead:
    """The values of the JSON Lines file ``path`` under ``policy`` (module docstring).

    Args:
        path: the file (must exist and be readable: else ``error`` naming it).
        policy: ``"strict"``, ``"skip"`` or ``"repair"``.
        check: ``check(value, where)`` raises ``ValueError`` (its message is the reason)
            for a value the reader does not accept; ``where`` is ``"<path>:<line>"``.
        error: the exception ``strict`` raises (a ``check`` error that already is one is
            raised unchanged).
    """
    check_policy(policy)
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror or exc})") from None
    found = JsonlRead(path)
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        damage = None
        if policy == REPAIR and number == len(lines):  # no newline after it: cut short
            damage = Damage(number, "partial last line")
        else:
            try:
                value = parse_json(raw.decode("utf-8"))
            except UnicodeDecodeError as exc:
                damage = Damage(number, "not UTF-8 text", f"byte {exc.start + 1}")
            except ValueError as exc:  # also nesting too deep
                damage = Damage(number, "not JSON", str(getattr(exc, "msg", None) or exc))
            else:
                if check is not None:
                    try:
                        check(value, f"{path}:{number}")
                    except ValueError as exc:
                        if policy == STRICT and isinstance(exc, error):
                            raise
                        damage = Damage(number, str(exc))
        if damage is None:
            found.rows.append((number, value))
        elif policy == STRICT:
            raise error(damage.located(path))
        else:
            found.damaged.append(damage)
    return found


def keyed_rows(read: JsonlRead) -> tuple[dict[RowKey, dict], int]:
    """``({key: row}, duplicates)``: one row per :class:`~paintkit.layout.rows.RowKey`, the
    last one of each key kept in its own position (a rescored problem)."""
    rows: dict[RowKey, dict] = {}
    duplicates = 0
    for _, row in read.rows:
        key = row_key(row)
        if key in rows:
            duplicates += 1
            del rows[key]
        rows[key] = row
    return rows, duplicates
