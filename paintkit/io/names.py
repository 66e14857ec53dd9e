"""Names that become one component of a path: a model, benchmark or task folder.

Every name a user or a file supplies that paintkit joins into a path it writes or reads
(``baseline --model``, ``generate --benchmark``, the model and task names of an output path)
goes through :func:`check_folder_name`, so no name can reach outside its root: ``..``,
``.``, an absolute path, a separator or a NUL are refused with one clear line.
"""

from __future__ import annotations

import os


def check_folder_name(name: str, what: str = "benchmark") -> str:
    """``name`` if it is one plain folder name that stays inside the output folder.

    Raises:
        ValueError: empty, ``.``, ``..``, hidden, or holding a path separator or NUL (any
            of which would write outside ``--out``, over it, or where readers skip it).

    Example:
        >>> check_folder_name("gpt-image-1", "model")
        'gpt-image-1'
    """
    if not isinstance(name, str) or name in ("", ".", "..") or name.startswith(".") \
            or any(c in name for c in _SEPARATORS) or os.path.isabs(name):
        raise ValueError(f"{what} name {name!r}: expected one plain folder name inside the "
                         "output folder (not empty, '.', '..' or hidden, and no path "
                         "separator)")
    return name


#: What splits a path here: '/' and NUL everywhere, plus this system's own separators
#: (a backslash is an ordinary character of a POSIX folder name, e.g. a model '$\\foo{$').
_SEPARATORS = tuple({"/", "\0", os.sep, *((os.altsep,) if os.altsep else ())})
