"""``bench/slim_wheel.py``: a wheel rebuilt without some folders installs as a valid wheel.

Checked against pip (installs it, with the executable bit of a stripped binary kept) and
against the RECORD rules of the wheel spec re-derived here (every member listed once with
its sha256 and size, RECORD itself without).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bench.slim_wheel import main, slim

TRUE = shutil.which("true")


def _wheel(folder: Path) -> Path:
    """A small wheel ``pkg-1.0``: a module, a folder to drop, an ELF executable (``true``)."""
    path = folder / "pkg-1.0-py3-none-any.whl"
    files = {
        "pkg/__init__.py": b"VALUE = 7\n",
        "pkg/big/__init__.py": b"",
        "pkg/big/data.txt": b"x" * 5000,
        "pkg-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n",
        "pkg-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\n"
                                   b"Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    if TRUE:
        files["pkg/bin/true"] = Path(TRUE).read_bytes()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 2, 3, 4, 6))
            mode = 0o755 if name.endswith("/true") else 0o644
            info.external_attr = (stat.S_IFREG | mode) << 16
            wheel.writestr(info, data)
        wheel.writestr("pkg-1.0.dist-info/RECORD", "stale,,\n")
    return path


def _check_record(path: Path) -> list[str]:
    """The members named in RECORD, after checking each row against the member's bytes."""
    with zipfile.ZipFile(path) as wheel:
        names = [m.filename for m in wheel.infolist()]
        rows = list(csv.reader(io.StringIO(wheel.read("pkg-1.0.dist-info/RECORD").decode())))
        for name, digest, size in rows:
            if name == "pkg-1.0.dist-info/RECORD":
                assert (digest, size) == ("", "")
                continue
            data = wheel.read(name)
            algorithm, _, value = digest.partition("=")
            assert algorithm == "sha256" and int(size) == len(data)
            assert base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)) == \
                hashlib.sha256(data).digest()
    listed = [row[0] for row in rows]
    assert sorted(listed) == sorted(names) and len(set(listed)) == len(listed)
    return listed


def test_slim_wheel_drops_folders_rewrites_record_and_installs(tmp_path):
    source = _wheel(tmp_path)
    out = tmp_path / "out"
    sizes = slim(source, out, ["pkg/big"], shutil.which("strip"))
    slimmed = out / source.name
    assert sizes["dropped"] == {"pkg/big": 2}
    listed = _check_record(slimmed)
    assert not [n for n in listed if n.startswith("pkg/big")]
    assert "pkg/__init__.py" in listed
    if TRUE and shutil.which("strip"):
        assert sizes["stripped"] == ["pkg/bin/true"]
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                    "--no-compile", "--target", str(target), str(slimmed)], check=True)
    assert (target / "pkg" / "__init__.py").read_text() == "VALUE = 7\n"
    assert not (target / "pkg" / "big").exists()
    if TRUE:
        tool = target / "pkg" / "bin" / "true"
        assert tool.stat().st_mode & stat.S_IXUSR
        assert subprocess.run([str(tool)]).returncode == 0  # still runs once stripped
    again = tmp_path / "again"
    slim(source, again, ["pkg/big"], shutil.which("strip"))
    assert (again / source.name).read_bytes() == slimmed.read_bytes()  # deterministic


def test_slim_wheel_refuses_a_folder_the_wheel_lacks(tmp_path, capsys):
    source = _wheel(tmp_path)
    code = main([str(source), str(tmp_path / "out"), "--drop", "pkg/big", "--drop", "pkg/jars"])
    assert code == 2
    assert "no member of pkg-1.0-py3-none-any.whl under ['pkg/jars']" in capsys.readouterr().err
    assert not list((tmp_path / "out").iterdir())  # nothing half-written left
    with pytest.raises(SystemExit):
        main([str(tmp_path / "missing.whl"), str(tmp_path / "out")])
