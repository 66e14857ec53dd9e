"""Problems for training loops and clusters.

- :class:`ProblemStream`, a torch ``IterableDataset`` (:mod:`paintkit.data.stream`; importing
  it imports torch);
- :func:`problem_dataset` and :class:`ScoreProblems`, the suite and ``paintkit eval``'s scoring
  as Ray Data pieces (:mod:`paintkit.data.ray_data`; importing it imports no torch).

Names load on first use, so ``import paintkit.data.ray_data`` on a Ray worker does not pull
in torch.
"""

_LAZY = {
    "LAYOUTS": "paintkit.data.stream", "ProblemStream": "paintkit.data.stream",
    "collate_problems": "paintkit.data.stream",
    "ScoreProblems": "paintkit.data.ray_data", "problem_dataset": "paintkit.data.ray_data",
    "score_on_ray": "paintkit.data.ray_data", "problem_rows": "paintkit.data.ray_data",
}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'paintkit.data' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


__all__ = ["LAYOUTS", "ProblemStream", "ScoreProblems", "collate_problems", "problem_dataset",
           "problem_rows", "score_on_ray"]
