"""``manifest.json``: what an output folder holds, so a rerun can resume it safely.

Written first with ``"complete": false`` (the suite, the layout, the paintkit version and
the PNG encoder, and the file records an earlier run left), then replaced atomically at the
end by the complete manifest, which adds every file with its size and SHA-256 in suite
order, and the totals. It holds nothing about the run itself (engine, workers, time), so
two runs of the same suite write the same manifest. A run that stops on an error or a
signal leaves an incomplete manifest listing the files it recorded, which the next run
checks before keeping them (:mod:`paintkit.writers.resume`). A folder whose manifest names
another suite, layout or paintkit version is
refused unless ``overwrite``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from paintkit._version import __version__
from paintkit.io.atomic import write_text_atomic
from paintkit.io.jsonl import parse_json
from paintkit.io.png_encode import encoder_info
from paintkit.suites import ProblemSuite
from paintkit.writers.base import TempFile, Writer, is_temporary, write_error
from paintkit.writers.previous import remove_previous_local
from paintkit.writers.record import FileRecord

MANIFEST_NAME = "manifest.json"
LOCK_NAME = ".paintkit-generate.lock"
#: Manifest fields that must match for a run to resume a folder.
COMPATIBLE_KEYS = ("paintkit_version", "layout", "suite")


def manifest_header(suite: ProblemSuite, writer: Writer, png_encoder: str = "auto") -> dict:
    return {"paintkit_version": __version__, "layout": writer.options(), "suite": suite.to_dict(),
            "png": encoder_info(png_encoder)}


def read_manifest(root: Path | str) -> dict | None:
    """The manifest of ``root`` or None; ``ValueError`` naming the file if it is unreadable."""
    path = Path(root) / MANIFEST_NAME
    if not path.exists():
        return None
    try:
        data = parse_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: unreadable manifest ({exc}); fix or remove it, "
                         "or use --overwrite") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a paintkit manifest (expected a JSON object)")
    return data


def _differences(old, new, prefix: str = "") -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in dict.fromkeys([*old, *new]):
            out += _differences(old.get(key), new.get(key), f"{prefix}{key}.")
        return out
    return [] if old == new else [f"{prefix[:-1]}: {json.dumps(old)} in the folder, {json.dumps(new)} now"]


def remove_previous(root: Path, manifest: dict) -> None:
    """Delete what the run described by ``manifest`` wrote under ``root`` (``--overwrite``):
    the files it lists, never through a link (:mod:`paintkit.writers.previous`)."""
    remove_previous_local(root, manifest)
    (root / MANIFEST_NAME).unlink(missing_ok=True)


def prepare_root(root: Path, header: dict, overwrite: bool) -> str:
    """Check ``root`` before a run: ``"fresh"``, ``"resume"`` or ``"overwrite"``.

    Raises ``ValueError`` when ``root`` holds another suite's files (or files without a
    manifest) and ``overwrite`` is false.
    """
    if root.exists() and not root.is_dir():
        raise ValueError(f"{root}: exists and is not a folder")
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise write_error(root, exc) from exc
    manifest = read_manifest(root)
    if manifest is None:
        foreign = sorted(n for n in os.listdir(root) if not is_temporary(n) and n != LOCK_NAME)
        if foreign and not overwrite:
            raise ValueError(f"{root}: not empty and has no {MANIFEST_NAME} (holds "
                             f"{', '.join(foreign[:5])}{' ...' if len(foreign) > 5 else ''}); "
                             "use an empty folder, or --overwrite to write over it")
        return "overwrite" if foreign else "fresh"
    diffs = _differences({k: manifest.get(k) for k in COMPATIBLE_KEYS},
                         {k: header[k] for k in COMPATIBLE_KEYS})
    if not diffs:
        return "overwrite" if overwrite else "resume"
    if not overwrite:
        raise ValueError(f"{root}: holds another suite's files ({root / MANIFEST_NAME} differs: "
                         f"{'; '.join(diffs[:4])}); use another folder, or --overwrite to replace them")
    remove_previous(root, manifest)
    return "overwrite"


def write_incomplete(root: Path, header: dict, files: dict | None = None) -> None:
    """The manifest written at the start of a run: ``"complete": false`` and the records of
    the files an earlier run left (``files``, still to be checked), so a run killed outright
    keeps them for the next resume."""
    manifest = {**header, "complete": False}
    if files:
        manifest["files"] = files
    try:
        write_text_atomic(root / MANIFEST_NAME, json.dumps(manifest, indent=1) + "\n")
    except OSError as exc:
        raise write_error(root / MANIFEST_NAME, exc) from exc


class ManifestBuilder:
    """Streams file records into the final manifest (a temporary file until :meth:`commit`),
    so a run of any size keeps no per-file state in memory."""

    def __init__(self, root: Path, header: dict):
        self._file = TempFile(root / MANIFEST_NAME)
        head = json.dumps({**header, "complete": True}, indent=1)
        self._fh = open(self._file.path, "w", encoding="utf-8")  # noqa: SIM115 - closed in commit/discard
        self._fh.write(head[:-2] + ',\n "files": {')
        self.files = 0
        self.nbytes = 0

    def add(self, records: list[FileRecord]) -> None:
        try:
            for record in records:
                sep = "\n" if self.files == 0 else ",\n"
                entry = {"bytes": record.nbytes, "sha256": record.sha256}
                self._fh.write(f"{sep}  {json.dumps(record.path)}: {json.dumps(entry)}")
                self.files += 1
                self.nbytes += record.nbytes
        except OSError as exc:
            raise write_error(self._file.final, exc) from exc

    def commit(self) -> None:
        totals = json.dumps({"files": self.files, "bytes": self.nbytes})
        try:
            self._fh.write(f"\n }},\n \"totals\": {totals}\n}}\n")
            self._fh.close()
        except OSError as exc:
            raise write_error(self._file.final, exc) from exc
        self._file.commit()

    def commit_incomplete(self, unreached: dict[str, dict]) -> None:
        """Replace the manifest by an incomplete one listing the files recorded so far and
        ``unreached`` (earlier records this run did not get to), so a rerun checks them all.
        Never raises (the run is stopping on another error); on failure the manifest
        written at the start stays."""
        try:
            self._fh.write("\n }\n}\n")
            self._fh.close()
            with open(self._file.path, encoding="utf-8") as fh:
                manifest = json.load(fh)
            manifest["complete"] = False
            manifest["files"] = {**unreached, **manifest["files"]}
            write_text_atomic(self._file.final, json.dumps(manifest, indent=1) + "\n")
        except (OSError, ValueError):
            pass
        self.discard()

    def discard(self) -> None:
        """Drop the temporary manifest. Never raises: it runs while another error (often a
        full disk, which also fails the final flush here) is on its way to the user."""
        try:
            self._fh.close()
        except OSError:
            pass
        self._file.discard()
