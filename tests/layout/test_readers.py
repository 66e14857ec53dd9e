"""Each reader policy of paintkit.layout.readers on damaged lines: strict raises naming
file:line, skip lists and leaves out, repair also drops a last line cut short."""

from __future__ import annotations

import json

import pytest

from paintkit.layout import LayoutError
from paintkit.layout.readers import POLICIES, REPAIR, SKIP, STRICT, read_jsonl

GOOD = [{"model": "m", "idx": k} for k in range(3)]
DEEP = "[" * 100000 + "]" * 100000


def _write(path, lines: list[bytes], newline_at_end: bool = True) -> None:
    path.write_bytes(b"\n".join(lines) + (b"\n" if newline_at_end else b""))


def _damaged_file(path):
    """Lines: 1 good, 2 not JSON, 3 blank, 4 not UTF-8, 5 good, 6 too deep, 7 good."""
    lines = [json.dumps(GOOD[0]).encode(), b'{"model": ', b"", b'{"model": "\xff"}',
             json.dumps(GOOD[1]).encode(), DEEP.encode(), json.dumps(GOOD[2]).encode()]
    _write(path, lines)
    return path


def test_policies_are_named():
    assert POLICIES == ("strict", "skip", "repair")
    with pytest.raises(ValueError, match="policy: expected one of strict, skip, repair"):
        read_jsonl("x", "forgiving")


def test_strict_raises_on_the_first_damaged_line_naming_it(tmp_path):
    path = _damaged_file(tmp_path / "rows.jsonl")
    with pytest.raises(LayoutError, match=rf"^{path}:2: not JSON \("):
        read_jsonl(path, STRICT)
    _write(path, [json.dumps(GOOD[0]).encode(), b'{"a": "\xff"}'])
    with pytest.raises(LayoutError, match=rf"^{path}:2: not UTF-8 text \(byte 8\)$"):
        read_jsonl(path, STRICT)
    _write(path, [json.dumps(GOOD[0]).encode(), DEEP.encode()])
    with pytest.raises(LayoutError, match=rf"^{path}:2: not JSON \(nested too deeply to read\)$"):
        read_jsonl(path, STRICT)


def test_strict_uses_the_callers_error_and_check(tmp_path):
    class MyError(ValueError):
        pass

    path = tmp_path / "rows.jsonl"
    _write(path, [json.dumps(GOOD[0]).encode(), b"[1, 2]"])

    def must_be_object(value, where):
        if not isinstance(value, dict):
            raise ValueError("expected a JSON object")

    with pytest.raises(MyError, match=rf"^{path}:2: expected a JSON object$"):
        read_jsonl(path, STRICT, must_be_object, error=MyError)
    assert [row for _, row in read_jsonl(path, SKIP).rows] == [GOOD[0], [1, 2]]


def test_skip_lists_every_damaged_line_and_keeps_the_rest(tmp_path):
    path = _damaged_file(tmp_path / "rows.jsonl")
    read = read_jsonl(path, SKIP)
    assert [row for _, row in read.rows] == GOOD
    assert [n for n, _ in read.rows] == [1, 5, 7]
    assert [d.short() for d in read.damaged] == [
        "line 2: not JSON", "line 4: not UTF-8 text", "line 6: not JSON"]
    assert read.damaged[2].located(path) == f"{path}:6: not JSON (nested too deeply to read)"


def test_skip_keeps_a_last_line_without_newline_repair_drops_it(tmp_path):
    path = tmp_path / "rows.jsonl"
    _write(path, [json.dumps(r).encode() for r in GOOD], newline_at_end=False)
    assert [row for _, row in read_jsonl(path, SKIP).rows] == GOOD
    repaired = read_jsonl(path, REPAIR)
    assert [row for _, row in repaired.rows] == GOOD[:2]
    assert [d.short() for d in repaired.damaged] == ["line 3: partial last line"]
    # a complete last line (newline written) is a row under every policy
    _write(path, [json.dumps(r).encode() for r in GOOD])
    for policy in POLICIES:
        assert [row for _, row in read_jsonl(path, policy).rows] == GOOD


def test_lines_end_at_newline_only(tmp_path):
    path = tmp_path / "rows.jsonl"
    row = {"text": "a\u2028b\x0cc\u0085d"}
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    assert [r for _, r in read_jsonl(path, STRICT).rows] == [row]


def test_an_unreadable_file_is_one_clear_error(tmp_path):
    with pytest.raises(LayoutError, match="missing.jsonl: cannot read"):
        read_jsonl(tmp_path / "missing.jsonl", SKIP)
