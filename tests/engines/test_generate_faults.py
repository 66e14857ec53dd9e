"""``paintkit generate`` under faults: locks, hostile names, read-only and full folders,
permissions, and workers that must die with a SIGKILLed parent (issue 10, items 6, 11-15)."""

import errno
import json
import os
import stat
import sys
from pathlib import Path

import pytest

import paintkit.io.folder_lock as folder_lock
import paintkit.writers.manifest as manifest_module
from paintkit.cli.main import main
from paintkit.engines import write_suite
from paintkit.io.folder_lock import FolderBusyError, FolderLock
from paintkit.writers import WriteError
from paintkit.writers.directory import DirectoryWriter
from paintkit.writers.manifest import LOCK_NAME, MANIFEST_NAME
from tests.support.generate_helpers import kill_parent_and_check_workers, small_suite

SUITE = small_suite(tasks=("translation",), conditions=("baseline",), per_cell=2,
                    preservation=False)  # 2 problems


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


def test_overwrite_deletes_nothing_before_the_lock(tmp_path):
    write_suite(SUITE, tmp_path, engine="inprocess", progress=False)
    before = _files(tmp_path)
    other = small_suite(tasks=("translation",), conditions=("baseline",), per_cell=1,
                        preservation=False, namespace="another")
    with FolderLock(tmp_path, LOCK_NAME, "paintkit generate"), \
            pytest.raises(FolderBusyError, match="another 'paintkit generate'"):
        write_suite(other, tmp_path, engine="inprocess", progress=False, overwrite=True)
    assert _files(tmp_path) - {LOCK_NAME} == before - {LOCK_NAME}  # the other suite's files are intact


def test_files_deleted_during_the_run_leave_the_manifest_incomplete(tmp_path, monkeypatch):
    real_close = DirectoryWriter.close

    def close_after_someone_deleted_a_file(self):
        os.unlink(self.root / "PaintBench" / "translation" / "000_answer.png")
        return real_close(self)

    monkeypatch.setattr(DirectoryWriter, "close", close_after_someone_deleted_a_file)
    with pytest.raises(WriteError, match="1 problem.* disappeared during the run"):
        write_suite(SUITE, tmp_path, engine="inprocess", progress=False)
    assert json.loads((tmp_path / MANIFEST_NAME).read_text())["complete"] is False


@pytest.mark.parametrize("name", ["..", ".", "", "a/b", "../escape", ".hidden"])
def test_benchmark_names_that_leave_out_are_refused(tmp_path, name):
    # Suite refuses some of these itself, the directory writer the rest: either way a
    # ValueError naming the benchmark, and nothing written anywhere.
    with pytest.raises(ValueError, match="benchmark"):
        suite = small_suite(tasks=("translation",), conditions=("baseline",), per_cell=1,
                            preservation=False, benchmark=name)
        write_suite(suite, tmp_path / "out", engine="inprocess", progress=False)
    assert _files(tmp_path) == set()


def test_cli_refuses_dot_dot_benchmark(tmp_path, capsys):
    code = main(["generate", "paintbench", "--out", str(tmp_path / "out"), "--benchmark", "..",
                 "--tasks", "translation", "--conditions", "baseline", "--per-cell", "1",
                 "--no-preservation", "--jobs", "1", "--quiet"])
    assert code == 2 and "benchmark name '..'" in capsys.readouterr().err
    assert not (tmp_path / "translation").exists()


def test_read_only_out_is_one_clear_line(tmp_path, monkeypatch, capsys):
    real_open = open

    def read_only(path, *args, **kwargs):
        if str(path).endswith(LOCK_NAME):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(folder_lock, "open", read_only, raising=False)
    code = main(["generate", "paintbench", "--out", str(tmp_path), "--tasks", "translation",
                 "--conditions", "baseline", "--per-cell", "1", "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert err.strip().splitlines() == [
        f"paintkit generate: error: {tmp_path}: cannot write into this folder "
        "(Read-only file system); choose a writable folder"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_out_for_real(tmp_path, capsys):
    tmp_path.chmod(0o555)
    try:
        code = main(["generate", "paintbench", "--out", str(tmp_path), "--tasks", "translation",
                     "--conditions", "baseline", "--per-cell", "1", "--jobs", "1", "--quiet"])
    finally:
        tmp_path.chmod(0o755)
    assert code == 1 and str(tmp_path) in capsys.readouterr().err


class _FullDisk:
    """A file whose writes and final flush fail with ENOSPC (the manifest's last write)."""

    def __init__(self, fh):
        self._fh = fh
        self.failed = False

    def write(self, text):
        if '"totals"' in text:
            raise OSError(errno.ENOSPC, "No space left on device")
        return self._fh.write(text)

    def close(self):
        self._fh.close()
        if not self.failed:
            self.failed = True
            raise OSError(errno.ENOSPC, "No space left on device")


def test_full_disk_while_writing_the_manifest(tmp_path, monkeypatch):
    real_open = open

    def opener(path, *args, **kwargs):
        fh = real_open(path, *args, **kwargs)
        return _FullDisk(fh) if ".manifest.json." in str(path) else fh

    monkeypatch.setattr(manifest_module, "open", opener, raising=False)
    with pytest.raises(WriteError, match=r"manifest\.json: cannot write: No space left"):
        write_suite(SUITE, tmp_path, engine="inprocess", progress=False)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []
    assert json.loads((tmp_path / MANIFEST_NAME).read_text())["complete"] is False


@pytest.mark.parametrize("option", ["--tasks", "--conditions", "--modes"])
def test_empty_name_lists_are_errors(tmp_path, option, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["generate", "paintbench", "--out", str(tmp_path / "o"), option, ""])
    assert exit_info.value.code == 2
    assert "expected a comma-separated list" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_files_follow_the_umask(tmp_path, umask, mode, monkeypatch):
    import paintkit.io.atomic as atomic

    old = os.umask(umask)
    atomic._umask.cache_clear()
    try:
        write_suite(SUITE, tmp_path, engine="inprocess", progress=False)
    finally:
        os.umask(old)
        atomic._umask.cache_clear()
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.rglob("*") if p.is_file()}
    assert modes and set(modes.values()) == {mode}, modes


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_generate_workers_die_with_their_parent(tmp_path):
    out = tmp_path / "out"
    command = [sys.executable, "-m", "paintkit.cli.main", "generate", "paintbench", "--out",
               str(out), "--tasks", "translation,removal", "--per-cell", "4", "--jobs", "2",
               "--quiet"]
    kill_parent_and_check_workers(
        command, lambda: any((out / "PaintBench").rglob("*.json")) if out.is_dir() else False)
