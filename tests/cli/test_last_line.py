"""The CLI's last line of defence: a paintkit error of any type is one line (exit 2), input
nested too deeply is one line, and an unexpected exception (a bug) is one line that says so
and how to see the traceback (``PAINTKIT_DEBUG=1``), which then propagates."""

from __future__ import annotations

import socket

import pytest

from paintkit.cli import tasks
from paintkit.cli.main import main
from paintkit.errors import PaintkitError


class _OwnError(PaintkitError, RuntimeError):
    """A paintkit error that is neither a ValueError nor an OSError."""


def _raising(exc):
    def run(args):
        raise exc

    return run


@pytest.mark.parametrize(("exc", "code", "says"), [
    (_OwnError("9 distinct heights do not fit the size range"), 2,
     "paintkit tasks: error: 9 distinct heights do not fit the size range"),
    (RecursionError("maximum recursion depth exceeded"), 2,
     "paintkit tasks: error: an input is nested too deeply to read"),
    (KeyError("oops"), 1, "paintkit tasks: internal error: KeyError: 'oops'; this is a bug in "
     "paintkit, please report it with the command; run with PAINTKIT_DEBUG=1 for the "
     "traceback"),
])
def test_every_error_is_one_line(exc, code, says, monkeypatch, capsys):
    monkeypatch.delenv("PAINTKIT_DEBUG", raising=False)
    monkeypatch.setattr(tasks, "run", _raising(exc))
    assert main(["tasks"]) == code
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(says), err


def test_paintkit_debug_shows_the_traceback(monkeypatch):
    monkeypatch.setenv("PAINTKIT_DEBUG", "1")
    monkeypatch.setattr(tasks, "run", _raising(KeyError("oops")))
    with pytest.raises(KeyError, match="oops"):
        main(["tasks"])


def test_an_ftp_out_whose_host_does_not_answer_is_one_line(tmp_path, capsys):
    pytest.importorskip("fsspec")
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    code = main(["generate", "paintbench", "--out", f"ftp://user:pw@127.0.0.1:{port}/corpus",
                 "--tasks", "recolor", "--conditions", "baseline", "--per-cell", "1",
                 "--no-preservation", "--engine", "inprocess", "--quiet"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert f"--out ftp://***@127.0.0.1:{port}/corpus: cannot open ftp://" in err
    assert "Connection refused" in err and "pw" not in err
