"""Deprecated: the steps of ``paintkit bench`` moved to :mod:`paintkit.cli.pipeline`.

They run paintkit's commands one after the other, so they live with the commands (and
paintkit's packages no longer import each other in a circle). This module goes away in the
next version.
"""

from __future__ import annotations

import warnings

from paintkit.cli.pipeline import (
    BASELINES,
    STATE_NAME,
    SUITES,
    Bench,
    BenchConfig,
    StepFailed,
    load_config,
    tree_fingerprint,
)

__all__ = ["BASELINES", "STATE_NAME", "SUITES", "Bench", "BenchConfig", "StepFailed", "load_config",
           "tree_fingerprint"]

warnings.warn("paintkit.pipeline moved to paintkit.cli.pipeline", DeprecationWarning, stacklevel=2)
