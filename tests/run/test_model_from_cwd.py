"""``module:function`` models are found in the current folder, as uvicorn and pytest find
them, and a module found nowhere says where paintkit looked (issue 37 item 4)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paintkit.run.callable_model import load_callable

MODULE = '''
def edit(batch):
    return [image for image, _ in batch]
'''


@pytest.fixture
def mymods(tmp_path, monkeypatch):
    folder = tmp_path / "mymods"
    folder.mkdir()
    (folder / "mymodel_cwd.py").write_text(MODULE)
    monkeypatch.chdir(folder)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(folder))])
    monkeypatch.delitem(sys.modules, "mymodel_cwd", raising=False)
    return folder


def test_a_module_in_the_current_folder_is_found(mymods):
    function, factory = load_callable("mymodel_cwd:edit")
    assert function.__module__ == "mymodel_cwd" and not factory
    assert Path(sys.modules["mymodel_cwd"].__file__).parent == mymods


def test_a_missing_module_says_where_it_looked(mymods):
    with pytest.raises(ValueError, match=r"cannot import nowhere_mod: No module named "
                       r"'nowhere_mod' \(looked in the current folder .*mymods and on sys.path"):
        load_callable("nowhere_mod:edit")


def test_the_console_script_finds_it(bench, mymods, tmp_path):
    script = shutil.which("paintkit", path=os.path.dirname(sys.executable))
    if script is None:
        pytest.skip("the paintkit console script is not installed beside this Python")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([script, "run", "--model", "mymodel_cwd:edit", "--benchmarks",
                           str(bench), "--outputs", str(tmp_path / "o"), "--limit", "1",
                           "--quiet"], cwd=mymods, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "o" / "mymodel_cwd.edit").rglob("*_output.png"))) == 3
