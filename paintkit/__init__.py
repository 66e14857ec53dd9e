"""paintkit: exact procedurally generated image-editing benchmarks and fast scoring.

Start here:

- :mod:`paintkit.scene` — the scene model (canvas, background, shapes, extra elements);
- :mod:`paintkit.shapes` — the 12 shapes, their outlines and named control points;
- :mod:`paintkit.sampling` — random shapes that follow the PaintBench placement rules
  (``shapes``) and a visual condition's whole scene from one seed (``condition``);
- :mod:`paintkit.tasks` — the 20 tasks on one contract (``generate``); what they share lives
  in :mod:`paintkit.language`, :mod:`paintkit.composition` and :mod:`paintkit.edits`;
- :mod:`paintkit.renderers` — Scene -> exact pixels (Skia, no anti-aliasing);
- :mod:`paintkit.kernels` — every per-pixel computation (torch / Numba / NumPy);
- :mod:`paintkit.cli` — the ``paintkit`` command.

Heavy dependencies (torch, numba, skia) are imported lazily by the modules that need them.
"""

from paintkit._version import __version__
from paintkit.scene import (
    Background,
    BBox,
    Canvas,
    Line,
    Polygon,
    Scene,
    Shape,
    Stripes,
    Stroke,
)

__all__ = [
    "__version__", "BBox", "Background", "Canvas", "Line", "Polygon", "Scene", "Shape",
    "Stripes", "Stroke",
]
