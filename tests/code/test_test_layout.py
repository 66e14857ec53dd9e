"""The tests' own layout (docs/code-layout.md, "Commands and tests"): shared helpers are
imported by name from ``tests.support``, never through ``sys.path`` edits, and the oracles
share no code with the package they check."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Oracles: independent re-derivations the kernels and tasks are checked against.
ORACLES = ("tests/support/metric_oracle.py", "tests/support/delta_e_oracle.py",
           "tests/support/sharma_pairs.py", "tests/kernels/oracles.py",
           "tests/render/raster_oracle.py", "tests/references/oracle.py",
           "tests/style_transfer/style_oracle.py")
# An oracle that still takes a helper from paintkit (``paintkit.colors.hex_to_rgb``), with
# the part that owns its folder; shrink only.
ORACLES_USING_PAINTKIT = {"tests/tasks/color_region_oracle.py": "generate"}


def _python_files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (REPO / folder).rglob("*.py")
                  if ".venv" not in p.parts)


def _sys_path_edits(path: Path) -> list[int]:
    """Lines calling ``sys.path.<anything>(...)`` or assigning to ``sys.path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func.value
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        if isinstance(target, ast.Attribute) and target.attr == "path" \
                and isinstance(target.value, ast.Name) and target.value.id == "sys":
            lines.append(node.lineno)
    return sorted(lines)


def _paintkit_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return {n for n in names if n == "paintkit" or n.startswith("paintkit.")}


def test_no_test_or_bench_script_edits_sys_path():
    files = _python_files("tests", "bench")
    assert len(files) > 100
    edits = {str(p.relative_to(REPO)): lines for p in files if (lines := _sys_path_edits(p))}
    assert not edits, ("import shared helpers from tests.support (see tests/support/__init__.py) "
                       f"instead of editing sys.path: {edits}")


def test_the_sys_path_check_sees_each_form(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import sys\nsys.path.insert(0, 'x')\nsys.path.append('y')\n"
                      "sys.path = ['z']\nsys.path += ['w']\nprint(sys.path)\n")
    assert _sys_path_edits(sample) == [2, 3, 4, 5]


def test_the_oracles_share_no_code_with_paintkit():
    for name in ORACLES:
        assert not _paintkit_imports(REPO / name), f"{name} imports paintkit"
    for name in ORACLES_USING_PAINTKIT:
        assert _paintkit_imports(REPO / name), f"{name} no longer imports paintkit: drop it from the table"


def test_no_grab_bag_test_folder():
    folders = {p.name for p in (REPO / "tests").iterdir() if p.is_dir() and any(p.glob("*.py"))}
    assert not folders & {"foundation", "misc", "common", "utils"}
    assert {"io", "cli", "rewards", "code", "support"} <= folders


def test_bench_readme_names_every_script():
    """bench/README.md (the speed scripts, not the ``paintkit bench`` command) lists each
    script of the folder, so a new one gets its line."""
    readme = (REPO / "bench" / "README.md").read_text(encoding="utf-8")
    scripts = sorted(p.name for p in (REPO / "bench").iterdir() if p.suffix in (".py", ".sh"))
    assert len(scripts) > 20
    missing = [name for name in scripts if f"`{name}`" not in readme]
    assert not missing, f"add these to a row of bench/README.md: {missing}"
    assert "paintkit bench" in readme
