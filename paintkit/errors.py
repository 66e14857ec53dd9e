"""Exceptions shared across paintkit."""

from __future__ import annotations


class PaintkitError(Exception):
    """Base class of paintkit's own exceptions."""


class RejectedSeed(PaintkitError):
    """This seed cannot produce a valid problem (scene does not fit, target ambiguous,
    degenerate edit, ...). Suites catch it and try the next attempt (docs/generator-rules.md, seeds)."""


class SceneSamplingError(RejectedSeed, ValueError):
    """The sampler could not place the requested shapes within its bounded number of tries."""
