"""The ``turns`` of a conversational problem (schema: docs/compositional.md#turns).

Turn ``k`` asks for step ``k`` of the chain on the image turn ``k - 1`` produced (turn 1 on
the problem's input). Each turn records its own instruction and its exact answer as a scene
(:func:`answer_pixels` renders it), so a turn can be scored alone (input: the previous
turn's answer) or as a chain (input: the model's own previous output).
"""

from __future__ import annotations

import hashlib

import numpy as np

from paintkit.compositional.operations import Step, chain_notes, step_sentence
from paintkit.kernels.edit_region import count_changed
from paintkit.renderers import render
from paintkit.scene import Scene

TURN_FIELDS = ("turn", "instruction", "operation", "target", "edit_pixels", "answer_sha256",
               "answer_scene")


def _turn_instruction(step: Step) -> str:
    return f"{step_sentence(step)} {chain_notes([step])}"


def pixels_sha256(pixels: np.ndarray) -> str:
    """SHA-256 of a uint8 ``(H, W, 3)`` image's raw bytes (row-major RGB)."""
    return hashlib.sha256(np.ascontiguousarray(pixels, np.uint8).tobytes()).hexdigest()


def conversation_instruction(chain: list[Step]) -> str:
    """Every turn in order, as one text (the problem's top-level ``instruction``)."""
    turns = " ".join(f"Turn {k}: {_turn_instruction(s)}" for k, s in enumerate(chain, 1))
    return (f"A conversation of {len(chain)} turns; each turn edits the image the turn before "
            f"left. {turns}")


def turns_metadata(chain: list[Step], pixels: list[np.ndarray]) -> list[dict]:
    """The ``turns`` list: ``pixels[k]`` is the image after step ``k`` (``pixels[0]`` the input)."""
    return [{
        "turn": k, "instruction": _turn_instruction(step), "operation": step.operation,
        "target": step.target, "edit_pixels": count_changed(pixels[k - 1], pixels[k]),
        "answer_sha256": pixels_sha256(pixels[k]), "answer_scene": step.scene.to_dict(),
    } for k, step in enumerate(chain, 1)]


def answer_pixels(turn: dict) -> np.ndarray:
    """Render a turn's exact answer: uint8 ``(H, W, 3)``.

    Raises:
        ValueError: the turn has no ``answer_scene``, or its render does not match the
            recorded ``answer_sha256`` (another renderer build; the answer would not be exact).
    """
    if "answer_scene" not in turn:
        raise ValueError(f"turn {turn.get('turn', '?')} has no 'answer_scene'; expected the fields "
                         f"{', '.join(TURN_FIELDS)}")
    pixels = render(Scene.from_dict(turn["answer_scene"]))
    if "answer_sha256" in turn and pixels_sha256(pixels) != turn["answer_sha256"]:
        raise ValueError(f"turn {turn.get('turn', '?')}: the answer scene renders to other pixels "
                         "than when the problem was generated (different skia-python build?)")
    return pixels
