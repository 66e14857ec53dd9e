"""``paintkit run``: image-editing models over benchmarks, into the outputs layout.

Start at :func:`~paintkit.run.runner.run_model`. Models are
:class:`~paintkit.run.interface.EditModel` adapters: diffusers pipelines
(:mod:`~paintkit.run.diffusion`), provider APIs (:mod:`paintkit.run.api`), or any Python
function (:mod:`~paintkit.run.callable_model`); :func:`~paintkit.run.registry.build_model`
turns a model name into one. Nothing heavy is imported here: diffusers, transformers and
the API clients load only when a model that needs them is built.
"""

from paintkit.run.interface import EditModel, EditRequest, EditResult, ReferenceImage
from paintkit.run.runner import RunSummary, folder_name, run_model

__all__ = ["EditModel", "EditRequest", "EditResult", "ReferenceImage", "RunSummary",
           "folder_name", "run_model"]
