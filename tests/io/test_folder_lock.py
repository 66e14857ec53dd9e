"""The folder lock (paintkit/io/folder_lock.py) is held by one run at a time, even when a
run is delayed between opening the lock file and locking it (issue 23, item 6)."""

import fcntl
import types

import pytest

from paintkit.io import folder_lock
from paintkit.io.folder_lock import FolderBusyError, FolderLock

NAME = ".paintkit-test.lock"


def test_a_run_delayed_between_open_and_flock_cannot_share_the_lock(tmp_path, monkeypatch):
    first = FolderLock(tmp_path, NAME, "paintkit test")
    others = []

    def delayed_flock(fh, flags):
        # While the late run sits between open() and flock(): the first run finishes and a
        # third run starts and takes the lock.
        monkeypatch.setattr(folder_lock, "fcntl", fcntl)
        first.release()
        others.append(FolderLock(tmp_path, NAME, "paintkit test"))
        return fcntl.flock(fh, flags)

    monkeypatch.setattr(folder_lock, "fcntl", types.SimpleNamespace(
        flock=delayed_flock, LOCK_EX=fcntl.LOCK_EX, LOCK_NB=fcntl.LOCK_NB))
    with pytest.raises(FolderBusyError, match="another 'paintkit test'"):
        FolderLock(tmp_path, NAME, "paintkit test")  # the late run
    assert len(others) == 1  # the third run holds it, alone
    others[0].release()


def test_lock_file_stays_and_is_reused(tmp_path):
    with FolderLock(tmp_path, NAME, "paintkit test"):
        inode = (tmp_path / NAME).stat().st_ino
    assert (tmp_path / NAME).stat().st_size == 0
    with FolderLock(tmp_path, NAME, "paintkit test"):
        assert (tmp_path / NAME).stat().st_ino == inode
    with FolderLock(tmp_path, NAME, "paintkit test"), pytest.raises(FolderBusyError):
        FolderLock(tmp_path, NAME, "paintkit test")
