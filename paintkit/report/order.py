"""Deprecated: the registry order of categories and tasks moved to
:mod:`paintkit.layout.order` (``paintkit stats`` sorts with it too). The old names still
work for one version, with a ``DeprecationWarning``."""

from paintkit.deprecation import moved_names

__getattr__ = moved_names(__name__, {"category_key": "paintkit.layout.order",
                                     "task_key": "paintkit.layout.order"})
