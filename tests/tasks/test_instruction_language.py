"""Instructions say exactly what to paint, in plain English, on every (task, mode, condition).

- every color an answer paints (border, construction, recolor to a color, flood fill,
  gradient endpoints, blending) is stated as ``#RRGGBB``; a name alone is not exact (the
  nonstandard "cyan" is #0FE1DF, CIE76 10.8 from #00FFFF);
- "a"/"an" agree with the next word, and palette adjectives ("tan-colored") never stand
  alone as a noun ("in tan-colored").
"""

import re

import pytest

from paintkit.colors import NONSTANDARD, STANDARD, color_noun, rgb_to_hex
from paintkit.language.phrases import article, color_code_phrase

# Tasks whose answer paints new pixels in stated colors, and where to find those colors.
SCENE_COLOR_PAINTERS = {"border", "construction", "flood_fill"}


def stated_colors(facts) -> list:
    """The colors this problem's answer paints that its instruction must state exactly."""
    meta = facts.metadata
    task, mode, params = meta["task"], meta["mode"], meta["params"]
    if task in SCENE_COLOR_PAINTERS or (task == "recolor" and mode == "color_code"):
        return sorted(facts.painted)
    if task == "blending":
        return [tuple(params["color"])]
    if task == "gradient":
        return [tuple(params["c0"]), tuple(params["c1"])]
    return []


def test_painted_colors_are_stated_as_codes(task, mode, condition, grid_facts):
    p = grid_facts(task, mode, condition)
    for color in stated_colors(p):
        assert rgb_to_hex(color) in p.instruction, (
            f"paints {rgb_to_hex(color)} but the instruction does not state it: {p.instruction}")


_ARTICLE = re.compile(r"\b([Aa]n?) ([A-Za-z#][\w-]*)")
# "a" is also the formula variable of the gradient ("where a and b are ...", "a + t").
_VARIABLES = {"and", "+"}
_ADJECTIVE_AS_NOUN = re.compile(r"\b(in|to) [a-z]+-colored\b|-colored(?= \(|[.,:;]|$)")


def english_problems(instruction: str) -> list[str]:
    """Articles that disagree with their word and palette adjectives used as nouns."""
    found = []
    for art, word in _ARTICLE.findall(instruction):
        if word in _VARIABLES:
            continue
        if art.lower() != article(word):
            found.append(f"{art} {word}")
    found += [m.group(0) for m in _ADJECTIVE_AS_NOUN.finditer(instruction)]
    return found


def test_instructions_are_plain_english(task, mode, condition, grid_facts):
    p = grid_facts(task, mode, condition)
    assert english_problems(p.instruction) == [], p.instruction


@pytest.mark.parametrize("text", [
    "Remove every shape that is not a arrow.",
    "Draw a straight line in tan-colored from the tip to the center.",
    "Crop the image to the region outlined in olive-colored, a rectangle.",
    "Blend tangerine-colored (#F47B16) at 40% opacity.",
    "Remove every shape that is not an star.",
])
def test_the_language_check_catches_known_mistakes(text):
    assert english_problems(text), text


def test_the_language_check_accepts_good_english():
    text = ("Remove every shape that is not an arrow. Draw a straight line in tan (#CBAA85) "
            "to a tan-colored star, where a and b are that channel of a + t.")
    assert english_problems(text) == []


@pytest.mark.parametrize("color", [c.rgb for c in STANDARD + NONSTANDARD])
def test_color_code_phrase_is_a_noun_with_the_code(color):
    phrase = color_code_phrase(color)
    assert phrase == f"{color_noun(color)} ({rgb_to_hex(color)})"
    assert "-colored" not in phrase

