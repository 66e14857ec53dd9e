"""paintkit.renderers: Scene -> exact pixels.

Installed as ``paintkit.renderers``. Imports only :mod:`paintkit.kernels` and the scene data
types (:mod:`paintkit.scene`, :mod:`paintkit.shapes`).
"""
