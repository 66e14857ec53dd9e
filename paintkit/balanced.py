"""Deprecated name of :mod:`paintkit.subsets` (balanced subsets, the ``paintkit subset``
command). Kept for one version: importing it gives :mod:`paintkit.subsets` itself."""

import sys

from paintkit import subsets
from paintkit.deprecation import warn_deprecated

warn_deprecated("paintkit.balanced", "paintkit.subsets", stacklevel=2)
sys.modules[__name__] = subsets
