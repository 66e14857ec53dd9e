"""What ``paintkit run`` writes beside the outputs of a model (docs/run.md#files).

``<outputs>/<model>/run_manifest.json``: one entry per run (model id and revision, every
setting, the seed, package versions, start and end, counts, the failures with their
reasons, the provider's usage totals), rewritten atomically at the start and the end of a
run. ``<outputs>/<model>/run_log.jsonl``: one line per problem attempted (status, reason,
latency, attempts, usage), appended as outputs land; a line cut short by a kill is skipped
when read.

A manifest that cannot be read (cut short, edited, nested too deeply) is never overwritten:
it is renamed ``run_manifest.json.damaged-<UTC time>`` beside it, one line on stderr says so,
and the run starts a new history. Either file being anything but a regular file (a FIFO, a
socket, a folder) stops the run with one line instead of blocking on it.
"""

from __future__ import annotations

import errno
import json
import os
import platform
import stat
import sys
import time
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any, TextIO

from paintkit.io.atomic import write_text_atomic
from paintkit.io.images import read_regular_file
from paintkit.io.jsonl import parse_json
from paintkit.io.redact import Redactor
from paintkit.layout.outputs import RUN_LOG_NAME as LOG_NAME
from paintkit.layout.outputs import RUN_MANIFEST_NAME as MANIFEST_NAME

_PACKAGES = ("paintkit", "numpy", "pillow", "torch", "diffusers", "transformers",
             "accelerate", "openai", "google-genai", "ray")


def package_versions() -> dict[str, str]:
    """Installed versions of the packages a run may use (absent ones left out)."""
    found = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return found


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class RunFileError(ValueError):
    """A record file of the run is not a regular file (a FIFO, socket or folder)."""


def _kind(mode: int) -> str:
    return ("a FIFO" if stat.S_ISFIFO(mode) else "a folder" if stat.S_ISDIR(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device")


def _refuse_special(path: Path) -> None:
    """Raise :class:`RunFileError` when ``path`` exists and is not a regular file."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise RunFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise RunFileError(f"{path}: not a regular file ({_kind(mode)}); paintkit run keeps "
                           "its records in regular files: remove it and run again")


def load_manifest(model_dir: Path) -> tuple[dict, str | None]:
    """``(manifest, problem)``: the manifest of ``model_dir`` (``{"runs": []}`` when absent
    or damaged) and, when damaged, why (one line). Raises :class:`RunFileError` for a FIFO,
    socket or folder in its place (without ever blocking on it)."""
    path = Path(model_dir) / MANIFEST_NAME
    _refuse_special(path)
    if not path.exists():
        return {"runs": []}, None
    try:
        data = parse_json(read_regular_file(path))
    except ValueError as exc:
        if not path.exists():
            return {"runs": []}, None
        _refuse_special(path)
        return {"runs": []}, f"not JSON ({str(exc).removeprefix(f'{path}: ')})"
    if not isinstance(data, dict) or not isinstance(data.get("runs"), list):
        return {"runs": []}, "not a run manifest (expected an object with a list of runs)"
    return data, None


def read_manifest(model_dir: Path) -> dict:
    """The manifest of ``model_dir`` (``{"runs": []}`` when absent or unreadable)."""
    try:
        return load_manifest(model_dir)[0]
    except RunFileError:
        return {"runs": []}


def keep_aside(path: Path) -> Path:
    """Rename the damaged ``path`` to ``<name>.damaged-<UTC time>`` (a free name); returns it."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    for n in range(1000):
        aside = path.with_name(f"{path.name}.damaged-{stamp}" + (f"-{n}" if n else ""))
        if not os.path.lexists(aside):
            os.rename(path, aside)
            return aside
    raise OSError(errno.EEXIST, "no free name to keep the damaged file aside", str(path))


def _open_log(path: Path) -> TextIO:
    """``path`` opened to append, refusing (never blocking on) a FIFO or other special file."""
    _refuse_special(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        if exc.errno in (errno.ENXIO, errno.EISDIR):  # a FIFO without a reader, a folder
            _refuse_special(path)
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise RunFileError(f"{path}: not a regular file ({_kind(mode)}); paintkit run "
                               "keeps its records in regular files: remove it and run again")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "a", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


class RunRecords:
    """The manifest entry of this run and the log it appends to (held under the lock).

    Every string recorded passes through ``redactor`` (:mod:`paintkit.io.redact`): no
    URL credential and no known key reaches the files.
    """

    def __init__(self, model_dir: Path, entry: dict, redactor: Redactor | None = None) -> None:
        self.model_dir = Path(model_dir)
        self.redact = redactor or Redactor()
        path = self.model_dir / MANIFEST_NAME
        self.manifest, problem = load_manifest(self.model_dir)
        log = _open_log(self.model_dir / LOG_NAME)  # refuses a FIFO before anything changes
        if problem is not None:
            try:
                aside = keep_aside(path)
            except BaseException:
                log.close()
                raise
            print(f"paintkit run: {path}: damaged ({problem}); kept aside as {aside.name}, "
                  "this run starts a new history", file=sys.stderr)
        self.entry = self.redact.value({"started": utc_now(), "ended": None,
                                        "command": sys.argv[:],
                                        "packages": package_versions(), **entry})
        self.manifest["runs"].append(self.entry)
        self._log = log
        self.save()

    def log(self, record: dict) -> dict:
        """Append one problem's line and flush it (so a killed run keeps what it logged);
        returns the record as written (redacted)."""
        record = self.redact.value(record)
        self._log.write(json.dumps({"run": len(self.manifest["runs"]) - 1, **record},
                                   sort_keys=True) + "\n")
        self._log.flush()
        return record

    def save(self) -> None:
        self.manifest["runs"][-1] = self.entry = self.redact.value(self.entry)
        write_text_atomic(self.model_dir / MANIFEST_NAME,
                          json.dumps(self.manifest, indent=2, sort_keys=True) + "\n")

    def finish(self, **fields: Any) -> None:
        self.entry.update(fields, ended=utc_now())
        self.save()
        self._log.close()


def read_log(model_dir: Path) -> list[dict]:
    """Every complete line of ``run_log.jsonl`` (a line cut short by a kill is skipped)."""
    rows: list[dict] = []
    try:
        text = (Path(model_dir) / LOG_NAME).read_text(encoding="utf-8")
    except OSError:
        return rows
    for line in text.splitlines():
        try:
            row = parse_json(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows


def remove_stale_temporaries(model_dir: Path) -> int:
    """Delete temporary files (``.<name>.<random>.tmp``) a killed run left under
    ``model_dir``; call only while holding the run lock. Returns how many went."""
    removed = 0
    for folder, _dirs, files in os.walk(model_dir):
        for name in files:
            if name.startswith(".") and name.endswith(".tmp"):
                try:
                    os.unlink(os.path.join(folder, name))
                    removed += 1
                except OSError:
                    pass
    return removed


def monotonic() -> float:
    return time.perf_counter()
