"""The metric's version: which arithmetic produced a results row.

Every row ``paintkit eval`` writes carries ``"metric_version": METRIC_VERSION``. The version
changes whenever a count can change for the same files (docs/metric-definition.md), and a
results folder never mixes versions: eval refuses to add rows to a file scored with another
version unless told to rescore it (``--overwrite``). Rows without the field were scored
before versions were recorded (version 1).

- 1: float32 NumPy arithmetic (``np.cbrt``, ``** 2.4``): its bits depended on the CPU.
- 2: the canonical arithmetic of docs/metric-definition.md §3-4: the same count on every
  machine, thread count and device (Lab pinned by a SHA-256 of all 2^24 colours).
"""

#: Version of the arithmetic behind every count (an int; see the module docstring).
METRIC_VERSION = 2
#: The version of rows that carry no ``metric_version`` field.
UNVERSIONED = 1


def row_metric_version(row: dict) -> int:
    """The metric version a results row was scored with (:data:`UNVERSIONED` if absent)."""
    return row.get("metric_version", UNVERSIONED)
