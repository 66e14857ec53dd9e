"""Building task scenes from parts: placing given shapes and drawing small marks.

(Called ``paintkit.composition`` up to 0.3; unrelated to :mod:`paintkit.compositional`, the
multi-edit problems.)

- :mod:`.placement`: places given shapes on a canvas under the spacing rules (groups, grids,
  circles, tally strips, legend keys), for tasks that do not sample their scene whole.
- :mod:`.glyphs`: rectangles, bars, arrows and crosses as filled polygons.
- :mod:`.marks`: outlined marks in a reserved colour (the squares of ``copying``, the crop
  rectangle of ``cropping``).
"""
