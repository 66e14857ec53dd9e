"""Counting: per-tolerance ΔE histograms of a batch (docs/metric-definition.md §4-6).

``bins.py`` defines the bins, thresholds and histogram rows once; the CIE76 counters are
``cie76_numba.py`` (CPU), ``cie76_torch.py`` (any torch device) and ``cie76_cuda.py`` (one
fused CUDA launch, its device code in ``cie76_cuda_kernels.py``); ``formulas.py`` counts
CIE94 and CIEDE2000; ``identity.py`` counts the unchanged input as an output in one pass.
Only :mod:`paintkit.metrics.counts` imports them."""
