"""The ``paintkit`` command: a thin argparse front end.

Each subcommand lives in its own module ``paintkit/cli/<name>.py`` exposing
``register(subparsers)``, which adds the parser and sets ``func`` (called with the parsed
arguments, returning an exit code). Heavy libraries (torch, numba, skia) are imported inside
the command functions, so ``paintkit --help`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from concurrent.futures import BrokenExecutor

from paintkit._version import __version__
from paintkit.cli.flags import near_miss, strict_parsers
from paintkit.cli.signals import Terminated, exit_status, stop_signals
from paintkit.errors import PaintkitError, one_line
from paintkit.io.redact import redact_url_text

COMMANDS: tuple[str, ...] = ("scene", "gallery", "tasks", "show", "eval", "generate",
                             "baseline", "run", "stats", "report", "agreement", "explain",
                             "subset", "bench", "serve", "verify")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paintkit",
        description="Generate exact image-editing benchmarks and score model outputs.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"paintkit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"paintkit.cli.{name.replace('-', '_')}").register(sub)
    strict_parsers(parser)  # no abbreviations: --out never silently means --outputs
    return parser


#: What an interrupted command leaves behind, for its one-line message.
_INTERRUPTED = {
    "eval": "every row written so far is kept; run the same command again to resume",
    "generate": "every finished file is kept; run the same command again to resume",
    "baseline": "every output written so far is kept; run the same command again to resume",
    "explain": "every explanation written so far is kept; run the same command again to resume",
    "run": "every output written so far is kept and recorded in the run's manifest; run the "
           "same command again to resume",
    "serve": "stopped after answering the requests in flight",
}


def _os_error_line(exc: OSError) -> str:
    """One line for an OSError: the path and the reason, plus what to do for the common
    faults (a full disk, a read-only or forbidden folder)."""
    import errno

    if isinstance(exc, PaintkitError):
        return str(exc)
    reason = exc.strerror or str(exc) or type(exc).__name__
    where = f"{exc.filename}: " if exc.filename else ""
    hint = {errno.ENOSPC: "; free some space and run the same command again",
            errno.EDQUOT: "; free some space and run the same command again",
            errno.EROFS: "; choose a writable folder",
            errno.EACCES: "; choose a folder you may write into"}.get(exc.errno, "")
    return f"{where}{reason}{hint}"


def command_line(argv: list[str]) -> str:
    """``paintkit ARGS`` as a shell line (recorded in reports and stats provenance), with
    the credentials of any URL in it masked (:mod:`paintkit.io.redact`)."""
    import shlex

    return redact_url_text(shlex.join(["paintkit", *map(str, argv)]))


def parse_command_line(parser: argparse.ArgumentParser, argv: list[str] | None
                       ) -> argparse.Namespace:
    """``parser.parse_args(argv)``, but an unknown flag is refused by its command's parser
    (that command's usage) with ``did you mean --X?`` for a near miss, before anything else
    is checked: a mistyped ``--outptus`` is named, not reported as ``--outputs`` missing."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    tokens = list(sys.argv[1:] if argv is None else argv)
    command = next((t for t in tokens if not t.startswith("-")), None)
    target = sub.choices.get(command or "")
    if target is not None:
        unknown = []
        for token in tokens[tokens.index(command) + 1:]:
            if token == "--":  # what follows is values only
                break
            if token.startswith("--") and \
                    token.split("=", 1)[0] not in target._option_string_actions:
                unknown.append(token)
        if unknown:
            target.error(near_miss(target, unknown))
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        target = sub.choices.get(getattr(args, "command", None) or "", parser)
        target.error(near_miss(target, unknown))
    return args


def main(argv: list[str] | None = None) -> int:
    """Run one command; every expected failure is one line on stderr, never a traceback.

    Exit codes: 0 done, 2 bad input (``ValueError``), 1 a fault of the system (a full disk,
    a read-only folder, out of memory), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM);
    a second Ctrl-C or SIGTERM while the command stops ends it at once (:mod:`.signals`).
    Any other paintkit error is bad input too (exit 2); an unexpected exception is a bug:
    one line that says so (exit 1), its traceback with ``PAINTKIT_DEBUG=1``.
    """
    parser = build_parser()
    args = parse_command_line(parser, argv)
    args.command_line = command_line(sys.argv[1:] if argv is None else argv)
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 0
    prefix = f"paintkit {args.command}"
    with stop_signals(prefix):  # also while the line is printed: a second signal exits
        return _run(args, prefix)


def _run(args, prefix: str) -> int:
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt as exc:
        kept = _INTERRUPTED.get(args.command, "nothing half-written is left (files are "
                                "written whole or not at all)")
        what = "terminated (SIGTERM)" if isinstance(exc, Terminated) else "interrupted"
        print(f"\n{prefix}: {what}; {kept}", file=sys.stderr)
        return exit_status(exc)
    except BrokenPipeError:  # `paintkit tasks --json | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no flush error at exit
        return 0
    except ValueError as exc:  # bad user input: one clear line, no traceback
        print(f"{prefix}: error: {one_line(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:  # a full disk, a read-only folder: one line naming the path
        print(f"{prefix}: error: {one_line(_os_error_line(exc))}", file=sys.stderr)
        return 1
    except BrokenExecutor:  # a worker killed from outside: the OOM killer, most often
        print(f"{prefix}: error: a worker process was killed (most likely the system ran out "
              "of memory and its OOM killer ended it); everything finished before is kept, run "
              "the same command again (with fewer --jobs) to resume", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"{prefix}: error: out of memory; use smaller inputs or options (for example "
              "fewer --jobs or a smaller --n-boot)", file=sys.stderr)
        return 1
    except PaintkitError as exc:  # paintkit's own errors are about the input: one line
        print(f"{prefix}: error: {one_line(exc)}", file=sys.stderr)
        return 2
    except RecursionError:  # input nested deeper than any reader of it expects
        print(f"{prefix}: error: an input is nested too deeply to read (a JSON document or "
              "tree hundreds of thousands of levels deep?); check the files you named",
              file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: one line saying so, the traceback on request
        if os.environ.get("PAINTKIT_DEBUG"):
            raise
        print(f"{prefix}: internal error: {type(exc).__name__}: {one_line(exc)[:300]}; this "
              "is a bug in paintkit, please report it with the command; run with "
              "PAINTKIT_DEBUG=1 for the traceback", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
