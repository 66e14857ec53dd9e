"""Edit builders shared by several tasks (each task module keeps its own domain logic).

- :mod:`.geometric`: affine edits of one shape, re-rendered exactly (translation, rotation,
  reflection, scaling, shearing, copying).
- :mod:`.regions`: outlined regions and their inside, the edit area of the region colour tasks.
- :mod:`.periodicity`: minimal periods of label patterns and whether visible cells pin them down.
- :mod:`.construction_points`: the points a construction instruction places a new element at.
"""
