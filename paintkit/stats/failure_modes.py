"""Failure-mode tags (docs/metric-definition.md §12) from a problem's edit- and preservation-accuracy curves.

Read on the curves over the 11 tolerances t = 0..10, with ``E_t`` the edit accuracy and
``P_t`` the preservation accuracy. The first rule that matches wins:

1. ``structural_catastrophe`` — all curves near 0: ``E_10 < LOW`` and ``P_10 < LOW``
   (a missing output lands here too: every figure is 0);
2. ``execution_omission`` — the edit is not attempted: ``E_10 < LOW`` while
   ``P_10 >= PRESERVED``;
3. ``color_imprecision`` — right place, wrong colours: ``E_0 < LOW`` and
   ``E_10 - E_0 >= CLIMB`` (edit accuracy climbs steeply with the tolerance);
4. ``structural_imprecision`` — a moderate plateau: ``LOW <= E_10 < SOLVED`` and
   ``E_10 - E_0 < CLIMB`` (looser colours do not help);
5. ``none`` — anything else (a solved problem, or curves that fit no pattern).

Thresholds: ``LOW = 0.1``, ``PRESERVED = 0.5``, ``CLIMB = 0.4``, ``SOLVED = 0.9``.
"""

from __future__ import annotations

import numpy as np

LOW = 0.1
PRESERVED = 0.5
CLIMB = 0.4
SOLVED = 0.9

FAILURE_MODES: tuple[str, ...] = ("structural_catastrophe", "execution_omission",
                                  "color_imprecision", "structural_imprecision", "none")


def failure_mode_codes(edit_accuracy: np.ndarray, preservation_accuracy: np.ndarray) -> np.ndarray:
    """int ``(n,)`` index into :data:`FAILURE_MODES` from curves ``(n, 11)`` (t = 0..10)."""
    e = np.asarray(edit_accuracy, dtype=np.float64)
    p = np.asarray(preservation_accuracy, dtype=np.float64)
    if e.ndim != 2 or e.shape[1] != 11 or p.shape != e.shape:
        raise ValueError(f"curves: expected two (n, 11) arrays, got {e.shape} and {p.shape}")
    e0, e10, p10 = e[:, 0], e[:, 10], p[:, 10]
    climb = e10 - e0
    rules = [
        (e10 < LOW) & (p10 < LOW),
        (e10 < LOW) & (p10 >= PRESERVED),
        (e0 < LOW) & (climb >= CLIMB),
        (e10 >= LOW) & (e10 < SOLVED) & (climb < CLIMB),
    ]
    return np.select(rules, [0, 1, 2, 3], default=4)


def failure_modes(edit_accuracy, preservation_accuracy) -> list[str]:
    """The tag of each problem (see the module docstring) from curves ``(n, 11)``."""
    return [FAILURE_MODES[c] for c in failure_mode_codes(edit_accuracy, preservation_accuracy)]


def score_failure_mode(score) -> str:
    """The tag of one :class:`paintkit.metrics.ProblemScore`."""
    return failure_modes([score.edit_accuracy], [score.preservation_accuracy])[0]
