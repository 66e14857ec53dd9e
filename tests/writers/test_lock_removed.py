"""``paintkit generate`` leaves no lock file in a finished corpus folder: the holder deletes
it on release while still holding it, and a run that opened the old file meanwhile notices
it is no longer the path's file, so the lock is never held twice."""

from __future__ import annotations

import fcntl
import types

import pytest

from paintkit.io import folder_lock
from paintkit.io.folder_lock import FolderBusyError, FolderLock
from paintkit.writers.manifest import LOCK_NAME

NAME = ".paintkit-test.lock"


def test_a_removing_lock_leaves_no_file_and_is_still_exclusive(tmp_path):
    with FolderLock(tmp_path, NAME, "paintkit test", remove=True):
        assert (tmp_path / NAME).is_file()
        with pytest.raises(FolderBusyError):
            FolderLock(tmp_path, NAME, "paintkit test", remove=True)
    assert not (tmp_path / NAME).exists()


def test_a_run_delayed_over_the_removal_cannot_share_the_lock(tmp_path, monkeypatch):
    first = FolderLock(tmp_path, NAME, "paintkit test", remove=True)
    others = []

    def delayed_flock(fh, flags):
        # While the late run sits between open() and flock(): the first run finishes (and
        # deletes the file it locked) and a third run creates a new file and locks it.
        monkeypatch.setattr(folder_lock, "fcntl", fcntl)
        first.release()
        others.append(FolderLock(tmp_path, NAME, "paintkit test", remove=True))
        return fcntl.flock(fh, flags)

    monkeypatch.setattr(folder_lock, "fcntl", types.SimpleNamespace(
        flock=delayed_flock, LOCK_EX=fcntl.LOCK_EX, LOCK_NB=fcntl.LOCK_NB))
    with pytest.raises(FolderBusyError, match="another 'paintkit test'"):
        FolderLock(tmp_path, NAME, "paintkit test", remove=True)  # the late run
    assert len(others) == 1  # the third run holds it, alone
    others[0].release()
    assert not (tmp_path / NAME).exists()


def test_a_finished_generate_leaves_no_lock_file(tmp_path):
    from paintkit.engines import write_suite
    from tests.support.generate_helpers import small_suite

    for fmt in ("directory", "webdataset"):
        write_suite(small_suite(per_cell=1), tmp_path / fmt, format=fmt, engine="inprocess",
                    progress=False)
        assert not (tmp_path / fmt / LOCK_NAME).exists()
