"""``paintkit --help`` starts fast: building the parser (and printing help) imports none of
the heavy libraries, which load only when a command runs."""

from __future__ import annotations

import json
import subprocess
import sys

#: Libraries that cost hundreds of milliseconds (or seconds) to import.
HEAVY = ("numba", "torch", "skia", "matplotlib")

PROBE = """
import contextlib, io, json, sys
from paintkit.cli.main import build_parser, main
build_parser()
with contextlib.redirect_stdout(io.StringIO()) as shown:
    try:
        main(["--help"])
    except SystemExit:
        pass
    for name in sys.argv[2:]:
        try:
            main([name, "--help"])
        except SystemExit:
            pass
print(json.dumps({"help": shown.getvalue()[:40], "loaded": sorted(
    m for m in sys.modules if m.split(".")[0] in sys.argv[1].split(","))}))
"""


def _loaded(*commands: str) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, ",".join(HEAVY), *commands], capture_output=True,
                          text=True, timeout=120, cwd="/", check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_build_parser_and_help_import_no_heavy_library():
    seen = _loaded()
    assert seen["help"].startswith("usage: paintkit")
    assert seen["loaded"] == []


def test_every_command_help_imports_no_heavy_library():
    from paintkit.cli.main import COMMANDS

    assert _loaded(*COMMANDS)["loaded"] == []
