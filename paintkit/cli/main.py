"""The ``paintkit`` command: a thin argparse front end.

Each subcommand lives in its own module ``paintkit/cli/<name>.py`` exposing
``register(subparsers)``, which adds the parser and sets ``func`` (called with the parsed
arguments, returning an exit code). Heavy libraries (torch, numba, skia) are imported inside
the command functions, so ``paintkit --help`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from paintkit._version import __version__

COMMANDS: tuple[str, ...] = ("scene", "gallery", "tasks", "show", "eval", "generate",
                             "baseline", "run", "stats", "report", "agreement", "explain",
                             "subset", "bench")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paintkit",
        description="Generate exact image-editing benchmarks and score model outputs.",
    )
    parser.add_argument("--version", action="version", version=f"paintkit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"paintkit.cli.{name.replace('-', '_')}").register(sub)
    return parser


def command_line(argv: list[str]) -> str:
    """``paintkit ARGS`` as a shell line (recorded in reports and stats provenance)."""
    import shlex

    return shlex.join(["paintkit", *map(str, argv)])


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.command_line = command_line(sys.argv[1:] if argv is None else argv)
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except ValueError as exc:  # bad user input: one clear line, no traceback
        print(f"paintkit {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
