"""Checking a benchmark copy and a submitted results folder (``paintkit verify``).

:func:`verify_benchmark` (:mod:`paintkit.verify.benchmark`): a benchmark copy against the
content hashes of the release shipped with paintkit (:mod:`paintkit.verify.release`), naming
each problem that differs and why (edited since generated, another version, another
namespace, other settings).

:func:`verify_submission` (:mod:`paintkit.verify.submission`): a results folder against the
outputs it scored (their hashes, the benchmark's manifest hash, every row rescored).
"""

from __future__ import annotations

from paintkit.verify.benchmark import verify_benchmark
from paintkit.verify.release import read_release
from paintkit.verify.submission import verify_submission
from paintkit.verify.verdict import Verdict

__all__ = ["Verdict", "read_release", "verify_benchmark", "verify_submission"]
