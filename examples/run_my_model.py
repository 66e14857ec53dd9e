"""Run your own image-editing model over a benchmark with ``paintkit run``.

    PYTHONPATH=examples paintkit run --model 'run_my_model:load_editor()' \\
        --benchmarks out/paintbench --outputs my_outputs --batch-size 4 --limit 2
    paintkit eval --benchmarks out/paintbench --outputs my_outputs --results results

``load_editor()`` is called once (load weights there); what it returns is called with each
batch: a list of ``(PIL image, instruction)`` pairs, plus ``seeds`` (one int per problem,
derived from ``--seed``) because it asks for them. It returns one item per pair: the edited
image, or ``(image, text)`` to save the model's reasoning as ``NNNN_reasoning.txt``, or an
exception for a problem it could not do (recorded, retried on the next run).

The "model" here is a stand-in that needs no weights: it paints the instruction's
requested colour over the whole canvas when the instruction names one, and returns the
input otherwise. Replace ``Editor.__call__`` with your model's forward pass.
"""

from __future__ import annotations

import re

from PIL import Image

COLOURS = {"red": (255, 0, 0), "green": (0, 255, 0), "blue": (0, 0, 255),
           "yellow": (255, 255, 0), "black": (0, 0, 0), "white": (255, 255, 255)}


class Editor:
    def __init__(self, fill: bool = False):
        self.fill = fill  # --option fill=true: paint the named colour everywhere

    def __call__(self, batch, seeds):
        out = []
        for (image, instruction), seed in zip(batch, seeds, strict=True):
            named = re.findall(r"\b(" + "|".join(COLOURS) + r")\b", instruction.lower())
            if self.fill and named:
                edited = Image.new("RGB", image.size, COLOURS[named[-1]])
                out.append((edited, f"seed {seed}: filled with {named[-1]}"))
            else:
                out.append((image, f"seed {seed}: no colour named, input kept"))
        return out


def load_editor(fill: bool = False) -> Editor:
    """Called once with the ``--option key=value`` settings; load your weights here."""
    return Editor(fill=fill)
