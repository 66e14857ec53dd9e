"""The one error of the file layout."""

from __future__ import annotations

from paintkit.errors import PaintkitError


class LayoutError(PaintkitError, ValueError):
    """A benchmark or outputs tree does not follow the standard layout (docs/file-layout.md),
    or a results file cannot be read under its reader's policy."""
