"""Deprecated module: :mod:`paintkit.metrics.targets` (``Reference`` is now ``Targets``,
``prepare_reference`` is ``prepare_targets``). Kept for one version."""

from paintkit.deprecation import module_aliases, warn_deprecated
from paintkit.metrics.targets import TargetGroup, Targets, prepare_targets

warn_deprecated("paintkit.metrics.reference", "paintkit.metrics.targets", stacklevel=2)

__getattr__ = module_aliases(__name__, {
    "Reference": ("paintkit.metrics.targets", "Targets"),
    "prepare_reference": ("paintkit.metrics.targets", "prepare_targets"),
})

__all__ = ["TargetGroup", "Targets", "prepare_targets"]
