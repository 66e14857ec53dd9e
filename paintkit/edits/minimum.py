"""The least edit a problem may ask for (docs/generator-rules.md#no-degenerate-edits).

Shared by the task contract (:mod:`paintkit.tasks.base` re-exports these names), the edit
builders and the compositional chains.
"""

from __future__ import annotations

import numpy as np

# Geometric edits must change at least this much of the target.
MIN_EDIT_FRACTION = 0.05
MIN_EDIT_PIXELS = 50


def geometric_min_edit(target_area: float) -> int:
    """Least edit region (px) of a geometric edit of a target of ``target_area`` px:
    5% of the target's area and at least 50 px (docs/generator-rules.md#no-degenerate-edits)."""
    return max(MIN_EDIT_PIXELS, int(np.ceil(MIN_EDIT_FRACTION * target_area)))
