"""Problems for training loops and clusters.

- :class:`ProblemStream`, a torch ``IterableDataset`` (:mod:`paintkit.data.stream`; importing
  it imports torch);
- :func:`problem_dataset` and :class:`ScoreProblems`, the suite and ``paintkit eval``'s scoring
  as Ray Data pieces (:mod:`paintkit.data.ray_data`; importing it imports no torch);
- what the stream is made of: :mod:`paintkit.data.partition` (which positions each DDP rank
  and DataLoader worker yields) and :mod:`paintkit.data.transfer` (pixels from DataLoader
  workers through reused shared memory).

The name is the one PyTorch (``torch.utils.data``)
and Ray (Ray Data) users look under; the benchmark's files are :mod:`paintkit.layout`'s.

Names load on first use, so ``import paintkit.data.ray_data`` on a Ray worker does not pull
in torch.
"""

import importlib

_STREAM = ("LAYOUTS", "ProblemStream", "collate_problems")
_RAY = ("ScoreProblems", "ScoreShardRows", "problem_dataset", "problem_rows", "score_on_ray")
_LAZY = {**dict.fromkeys(_STREAM, "paintkit.data.stream"), **dict.fromkeys(_RAY, "paintkit.data.ray_data")}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'paintkit.data' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


__all__ = [*_STREAM, *_RAY]  # noqa: PLE0604
