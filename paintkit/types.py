"""The type aliases of paintkit's public signatures (one place, as httpx's ``_types.py``).

Every alias is a string that only a type checker reads, so importing this module loads
neither torch nor NumPy. The shapes and dtypes the functions accept are in their docstrings;
in short:

- :data:`ImageArray`: one image, a NumPy array ``(H, W, 3)`` (or ``(3, H, W)``), ``uint8``
  or float in ``[0, 1]``;
- :data:`ImageLike`: one image as an array, a tensor or a PIL image (``None`` where an output
  is missing, where the function says so);
- :data:`ImageBatch`: a batch: an array or tensor ``(B, H, W, 3)`` / ``(B, 3, H, W)``, or a
  sequence of :data:`ImageLike` (images of different sizes);
- :data:`DeviceLike`: a torch device or its name (``"cpu"``, ``"cuda:1"``);
- :data:`DTypeLike`: a torch floating dtype (the figures' dtype);
- :data:`TensorLike`: a float tensor or array of per-problem values (``(B,)``);
- :data:`PathLike`: a file or folder path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    import os
    from collections.abc import Sequence

    import numpy as np
    import torch
    from PIL import Image

__all__ = ["DTypeLike", "DeviceLike", "ImageArray", "ImageBatch", "ImageLike", "Metadata",
           "PathLike", "TensorLike"]

ImageArray: TypeAlias = "np.ndarray[Any, Any]"
ImageLike: TypeAlias = "np.ndarray[Any, Any] | torch.Tensor | Image.Image"
ImageBatch: TypeAlias = "np.ndarray[Any, Any] | torch.Tensor | Sequence[ImageLike | None]"
TensorLike: TypeAlias = "torch.Tensor | np.ndarray[Any, Any]"
DeviceLike: TypeAlias = "torch.device | str | int"
DTypeLike: TypeAlias = "torch.dtype"
PathLike: TypeAlias = "str | os.PathLike[str]"
#: One problem's metadata as the benchmark files hold it (JSON: names -> values).
Metadata: TypeAlias = "dict[str, Any]"
