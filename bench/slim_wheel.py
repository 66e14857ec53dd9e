"""A wheel rebuilt without the folders a use never imports: ``python -m bench.slim_wheel``.

    python -m bench.slim_wheel SOURCE.whl OUT_DIR --drop ray/jars --drop ray/rllib --strip

writes ``OUT_DIR/<the same file name>``: every member of ``SOURCE.whl`` in its order, with
its date and permissions, except those under a ``--drop`` folder; with ``--strip``, each ELF
file (extension modules, executables) through ``strip --strip-unneeded`` (the dynamic
symbols they link by stay); and a new ``<name>.dist-info/RECORD`` (sha256 and size of each
member kept), so that pip installs it as a valid wheel of the same name and version. The
same source and ``strip`` give the same bytes. ``bench/device_ray_wheels.sh`` slims Ray's
wheel with it for a device call.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ELF_MAGIC = b"\x7fELF"


def record_line(name: str, data: bytes) -> str:
    """One RECORD row: ``name,sha256=<urlsafe base64, unpadded>,size``."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def strip_elf(data: bytes, strip: str) -> bytes:
    """``data`` (an ELF file's bytes) through ``strip --strip-unneeded``."""
    with tempfile.TemporaryDirectory(prefix="slim-wheel-") as folder:
        path = Path(folder) / "member"
        path.write_bytes(data)
        subprocess.run([strip, "--strip-unneeded", str(path)], check=True)
        return path.read_bytes()


def _record_name(names: list[str]) -> str:
    records = [n for n in names if n.count("/") == 1 and n.endswith(".dist-info/RECORD")]
    if len(records) != 1:
        raise ValueError(f"not a wheel: {len(records)} top-level .dist-info/RECORD files")
    return records[0]


def slim(source: Path, out_dir: Path, drop: list[str], strip: str | None = None) -> dict:
    """Write ``out_dir / source.name`` without the members under each ``drop`` folder (a
    path inside the wheel, e.g. ``ray/jars``), ELF members stripped when ``strip`` (the
    ``strip`` program's path) is given. Returns the sizes: ``{"source_bytes", "slim_bytes",
    "dropped": {folder: members}, "stripped": [names]}``. A ``drop`` folder with no member
    is an error (the wheel is not the one these folders were chosen for)."""
    prefixes = {folder.strip("/"): 0 for folder in drop}
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / source.name
    if target.resolve() == source.resolve():
        raise ValueError(f"{target} is the source wheel: write the slim one elsewhere")
    stripped: list[str] = []
    with zipfile.ZipFile(source) as wheel:
        members = wheel.infolist()
        record = _record_name([m.filename for m in members])
        rows = []
        with tempfile.NamedTemporaryFile(dir=out_dir, suffix=".part", delete=False) as part:
            part_path = Path(part.name)
        try:
            with zipfile.ZipFile(part_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
                for member in members:
                    name = member.filename
                    hit = next((p for p in prefixes if name == p or name.startswith(p + "/")),
                               None)
                    if hit is not None:
                        prefixes[hit] += 1
                        continue
                    if name == record or member.is_dir():
                        continue
                    data = wheel.read(member)
                    if strip and data[:4] == ELF_MAGIC:
                        data = strip_elf(data, strip)
                        stripped.append(name)
                    info = zipfile.ZipInfo(name, date_time=member.date_time)
                    info.external_attr = member.external_attr
                    info.compress_type = zipfile.ZIP_DEFLATED
                    out.writestr(info, data)
                    rows.append(record_line(name, data))
                rows.append(f"{record},,")
                info = zipfile.ZipInfo(record, date_time=wheel.getinfo(record).date_time)
                info.external_attr = wheel.getinfo(record).external_attr
                info.compress_type = zipfile.ZIP_DEFLATED
                out.writestr(info, "\n".join(rows) + "\n")
            missing = sorted(p for p, n in prefixes.items() if not n)
            if missing:
                raise ValueError(f"no member of {source.name} under {missing}")
            os.replace(part_path, target)
        finally:
            part_path.unlink(missing_ok=True)
    return {"source_bytes": source.stat().st_size, "slim_bytes": target.stat().st_size,
            "dropped": prefixes, "stripped": stripped}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="the wheel to slim")
    parser.add_argument("out_dir", type=Path, help="where the slim wheel goes (same name)")
    parser.add_argument("--drop", action="append", default=[], metavar="FOLDER",
                        help="a folder inside the wheel to leave out (repeatable)")
    parser.add_argument("--strip", action="store_true",
                        help="strip --strip-unneeded each ELF member (when strip exists)")
    args = parser.parse_args(argv)
    if not args.source.is_file():
        parser.error(f"no wheel at {args.source}")
    strip = shutil.which("strip") if args.strip else None
    if args.strip and strip is None:
        print("slim_wheel: no strip program here: ELF members kept as they are", file=sys.stderr)
    try:
        sizes = slim(args.source, args.out_dir, args.drop, strip)
    except (ValueError, zipfile.BadZipFile) as exc:
        print(f"slim_wheel: {exc}", file=sys.stderr)
        return 2
    for folder, count in sizes["dropped"].items():
        print(f"  dropped {folder}/ ({count} files)")
    for name in sizes["stripped"]:
        print(f"  stripped {name}")
    print(f"{args.source.name}: {sizes['source_bytes'] / 2**20:.1f} MiB -> "
          f"{sizes['slim_bytes'] / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
