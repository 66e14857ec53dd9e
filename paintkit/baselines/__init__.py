"""Reference "models" that need no model: write outputs in the standard layout (docs/file-layout.md)
so the whole
pipeline (generate -> baseline -> eval -> stats -> report) runs end to end.

- ``oracle``: the answer (scores 1.0 everywhere);
- ``identity``: the input unchanged (0 on edits, 1.0 on the preservation split);
- ``blank``: an empty canvas of the scene's background colour (``bg_colors[0]``);
- ``noise``: uniform random RGB, seeded from the problem's key (same bytes every run).
"""

from paintkit.baselines.outputs import BASELINES, baseline_output, write_baseline

__all__ = ["BASELINES", "baseline_output", "write_baseline"]
