"""The flag vocabulary every ``paintkit`` command shares, and checked numeric flags.

One name means one thing in every command (docs/cli.md):

============== ========= ===============================================================
flag           value     what it names
============== ========= ===============================================================
``--benchmarks`` DIR     a benchmark tree (``<Benchmark>/<task>/NNN_*.png``), read
``--outputs``  DIR       a model-outputs tree (``<model>/<Benchmark>/<task>/NNNN_output.png``)
``--results``  DIR       a results folder (``problem_stats.jsonl``, ``aggregate_stats.jsonl``)
``--output``   FILE      one file the command writes (a table, a report, a PNG)
``--out``      DIR       the new folder the command fills (a benchmark, a bench run, a gallery)
============== ========= ===============================================================

Selections are comma-separated lists, also repeatable (:func:`names`): ``--tasks A,B``,
``--models A,B``, ``--conditions A,B``; suite names (``paintbench``, ``tinygrafixbench``) are
``--suites A,B``. A flag that takes one model to run is ``--model NAME``; the folder it
writes is ``--name FOLDER``. No flag has a one-letter form.

Spellings that meant something else before 0.4.0 still parse until :data:`OLD_SPELLINGS_UNTIL`
with a one-line note on stderr (:func:`renamed`). Abbreviations are refused everywhere
(``allow_abbrev=False``): ``--out`` never silently means ``--outputs``.

Numbers are checked when the command line is parsed (:func:`integer`, :func:`number`):
finite, within a stated range, one line naming the flag otherwise.
"""

from __future__ import annotations

import argparse
import difflib
import math
import sys

#: The version until which the pre-0.4.0 spellings still parse.
OLD_SPELLINGS_UNTIL = "0.5.0"

#: The value each vocabulary flag takes (its metavar), checked by the parser walk test.
VOCABULARY = {"--benchmarks": "DIR", "--outputs": "DIR", "--results": "DIR",
              "--output": "FILE", "--out": "DIR"}

#: The largest count a flag accepts where none is stated (a sanity bound, not a tuning).
LARGEST_COUNT = 1_000_000_000
#: Seeds are non-negative and fit 64 bits (NumPy's and paintkit's seed derivation).
LARGEST_SEED = 2**64 - 1


def _noted(base: type[argparse.Action]) -> type[argparse.Action]:
    class Noted(base):  # type: ignore[misc, valid-type]
        """``base`` that prints one note when given under an old spelling."""

        old_spellings: tuple[str, ...] = ()
        new_spelling = ""

        def __call__(self, parser, namespace, values, option_string=None):
            if option_string in self.old_spellings:
                print(f"{parser.prog}: note: {option_string} is now {self.new_spelling}; the "
                      f"old spelling works until {OLD_SPELLINGS_UNTIL}", file=sys.stderr)
            super().__call__(parser, namespace, values, option_string)

    return Noted


_NOTED = {"store": _noted(argparse._StoreAction), "append": _noted(argparse._AppendAction),
          "extend": _noted(argparse._ExtendAction)}


def renamed(parser, new: str, *old: str, **kwargs) -> argparse.Action:
    """``parser.add_argument(new, **kwargs)`` that also parses the ``old`` spellings (with a
    note on stderr); help and error messages name only ``new``.

    ``parser`` may be an argument group. ``kwargs['action']`` is ``"store"`` (default),
    ``"append"`` or ``"extend"``.
    """
    kind = kwargs.pop("action", "store")
    action = parser.add_argument(new, *old, action=_NOTED[kind], **kwargs)
    action.old_spellings = old
    action.new_spelling = new
    # the parser maps every spelling to this action already; help and usage show the new one
    action.option_strings = [new]
    return action


def names(text: str) -> list[str]:
    """An argparse ``type``: a comma-separated list of names (``A,B``), blanks dropped."""
    return [n.strip() for n in text.split(",") if n.strip()]


def near_miss(parser: argparse.ArgumentParser, unknown: list[str]) -> str:
    """``unrecognized arguments: ...`` for ``parser``, with ``did you mean --X?`` for each
    unknown flag close to one of its flags (:mod:`difflib`)."""
    flags = [s for a in parser._actions for s in a.option_strings if s.startswith("--")]
    hints = []
    for arg in unknown:
        if arg.startswith("--"):
            close = difflib.get_close_matches(arg.split("=", 1)[0], flags, n=1, cutoff=0.6)
            if close:
                hints.append(f"did you mean {close[0]}?")
    text = f"unrecognized arguments: {' '.join(unknown)}"
    return f"{text} ({'; '.join(hints)})" if hints else text


def _range_text(minimum, maximum, what: str) -> str:
    if maximum is None:
        return f"{what} >= {minimum:,}" if minimum is not None else what
    return f"{what} from {minimum:,} to {maximum:,}"


def integer(minimum: int = 0, maximum: int = LARGEST_COUNT):
    """An argparse ``type``: an integer in ``[minimum, maximum]`` (decimal digits only)."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            value = None
        if value is None or value < minimum or value > maximum:
            raise argparse.ArgumentTypeError(
                f"expected {_range_text(minimum, maximum, 'an integer')}, got {text!r}")
        return value

    parse.__name__ = "integer"
    return parse


def count(maximum: int = LARGEST_COUNT):
    """An argparse ``type``: a positive integer (1 .. ``maximum``)."""
    return integer(1, maximum)


def seed():
    """An argparse ``type``: a seed, a non-negative integer that fits 64 bits."""
    return integer(0, LARGEST_SEED)


def number(minimum: float, maximum: float, *, above: bool = False):
    """An argparse ``type``: a finite float in ``[minimum, maximum]`` (``(minimum, maximum]``
    when ``above``); ``inf`` and ``nan`` are refused."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        low_ok = value > minimum if above else value >= minimum
        if not (math.isfinite(value) and low_ok and value <= maximum):
            low = f"above {minimum:g}" if above else f"from {minimum:g}"
            raise argparse.ArgumentTypeError(
                f"expected a finite number {low} to {maximum:g}, got {text!r}")
        return value

    parse.__name__ = "number"
    return parse


def strict_parsers(parser: argparse.ArgumentParser) -> None:
    """Turn abbreviations off on ``parser`` and every subcommand parser below it, and retire
    one-letter flags other than ``-h``: ``-j`` still parses (with a note until
    :data:`OLD_SPELLINGS_UNTIL`) but help and errors name only ``--jobs``."""
    parser.allow_abbrev = False
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                strict_parsers(child)
            continue
        short = [s for s in action.option_strings if not s.startswith("--") and s != "-h"]
        long = [s for s in action.option_strings if s.startswith("--")]
        if short and long and type(action) in (argparse._StoreAction, argparse._AppendAction):
            kind = "store" if type(action) is argparse._StoreAction else "append"
            action.__class__ = _NOTED[kind]
            action.old_spellings = tuple(short)  # type: ignore[attr-defined]
            action.new_spelling = long[0]  # type: ignore[attr-defined]
            action.option_strings = long
