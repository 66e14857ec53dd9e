"""Helpers shared by the writer, engine, eval and stream tests: a small suite, a tree
digest, and a check that worker processes die with their SIGKILLed parent."""

import hashlib
import os
import signal
import subprocess
import time
from pathlib import Path

from paintkit.suites import Suite


def small_suite(**kwargs) -> Suite:
    """translation + removal (+ preservation) under 2 conditions, 2 per cell: 12 problems."""
    return Suite(**{"tasks": ("translation", "removal"), "conditions": ("baseline", "horizontal"),
                    "per_cell": 2, "namespace": "writers", **kwargs})


def tree_digest(root: Path) -> dict[str, str]:
    """SHA-256 of every file under ``root`` by relative path (hidden files included)."""
    out = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            path = Path(dirpath) / name
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as fh:
                    ppid = int(fh.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def kill_tree(pid: int) -> None:
    """SIGKILL ``pid`` and every process below it (what a test leaves behind)."""
    for each in [pid, *_descendants(pid)]:
        try:
            os.kill(each, signal.SIGKILL)
        except ProcessLookupError:
            pass


def kill_parent_and_check_workers(command: list[str], started) -> None:
    """Start ``command``, wait until ``started()`` and two workers exist, SIGKILL only the
    parent, and require every descendant to be gone within 10 s."""
    proc = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        workers: set[int] = set()
        while time.monotonic() < deadline and proc.poll() is None:
            workers = _descendants(proc.pid)
            if started() and len(workers) >= 2:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the run finished before it could be killed"
        assert len(workers) >= 2, "no worker processes seen"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.1)
        left = [w for w in workers if _alive(w)]
        assert not left, f"workers outlived their parent: {left}"
    finally:
        kill_tree(proc.pid)
