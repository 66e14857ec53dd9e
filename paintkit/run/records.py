"""What ``paintkit run`` writes beside the outputs of a model (docs/run.md#files).

``<outputs>/<model>/run_manifest.json``: one entry per run (model id and revision, every
setting, the seed, package versions, start and end, counts, the failures with their
reasons, the provider's usage totals), rewritten atomically at the start and the end of a
run. ``<outputs>/<model>/run_log.jsonl``: one line per problem attempted (status, reason,
latency, attempts, usage), appended as outputs land; a line cut short by a kill is skipped
when read.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

from paintkit.io.atomic import write_text_atomic
from paintkit.layout.outputs import RUN_LOG_NAME as LOG_NAME
from paintkit.layout.outputs import RUN_MANIFEST_NAME as MANIFEST_NAME
from paintkit.run.redact import Redactor

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


def read_manifest(model_dir: Path) -> dict:
    """The manifest of ``model_dir`` (``{"runs": []}`` when absent or unreadable)."""
    try:
        data = json.loads((Path(model_dir) / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"runs": []}
    return data if isinstance(data, dict) and isinstance(data.get("runs"), list) \
        else {"runs": []}


class RunRecords:
    """The manifest entry of this run and the log it appends to (held under the lock).

    Every string recorded passes through ``redactor`` (:mod:`paintkit.run.redact`): no
    URL credential and no known key reaches the files.
    """

    def __init__(self, model_dir: Path, entry: dict, redactor: Redactor | None = None):
        self.model_dir = Path(model_dir)
        self.redact = redactor or Redactor()
        self.manifest = read_manifest(self.model_dir)
        self.entry = self.redact.value({"started": utc_now(), "ended": None,
                                        "command": sys.argv[:],
                                        "packages": package_versions(), **entry})
        self.manifest["runs"].append(self.entry)
        self._log = open(self.model_dir / LOG_NAME, "a", encoding="utf-8")  # noqa: SIM115
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

    def finish(self, **fields) -> None:
        self.entry.update(fields, ended=utc_now())
        self.save()
        self._log.close()


def read_log(model_dir: Path) -> list[dict]:
    """Every complete line of ``run_log.jsonl`` (a line cut short by a kill is skipped)."""
    rows = []
    try:
        text = (Path(model_dir) / LOG_NAME).read_text(encoding="utf-8")
    except OSError:
        return rows
    for line in text.splitlines():
        try:
            row = json.loads(line)
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
