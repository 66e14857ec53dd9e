"""The files of one problem in a benchmark tree, named once (docs/file-layout.md).

A task folder ``<root>/<Benchmark>/<task>/`` holds, per problem ``NNN`` (its index,
zero-padded to :data:`STEM_DIGITS` digits by paintkit; any number of digits is read):
``NNN_input.png``, ``NNN_answer.png`` and ``NNN.json`` (the metadata, written last), and
with ``paintkit generate --svg`` ``NNN_input.svg`` / ``NNN_answer.svg``; a problem with
reference images (docs/references.md) also has ``NNN_reference_1.png``, ``NNN_reference_2.png``,
... in the order the model gets them (their roles are the metadata's ``references`` list),
and with ``--svg`` ``NNN_reference_1.svg``, ... (drawn from the metadata's ``reference_scenes``).
Every writer
(``writers/directory.py``, the Parquet image paths, the synthetic trees of
``evaluate/synthetic.py``) and every reader (``layout/benchmark.py``, the reward's problem
index, ``paintkit subset``, ``paintkit show``) asks this module for those names: each
function reads the suffixes below when called. Standard library only, so writers and
readers import it at no cost.
"""

from __future__ import annotations

import re
from pathlib import Path

#: After ``NNN``: the input image, the answer image, the metadata JSON.
INPUT = "_input.png"
ANSWER = "_answer.png"
METADATA = ".json"
#: After ``NNN``: the optional vector copies of input and answer (``--svg``).
INPUT_SVG = "_input.svg"
ANSWER_SVG = "_answer.svg"
#: After ``NNN``: reference image ``n`` (1, 2, ...) of a problem with references.
REFERENCE = "_reference_{n}.png"
#: After ``NNN``: the optional vector copy of reference image ``n`` (``--svg``).
REFERENCE_SVG = "_reference_{n}.svg"
#: Digits paintkit pads ``NNN`` to.
STEM_DIGITS = 3


def problem_id(namespace: str, folder: str, condition_key: str, mode: str, slot: int) -> str:
    """A problem's ``problem_id`` (docs/file-layout.md, "Three names for one problem"):
    ``<namespace>-<task folder>-<condition key>-<mode>-<slot:06d>``, the same for the problem
    wherever it is (a tree's ``NNN.json``, a shard, :func:`paintkit.generate`, the service);
    no dots, no slashes (also the WebDataset / Parquet key)."""
    return f"{namespace}-{folder}-{condition_key}-{mode}-{slot:06d}"


def problem_stem(idx: int, digits: int = STEM_DIGITS) -> str:
    """``NNN``: problem ``idx`` of a task folder, zero-padded to ``digits``."""
    return f"{idx:0{digits}d}"


def required_suffixes() -> tuple[str, str, str]:
    """The three files every problem has, after its ``NNN``: input, answer, metadata."""
    return (INPUT, ANSWER, METADATA)


def written_suffixes(svg: bool = False) -> tuple[str, ...]:
    """The files a writer writes for one problem, in order (the metadata last: a problem
    whose JSON exists is complete); ``svg`` adds the vector copies before the JSON."""
    return (INPUT, ANSWER, INPUT_SVG, ANSWER_SVG, METADATA) if svg else required_suffixes()


def input_name(stem: str) -> str:
    """``<stem>_input.png``."""
    return stem + INPUT


def answer_name(stem: str) -> str:
    """``<stem>_answer.png``."""
    return stem + ANSWER


def reference_suffix(n: int, svg: bool = False) -> str:
    """``_reference_<n>.png`` (``svg``: ``_reference_<n>.svg``, its ``--svg`` copy): the
    suffix of reference image ``n`` (1-based)."""
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"references are numbered from 1, got {n!r}")
    return (REFERENCE_SVG if svg else REFERENCE).format(n=n)


def problem_suffixes(references: int, svg: bool = False) -> tuple[str, ...]:
    """Every file of one problem with ``references`` reference images, in writing order:
    input and answer PNGs, (``svg``) their SVGs, the reference PNGs, (``svg``) the reference
    SVGs, the metadata JSON last (a problem whose JSON exists is complete)."""
    refs = tuple(reference_suffix(n) for n in range(1, references + 1))
    if svg:
        refs += tuple(reference_suffix(n, svg=True) for n in range(1, references + 1))
    suffixes = written_suffixes(svg)
    return suffixes[:-1] + refs + suffixes[-1:]


def reference_name(stem: str, n: int) -> str:
    """``<stem>_reference_<n>.png``: reference image ``n`` (1-based) of problem ``stem``."""
    return stem + reference_suffix(n)


def metadata_name(stem: str) -> str:
    """``<stem>.json``."""
    return stem + METADATA


def parse_problem_file(name: str) -> tuple[str, str] | None:
    """``(NNN, suffix)`` of a problem's file name (any of the five, or a reference image or
    its SVG; any number of digits), else None: ``"007_input.png"`` -> ``("007", "_input.png")``,
    ``"007_reference_2.png"`` -> ``("007", "_reference_2.png")``."""
    suffixes = "|".join(re.escape(s) for s in written_suffixes(svg=True))
    refs = "|".join(f"{re.escape(head)}[1-9]\\d*{re.escape(tail)}"
                    for head, tail in (form.split("{n}") for form in (REFERENCE, REFERENCE_SVG)))
    match = re.fullmatch(rf"(\d+)({suffixes}|{refs})", name)
    return (match.group(1), match.group(2)) if match else None


def is_input_file(name: str) -> bool:
    """Whether ``name`` is a problem's input image (how a task folder is recognised)."""
    parsed = parse_problem_file(name)
    return parsed is not None and parsed[1] == INPUT


def metadata_files(root) -> list[Path]:
    """Every problem's metadata file (``NNN.json``) anywhere under ``root``, sorted."""
    return sorted(path for path in Path(root).rglob("*" + METADATA)
                  if (parsed := parse_problem_file(path.name)) and parsed[1] == METADATA)


def image_paths(metadata_path) -> tuple[Path, Path]:
    """``(input, answer)`` paths of the problem whose metadata file is ``metadata_path``."""
    path = Path(metadata_path)
    parsed = parse_problem_file(path.name)
    if parsed is None or parsed[1] != METADATA:
        raise ValueError(f"{path}: not a problem's metadata file (NNN{METADATA})")
    return path.with_name(input_name(parsed[0])), path.with_name(answer_name(parsed[0]))


def reference_paths(metadata_path, count: int) -> tuple[Path, ...]:
    """The ``count`` reference image paths (``NNN_reference_1.png`` ...) of the problem whose
    metadata file is ``metadata_path`` (``count``: the length of its ``references`` list)."""
    path = Path(metadata_path)
    parsed = parse_problem_file(path.name)
    if parsed is None or parsed[1] != METADATA:
        raise ValueError(f"{path}: not a problem's metadata file (NNN{METADATA})")
    return tuple(path.with_name(reference_name(parsed[0], n)) for n in range(1, count + 1))
