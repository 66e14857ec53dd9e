"""Problems for training loops: :class:`ProblemStream`, a torch ``IterableDataset``.

Importing this package imports torch.
"""

from paintkit.data.stream import LAYOUTS, ProblemStream, collate_problems

__all__ = ["LAYOUTS", "ProblemStream", "collate_problems"]
