"""A resumed ``generate`` keeps only files that match the manifest it wrote (issue 38, item 1):
a truncated or edited shard or image is generated again, and the manifest records the good
bytes, never the damaged ones."""

import json
import os

import pytest

from paintkit.engines import write_suite
from paintkit.writers.directory import DirectoryWriter
from paintkit.writers.manifest import MANIFEST_NAME
from tests.support.generate_helpers import small_suite, tree_digest

SUITE = small_suite(tasks=("translation",), conditions=("baseline",), per_cell=3,
                    preservation=False)  # 3 problems


def _run(out, **kwargs):
    return write_suite(SUITE, out, engine="inprocess", progress=False, **kwargs)


def _manifest(out) -> dict:
    return json.loads((out / MANIFEST_NAME).read_text())


@pytest.mark.parametrize(("fmt", "victim", "damage"), [
    ("webdataset", "shard-000000.tar", "truncate"),
    ("webdataset", "shard-000001.tar", "flip"),
    ("directory", "PaintBench/translation/000_input.png", "truncate"),
    ("directory", "PaintBench/translation/002.json", "flip"),
    ("flow-grpo", "images/translation/001_answer.png", "truncate"),
])
def test_a_damaged_file_is_regenerated_on_resume(tmp_path, fmt, victim, damage):
    kwargs = {"format": fmt, "shard_size": 2} if fmt == "webdataset" else {"format": fmt}
    _run(tmp_path, **kwargs)
    good = tree_digest(tmp_path)
    good_manifest = _manifest(tmp_path)
    path = tmp_path / victim
    if damage == "truncate":
        os.truncate(path, 1000)
    else:  # same size, one byte changed
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
    summary = _run(tmp_path, **kwargs)
    assert summary.generated >= 1 and [p for p, _ in summary.damaged] == [victim]
    assert "regenerated damaged " + victim in summary.describe()
    assert tree_digest(tmp_path) == good  # the same bytes as the first run
    assert _manifest(tmp_path) == good_manifest
    again = _run(tmp_path, **kwargs)
    assert (again.generated, again.damaged) == (0, ())


def test_an_interrupted_resume_keeps_the_records_it_did_not_reach(tmp_path, monkeypatch):
    _run(tmp_path)
    records = _manifest(tmp_path)["files"]
    real_write = DirectoryWriter.write

    def stop_after_the_first(self, problem):
        if problem.index >= 1:
            raise KeyboardInterrupt
        return real_write(self, problem)

    (tmp_path / "PaintBench/translation/000_answer.png").write_bytes(b"not the answer")
    (tmp_path / "PaintBench/translation/002_input.png").write_bytes(b"not the input")
    monkeypatch.setattr(DirectoryWriter, "write", stop_after_the_first)
    with pytest.raises(KeyboardInterrupt):
        _run(tmp_path)
    left = _manifest(tmp_path)
    assert left["complete"] is False
    assert left["files"] == records  # problem 0 rewritten as recorded; 1 and 2 not reached
    monkeypatch.setattr(DirectoryWriter, "write", real_write)
    summary = _run(tmp_path)
    assert [p for p, _ in summary.damaged] == ["PaintBench/translation/002_input.png"]
    assert _manifest(tmp_path)["files"] == records


def test_a_run_killed_outright_leaves_the_earlier_records(tmp_path, monkeypatch):
    _run(tmp_path)
    records = _manifest(tmp_path)["files"]

    def killed(self, problem):
        raise SystemExit(137)

    (tmp_path / "PaintBench/translation/001.json").write_bytes(b"{}")
    monkeypatch.setattr(DirectoryWriter, "write", killed)
    # SIGKILL runs no handler: only the manifest written at the start is left.
    monkeypatch.setattr("paintkit.writers.manifest.ManifestBuilder.commit_incomplete",
                        lambda self, unreached: self.discard())
    with pytest.raises(SystemExit):
        _run(tmp_path)
    left = _manifest(tmp_path)
    assert left["complete"] is False and left["files"] == records
