"""How many reference images each ``--format`` carries, and the one-line refusal of a problem
with more.

A writer class says it in :attr:`~paintkit.writers.base.Writer.max_references` (None: any
number): ``flow-factory`` writes a line's ``images`` list (the input, then each reference),
``flow-grpo`` the ``dual_ref`` layout's one ``ref_image``, while the loaders of ``verl-omni``
(its Qwen-Image-Edit rollout takes exactly one condition image) and ``pix2pix`` (diffusers'
``train_instruct_pix2pix.py``: one original image column) take none. A writer calls
:func:`check_references` before it stores a problem: a problem with more references than its
format carries stops the run with :class:`ReferencesNotCarried`, one line naming the formats
that carry them, rather than dropping a reference.
"""

from __future__ import annotations

import inspect

from paintkit.errors import PaintkitError
from paintkit.writers.base import Writer
from paintkit.writers.record import EncodedProblem


class ReferencesNotCarried(PaintkitError, ValueError):
    """A problem has more reference images than its ``--format``'s trainer takes."""


def _writer_classes() -> list[type[Writer]]:
    """Every concrete writer class of paintkit with a ``--format`` name."""
    found, todo = [], [Writer]
    while todo:
        for cls in todo.pop().__subclasses__():
            todo.append(cls)
            if cls.format and not inspect.isabstract(cls) and \
                    cls.__module__.startswith("paintkit.writers."):
                found.append(cls)
    return found


def formats_carrying(count: int) -> list[str]:
    """The ``--format`` names whose files carry ``count`` reference images per problem,
    sorted; a format that carries any number is named alone, one with a limit as
    ``"name (at most N)"``."""
    names = {}
    for cls in _writer_classes():
        limit = cls.max_references
        if limit is None or limit >= count:
            names[cls.format] = cls.format if limit is None else f"{cls.format} (at most {limit})"
    return [names[name] for name in sorted(names)]


def check_references(writer: Writer, problem: EncodedProblem) -> None:
    """Refuse ``problem`` when it has more reference images than ``writer``'s format carries.

    Raises:
        ReferencesNotCarried: one line naming the problem, the format's limit and why, and
            the formats that carry that many references.
    """
    count, limit = len(problem.reference_pngs), writer.max_references
    if limit is None or count <= limit:
        return
    carrying = ", ".join(formats_carrying(count)) or "none"
    takes = "no reference images" if limit == 0 else f"at most {limit} reference image(s)"
    raise ReferencesNotCarried(
        f"--format {writer.format} takes {takes} ({writer.references_why}), but problem "
        f"{problem.key} has {count}; formats that carry {count}: {carrying}")


__all__ = ["ReferencesNotCarried", "check_references", "formats_carrying"]
