"""The built wheel installs paintkit, paintkit.kernels and paintkit.renderers, and no
top-level ``kernels`` / ``renderers`` modules that would collide with other packages."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "--no-build-isolation",
         "-q", "-w", str(out)],
        check=True, capture_output=True, text=True,
    )
    (found,) = out.glob("paintkit-*.whl")
    return found


def test_wheel_keeps_kernels_and_renderers_inside_paintkit(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {n.split("/")[0] for n in names}
    assert "kernels" not in top_level and "renderers" not in top_level, sorted(top_level)
    assert "paintkit/kernels/__init__.py" in names
    assert "paintkit/renderers/__init__.py" in names
    assert "paintkit/__init__.py" in names
    # PEP 561: the annotations ship, with the module of the aliases they use
    assert "paintkit/py.typed" in names and "paintkit/types.py" in names
    # paintkit verify's list of the release's hashes, small enough to ship
    info = zipfile.ZipFile(wheel).getinfo("paintkit/verify/release_hashes.json")
    assert info.file_size < 300_000 and info.compress_size < 120_000, info
    tops = [n for n in names if n.endswith("top_level.txt")]
    for t in tops:
        assert zipfile.ZipFile(wheel).read(t).decode().split() == ["paintkit"]


def test_installed_wheel_imports_from_its_own_files(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(target), str(wheel)], check=True, capture_output=True, text=True)
    code = ("import paintkit, paintkit.kernels, paintkit.renderers, importlib.util as u;"
            "print(paintkit.__file__); print(paintkit.kernels.__file__);"
            "print(u.find_spec('kernels'), u.find_spec('renderers'))")
    res = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True,
                         capture_output=True, text=True, env={"PYTHONPATH": str(target)})
    lines = res.stdout.splitlines()
    assert lines[0].startswith(str(target)) and lines[1].startswith(str(target)), lines
    assert lines[2] == "None None"


def test_cli_version_and_help():
    from paintkit import __version__

    res = subprocess.run([sys.executable, "-m", "paintkit.cli.main", "--version"],
                         capture_output=True, text=True, check=True)
    assert res.stdout.strip() == f"paintkit {__version__}"
    res = subprocess.run([sys.executable, "-m", "paintkit.cli.main", "--help"],
                         capture_output=True, text=True, check=True)
    assert "scene" in res.stdout
